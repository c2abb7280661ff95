// The viewer's mesh on the GPU and its live drag: the vertex buffer the solver
// writes and the draw reads, and the LiveMove that plays the stroke into it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

#include <sculptflow/live_move.hpp>
#include "host/gpu_buffer.hpp"
#include "host/vulkan_functions.hpp"
#include "chunked_mesh.hpp"
#include "mesh_pipeline.hpp"
#include "stroke_playback.hpp"

namespace sculptflow::viewer {

// Owns the vertex buffer (positions and normals interleaved, voxels; vertex,
// storage and transfer usage, device-local), the chunk ids, the mask (the
// renderer's, which the solver reads: RendererMesh::mask), the solver's per-vertex
// statistics (RendererMesh::statistics, for the evaluations map) and the triangles
// (host-visible), the undeformed vertices (for a reset, the before view and the
// heat map) and the LiveMove.
class LiveMesh {
public:
    // Uploads the mesh through `pool` on the context's queue (and waits), then
    // builds the LiveMove over it, with a mask of 1 (every vertex free). Throws
    // sculptflow::Error.
    LiveMesh(Context& context, VkCommandPool pool, const ChunkedMesh& mesh, const Stroke& stroke,
             const LiveMoveOptions& options);
    ~LiveMesh();
    LiveMesh(const LiveMesh&) = delete;
    LiveMesh& operator=(const LiveMesh&) = delete;

    // Records this frame's work on the vertex buffer into `commands`, outside a
    // render pass and before the draw: the reset, then begin/update as `frame`
    // says and LiveMove::record (which ends with the barrier the draw needs).
    // Throws only for a refused grab (bad tools); a refused update keeps the
    // previous shape and is reported once through lastError().
    RecordReport recordFrame(VkCommandBuffer commands, const PlaybackFrame& frame);
    // After the frame's command buffer is submitted: tells the LiveMove so
    // (LiveMove::submitted), then commits on release.
    void finishFrame(const PlaybackFrame& frame, const RecordReport& report);

    // The mask, one value a vertex in the chunked order, or every vertex free
    // (empty). Written through the mapping: no submitted frame may still run.
    void setMask(std::span<const float> mask);
    // What the next grab applies: the mirror planes, and the mode (continuous
    // mode solves each segment to segmentTolerance voxels).
    void setSymmetry(const Symmetry& symmetry) { playback_.setSymmetry(symmetry); }
    void setMode(MoveMode mode, double segmentTolerance);
    // Drops the drag in progress (LiveMove::cancel): the next recordFrame, with
    // nothing to do, restores the grab's shape; then a reset and grab may follow.
    // True when there was a drag to drop.
    bool cancel();
    // The symmetry the stroke plays with, and the tools' poses of the last grab or drag.
    const Symmetry& symmetry() const { return playback_.stroke().symmetry; }
    std::span<const Pose> poses() const { return poses_; }
    const Stroke& stroke() const { return playback_.stroke(); }

    // The vertex buffer's positions (voxels, chunked order), read back through
    // `pool` after everything submitted before (and waited for). Tests and tools only.
    std::vector<glm::vec3> readPositions(Context& context, VkCommandPool pool) const;

    // The buffers for MeshPipeline::record (push and background left to the caller),
    // with the mask and the undeformed vertices as the rest positions; drawing the
    // deformed vertices, or with `undeformed` the mesh as it was before any drag.
    DrawCall drawCall(bool undeformed = false) const;
    double gpuMilliseconds() const { return live_->gpuMilliseconds(); }
    uint32_t vertexCount() const { return vertexCount_; }
    size_t chunkCount() const { return chunks_.size(); }
    // The latest message from a refused update or record; empty if none.
    const std::string& lastError() const { return lastError_; }

private:
    const VulkanFunctions& vk_; // the Context's table, for the shared barrier helper
    void recordReset(VkCommandBuffer commands);

    uint32_t vertexCount_ = 0;
    uint32_t indexCount_ = 0;
    std::vector<MeshChunk> chunks_; // as built: a reset puts these bounds back
    GpuBuffer vertices_;
    GpuBuffer undeformed_;
    GpuBuffer chunkIds_;
    GpuBuffer mask_;
    GpuBuffer statistics_; // RendererMesh::statistics, read by the evaluations map
    GpuBuffer indices_;
    StrokePlayback playback_;
    std::vector<Pose> poses_; // the tools' latest poses, for their gizmos
    MoveMode mode_ = MoveMode::Move;
    double segmentTolerance_ = kDefaultSegmentTolerance;
    std::unique_ptr<LiveMove> live_;
    std::string lastError_;
};

} // namespace sculptflow::viewer
