// The library's side of LiveMove.
#pragma once

#include <array>

#include <vector>

#include "chunk_reach.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"
#include "kernel.hpp"
#include "live_move.hpp"
#include "motion.hpp"
#include "normals_pipeline.hpp"

namespace sculptflow {

// The public methods' contracts are in live_move.hpp; these do the work.
struct LiveMove::Impl {
    Impl(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode);
    bool update(std::span<const Pose> posesB, double segmentTolerance) noexcept;
    RecordReport record(VkCommandBuffer commands) noexcept;
    void commit();
    void cancel();
    bool moving() const { return state_ == State::Moving; }
    const std::string& lastError() const { return lastError_; }
    double gpuMilliseconds() const;
    size_t chunkCount() const { return chunks_.size(); }
    const Bounds& chunkBounds(size_t chunk) const { return chunks_[chunk].bounds; }
    void setChunkBounds(size_t chunk, const Bounds& bounds);

    enum class State { Idle, Moving };
    // A byte range of a renderer buffer and its place in the snapshot.
    struct Span {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceSize begin = 0;          // bytes in the renderer's buffer
        VkDeviceSize end = 0;
        VkDeviceSize snapshotOffset = 0; // where it starts in the snapshot
    };

    void createDescriptors(const RendererMesh& mesh); // live_move_descriptors.cpp
    void setMotion(std::span<const Pose> posesA, std::span<const Pose> posesB); // move_ from the tools' poses
    void recordSolve(VkCommandBuffer commands, RecordReport& report);
    void recordRestores(VkCommandBuffer commands);
    void release();

    Context& context_;
    LiveMoveOptions options_;
    uint32_t vertexCount_ = 0;
    bool hasNormals_ = false;
    VertexStream positionStream_;
    VertexStream normalStream_;
    bool hasMask_ = false;
    bool hasStatistics_ = false; // RendererMesh::statistics given
    std::vector<Span> spans_;
    std::vector<MeshChunk> chunks_;
    std::vector<uint8_t> dirty_;         // chunk written since begin()
    std::vector<uint8_t> restoring_;     // chunk to copy back at the next record()
    std::vector<VkBufferCopy> copies_;   // scratch, sized at construction
    std::vector<uint32_t> solvedChunks_; // scratch, sized at construction

    DeformPipelines deformPipelines_;
    std::unique_ptr<NormalsPipeline> normalsPipeline_;
    GpuBuffer snapshot_;
    GpuBuffer tools_;
    GpuBuffer noStatistics_;
    GpuBuffer adjacencyStart_;
    GpuBuffer adjacencyPairs_;
    // With staged buffers: the adjacency's host-visible copy, and its two copies
    // into the device-local buffers, recorded by the first record() that does work.
    GpuBuffer adjacencyStaging_;
    std::array<VkBufferCopy, 2> adjacencyCopies_{};
    bool adjacencyCopied_ = false;
    DeformScratch deformScratch_; // the compaction's, sized to the mesh
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    DeformBinding deformBinding_;     // from the snapshot (MoveMode::Move)
    DeformBinding continuousBinding_; // in place, from the positions so far (MoveMode::Continuous)
    VkDescriptorSet normalsSet_ = VK_NULL_HANDLE;
    NormalsPushConstants normalsLayout_{};
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    uint32_t frame_ = 0;

    State state_ = State::Idle;
    MoveMode mode_ = MoveMode::Move;
    Stroke toolSettings_;
    std::vector<Pose> posesA_;    // Move: the grab's; Continuous: the last recorded segment's end
    std::vector<Pose> posesB_;    // the pending frame's
    Move move_;
    kernel::Kernel kernel_;
    bool snapshotPending_ = false;
    bool solvePending_ = false;
    std::string lastError_;
};

} // namespace sculptflow
