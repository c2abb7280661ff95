// The library's side of LiveMove.
#pragma once

#include <array>
#include <exception>
#include <utility>
#include <vector>

#include <sculptflow/error.hpp>
#include <sculptflow/live_move.hpp>
#include <sculptflow/motion.hpp>
#include "src/chunk_reach.hpp"
#include "src/kernel.hpp"
#include "deform_interface.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"
#include "live_pipelines.hpp"

namespace sculptflow {

constexpr uint32_t kTimestampRing = 8; // frames whose GPU time can be in flight at once

// The public methods' contracts are in live_move.hpp; these do the work.
//
// State comes in two kinds. What the caller asked for (state_, posesB_, the
// update generation) changes in begin/update/commit/cancel. What the GPU holds
// once every acknowledged frame has run (snapshotted_, written_, posesA_ in
// continuous mode, the chunk bounds) changes only in submitted(). record() records
// the difference and keeps it as the pending frame, which submitted() applies
// and the next record() forgets (the frame was dropped).
struct LiveMove::Impl {
    Impl(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode);
    bool update(std::span<const Pose> posesB, double segmentTolerance) noexcept;
    RecordReport record(VkCommandBuffer commands, const RecordSync& sync) noexcept; // live_move_record.cpp
    bool recordUndoCopy(VkCommandBuffer commands, VkBuffer positionsCopy, VkBuffer normalsCopy) noexcept;
    bool submitted(FrameTicket ticket) noexcept;
    void commit();
    void cancel();
    bool moving() const { return state_ == State::Moving; }
    const std::string& lastError() const { return lastError_; }
    // What made the last record() fail (lastError() says it too); null when it
    // recorded or had nothing to record. RecordReport alone cannot tell a failure
    // from "nothing pending": the C API rethrows this into its one error mapping.
    std::exception_ptr recordFailure() const { return recordFailure_; }
    double gpuMilliseconds() const;
    size_t chunkCount() const { return chunks_.size(); }
    const Bounds& chunkBounds(size_t chunk) const { return chunks_[chunk].bounds; }
    void setChunkBounds(size_t chunk, const Bounds& bounds);

    // Moving: between begin() and commit()/cancel(). Committing/Cancelling: released,
    // until a submitted frame has done the move's last work (solve or restores).
    enum class State { Idle, Moving, Committing, Cancelling };
    // A byte range of a renderer buffer and its place in the snapshot.
    struct Span {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceSize begin = 0;          // bytes in the renderer's buffer
        VkDeviceSize end = 0;
        VkDeviceSize snapshotOffset = 0; // where it starts in the snapshot
    };
    // What the latest record() put into its command buffer, applied by submitted().
    struct PendingFrame {
        uint64_t ticket = 0; // 0: none outstanding
        std::vector<uint32_t> snapshots; // chunks first solved now; capacity reserved at construction
        bool adjacency = false;
        bool solve = false;
        uint64_t generation = 0;        // the update() it solved
        float grow = 0.0f;              // continuous: how far the segment can carry a vertex
        std::vector<uint32_t> solved;   // chunks; capacity reserved at construction
        std::vector<uint32_t> restored; // chunks; capacity reserved at construction
        std::vector<Pose> posesB;       // continuous: the segment's end
    };

    void createDescriptors(const RendererMesh& mesh); // live_move_descriptors.cpp
    void setMotion(std::span<const Pose> posesA, std::span<const Pose> posesB); // move_ from the tools' poses
    bool solveWanted() const { return state_ != State::Cancelling && updateGeneration_ != solvedGeneration_; }
    void planFrame(); // fills pending_ from the state: live_move_record.cpp
    void recordSolve(VkCommandBuffer commands, RecordReport& report);
    void listAccesses(RecordReport& report) const;
    void listTransferRanges(); // transferRanges_ from the descriptors' ranges
    void recordSnapshots(VkCommandBuffer commands);
    void recordRestores(VkCommandBuffer commands);
    // The byte range [from, to) of `span` that holds `chunk`'s positions and normals.
    std::pair<VkDeviceSize, VkDeviceSize> chunkBytes(const Span& span, const MeshChunk& chunk) const;
    void settle() noexcept; // closes a released move once nothing is left to record
    bool refuse(const char* message) noexcept { // for the noexcept calls: lastError_, false
        try {
            lastError_ = message;
        } catch (...) {
        }
        return false;
    }
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
    std::vector<VkBufferCopy> copies_; // scratch, sized at construction

    LivePipelines& pipelines_; // the Context's, shared by its LiveMoves
    GpuBuffer snapshot_;
    DeformInterface deform_; // the tool block and the unused bindings' placeholder
    GpuBuffer adjacencyStart_;
    GpuBuffer adjacencyPairs_;
    // With staged buffers: the adjacency's host-visible copy, and its two copies
    // into the device-local buffers, recorded until a frame carrying them is submitted.
    GpuBuffer adjacencyStaging_;
    std::array<VkBufferCopy, 2> adjacencyCopies_{};
    DeformScratch deformScratch_; // the compaction's, sized to the mesh
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    DeformBinding deformBinding_;     // from the snapshot (MoveMode::Move)
    DeformBinding continuousBinding_; // in place, from the positions so far (MoveMode::Continuous)
    // The renderer's buffer ranges the descriptors bind (for RecordReport::accesses).
    VkDescriptorBufferInfo positionsRange_{};
    VkDescriptorBufferInfo normalsRange_{};
    VkDescriptorBufferInfo maskRange_{};
    VkDescriptorBufferInfo statisticsRange_{};
    // Those ranges merged where they overlap in one buffer: what crosses queue
    // families with async compute (RecordReport::transfers).
    std::array<BufferAccess, kMaxOwnershipTransfers> transferRanges_{};
    uint32_t transferRangeCount_ = 0;
    VkDescriptorSet normalsSet_ = VK_NULL_HANDLE;
    VertexPassPushConstants normalsLayout_{};
    // Restores: from the snapshot into the positions, and into the normals.
    std::array<VkDescriptorSet, 2> restoreSets_{};
    std::array<VertexPassPushConstants, 2> restoreLayouts_{};
    VkQueryPool timestamps_ = VK_NULL_HANDLE;

    // What the caller asked for.
    State state_ = State::Idle;
    MoveMode mode_ = MoveMode::Move;
    Stroke toolSettings_;
    std::vector<Pose> posesB_;    // the latest update()'s
    double segmentTolerance_ = kDefaultSegmentTolerance;
    uint64_t updateGeneration_ = 0; // counts accepted update()s
    Move move_;
    kernel::Kernel kernel_;       // the next frame's: set by update() (move) or record() (continuous)

    // What the GPU holds once the acknowledged frames have run.
    std::vector<uint8_t> snapshotted_; // chunk: the snapshot holds its undeformed bytes for this move
    bool adjacencyUploaded_ = false; // staged buffers: the adjacency is in its device-local buffers
    std::vector<uint8_t> written_;   // chunk holds solver output, not the snapshot's bytes
    std::vector<Pose> posesA_;       // Move: the grab's; Continuous: the last submitted segment's end
    uint64_t solvedGeneration_ = 0;  // the update() the last submitted solve solved
    uint32_t submittedFrames_ = 0;   // frames with timestamps that were submitted

    std::vector<uint32_t> changed_;  // after a committed move is over: the chunks it changed

    PendingFrame pending_;
    uint64_t nextTicket_ = 1;
    std::string lastError_;
    std::exception_ptr recordFailure_; // record()'s
};

} // namespace sculptflow
