// The library's side of LiveMove.
#pragma once

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

struct LiveMove::Impl {
    // Validates the mesh (Error names the field), builds the normals adjacency and
    // allocates everything a frame needs. Submits nothing.
    Impl(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    // Grab. `tools` gives each hand's kind, radii, material and the voxel size
    // (their poses are not read); posesA one pose per hand. Builds the pipeline
    // the move needs. Throws sculptflow::Error for bad tools or while a move is
    // open or its last frame is not yet recorded.
    void begin(const Stroke& tools, std::span<const Pose> posesA);

    // The live poses, one per hand, later in time than pose A. Allocates nothing
    // and throws nothing: false when refused (lastError() says why), and the
    // previous frame's shape stays.
    bool update(std::span<const Pose> posesB) noexcept;

    // Records the pending work into `commands` (recording, outside a render pass).
    // Allocates nothing, waits on nothing, throws nothing.
    RecordReport record(VkCommandBuffer commands) noexcept;

    void commit();
    void cancel();

    bool moving() const { return state_ == State::Moving; }
    const std::string& lastError() const { return lastError_; }
    // GPU milliseconds of a frame recorded a few frames ago, once available; NaN before.
    double gpuMilliseconds() const;

    size_t chunkCount() const { return chunks_.size(); }
    const Bounds& chunkBounds(size_t chunk) const { return chunks_[chunk].bounds; }
    // Replaces a chunk's bounds (after the renderer re-meshes it, say). A committed
    // move grows the bounds of the chunks it changed by displacementBound().
    void setChunkBounds(size_t chunk, const Bounds& bounds);

    enum class State { Idle, Moving };
    struct Span; // a byte range of a renderer buffer and its place in the snapshot

    void createDescriptors(const RendererMesh& mesh);
    void recordSolve(VkCommandBuffer commands, RecordReport& report);
    void recordRestores(VkCommandBuffer commands);
    void release();

    Context& context_;
    LiveMoveOptions options_;
    uint32_t vertexCount_ = 0;
    bool hasNormals_ = false;
    VertexStream positionStream_;
    VertexStream normalStream_;
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
    DeformScratch deformScratch_; // the compaction's, sized to the mesh
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    DeformBinding deformBinding_;
    VkDescriptorSet normalsSet_ = VK_NULL_HANDLE;
    NormalsPushConstants normalsLayout_{};
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    uint32_t frame_ = 0;

    State state_ = State::Idle;
    Stroke toolSettings_;
    std::vector<Pose> posesA_;
    Move move_;
    kernel::Kernel kernel_;
    bool snapshotPending_ = false;
    bool solvePending_ = false;
    std::string lastError_;
};

} // namespace sculptflow
