// The tools' gizmos: at each tool's tip (and each mirrored copy's) a sphere of the
// tool's inner radius, a ring of its outer radius about its local z axis, and
// sticks along its local x, y and z axes (z the longest), so that a copy's reach,
// position and orientation show as it moves along the stroke.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/stroke.hpp>
#include "host/gpu_buffer.hpp"
#include "frame_ring.hpp"
#include "mesh_pipeline.hpp"
#include "viewer_symmetry.hpp"

namespace sculptflow::viewer {

// A gizmo's size, in voxels.
struct GizmoShape {
    float innerRadius = 1.0f; // the sphere
    float outerRadius = 5.0f; // the ring, in the tool's local xy plane
};

// The first tool's radii in voxels (the sphere a tenth of the outer radius when
// the tool has no inner one).
GizmoShape gizmoShape(const Stroke& stroke);

// One gizmo's triangles (position, normal; 24 bytes a vertex as kVertexStride) in
// the tool's frame, voxels: the sphere, the ring (a thin torus) and the axes
// (x and y half the outer radius long, z three quarters).
std::vector<glm::vec3> gizmoTriangles(const GizmoShape& shape); // position, normal, position, normal, …

// Owns a host-visible vertex buffer with room for kMaxTools gizmos per frame in
// flight, and the constant chunk-id (0) and mask (1) streams they are drawn with.
class ToolGizmos {
public:
    ToolGizmos(Context& context, const GizmoShape& shape);

    // Writes the gizmos of `copies` (world units)
    // into frame slot `slot`'s part of the buffer, which no submitted frame may
    // still read (FrameRing::wait), and returns their draws: the tools in
    // `toolColor`, the mirrored copies in `copyColor` (linear). Copies past kMaxTools are not drawn.
    std::vector<OverlayDraw> update(uint32_t slot, std::span<const ToolCopy> copies, double voxelSize,
                                    const glm::vec3& toolColor, const glm::vec3& copyColor);

private:
    std::vector<glm::vec3> shape_; // gizmoTriangles(), voxels
    uint32_t shapeVertices_ = 0;
    GpuBuffer vertices_;   // kFramesInFlight regions of kMaxTools gizmos
    GpuBuffer attributes_; // chunk ids then mask values, for kMaxTools gizmos
};

} // namespace sculptflow::viewer
