// The tools' gizmos: at each tool's tip (and each mirrored copy's) a ball and two
// sticks along its local z and x axes, so a copy's position and orientation show.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "frame_ring.hpp"
#include "gpu_buffer.hpp"
#include "mesh_pipeline.hpp"
#include "stroke.hpp"
#include "viewer_symmetry.hpp"

namespace sculptflow::viewer {

// One gizmo's triangles (position, normal; 24 bytes a vertex as kVertexStride),
// ball radius 1, the z stick 3 long and the x stick 2, in the tool's frame.
std::vector<glm::vec3> gizmoTriangles(); // position, normal, position, normal, …

// The gizmos' ball radius for a stroke, in voxels: half the first tool's inner
// radius (a tenth of its outer one when it has none).
float gizmoRadius(const Stroke& stroke);

// Owns a host-visible vertex buffer with room for kMaxTools gizmos per frame in
// flight, and the constant chunk-id (0) and mask (1) streams they are drawn with.
class ToolGizmos {
public:
    explicit ToolGizmos(Context& context);

    // Writes the gizmos of `copies` (world units; ball radius `radius` voxels)
    // into frame slot `slot`'s part of the buffer, which no submitted frame may
    // still read (FrameRing::wait), and returns their draws: the tools in
    // `toolColor`, the mirrored copies in `copyColor` (linear). Copies past kMaxTools are not drawn.
    std::vector<OverlayDraw> update(uint32_t slot, std::span<const ToolCopy> copies, double voxelSize, float radius,
                                    const glm::vec3& toolColor, const glm::vec3& copyColor);

private:
    std::vector<glm::vec3> shape_; // gizmoTriangles()
    uint32_t shapeVertices_ = 0;
    GpuBuffer vertices_;   // kFramesInFlight regions of kMaxTools gizmos
    GpuBuffer attributes_; // chunk ids then mask values, for kMaxTools gizmos
};

} // namespace sculptflow::viewer
