// LiveMove's per-frame recording: what the submitted frames have not done yet
// (snapshot, adjacency upload, restores, solve, normals) into the renderer's
// command buffer. Records only: the state moves on in submitted().
#include "live_move_impl.hpp"

#include <algorithm>

#include "context_impl.hpp"
#include "src/kernel_tools.hpp"
#include "memory_barrier.hpp"
#include "scoped_barrier.hpp"

namespace sculptflow {

namespace {

constexpr VkPipelineStageFlags kOurStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kOurWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kOurAccesses = kOurWrites | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT |
                                       VK_ACCESS_TRANSFER_READ_BIT;
constexpr VkAccessFlags kComputeAccesses = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

// The edges' scopes (synchronization2 values that Vulkan 1.2 shares).
constexpr AccessScope kOurWriteScope{kOurStages, kOurWrites};
constexpr AccessScope kOurScope{kOurStages, kOurAccesses};
constexpr VkPipelineStageFlags2 kVertexStages =
    VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;

// Where no scope is given: vertex input and vertex shader reads on a queue with
// graphics, compute and transfer reads elsewhere.
AccessScope defaultBefore(bool graphics) { return {graphics ? kVertexStages : 0, 0}; }
AccessScope defaultAfter(bool graphics) {
    return graphics ? AccessScope{kVertexStages, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT}
                    : AccessScope{kOurStages, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT};
}

// Calls recordRun(firstVertex, vertexCount, bounds) for each run of chunks in
// `list` (ascending) whose vertex ranges follow one another: one dispatch each.
template <class RecordRun>
void forEachRun(std::span<const MeshChunk> chunks, std::span<const uint32_t> list, RecordRun&& recordRun) {
    for (size_t k = 0; k < list.size();) {
        const uint32_t first = chunks[list[k]].firstVertex;
        uint32_t end = first + chunks[list[k]].vertexCount;
        Bounds bounds = chunks[list[k]].bounds;
        for (++k; k < list.size() && chunks[list[k]].firstVertex == end; ++k) {
            end += chunks[list[k]].vertexCount;
            bounds = {glm::min(bounds.min, chunks[list[k]].bounds.min), glm::max(bounds.max, chunks[list[k]].bounds.max)};
        }
        recordRun(first, end - first, bounds);
    }
}

} // namespace

// The difference between what the caller asked for and what the submitted frames did.
void LiveMove::Impl::planFrame() {
    PendingFrame& frame = pending_;
    const bool open = state_ == State::Moving || state_ == State::Committing;
    frame.solve = open && solveWanted();
    frame.snapshots.clear(); // capacities reserved: no allocation
    frame.solved.clear();
    frame.restored.clear();
    if (frame.solve) {
        if (mode_ == MoveMode::Continuous) {
            // The segment from the last submitted frame's poses: a dropped frame's
            // segment joins the next one.
            setMotion(posesA_, posesB_);
            SolverOptions solver = options_.solver;
            solver.tolerance = segmentTolerance_;
            kernel_ = makeKernel(move_, solver);
            frame.grow = displacementBound(kernel_);
            frame.posesB.assign(posesB_.begin(), posesB_.end());
        }
        frame.generation = updateGeneration_;
        // Chunks the tools reach are solved. In move mode, chunks solved before and out
        // of reach now go back; in continuous mode they keep what earlier segments did.
        for (uint32_t c = 0; c < chunks_.size(); ++c) {
            if (boxInReach(kernel_, chunks_[c].bounds)) {
                frame.solved.push_back(c);
                if (!snapshotted_[c]) frame.snapshots.push_back(c); // in the frame that first writes it
            } else if (written_[c] && mode_ == MoveMode::Move)
                frame.restored.push_back(c);
        }
    }
    if (state_ == State::Cancelling)
        for (uint32_t c = 0; c < chunks_.size(); ++c)
            if (written_[c]) frame.restored.push_back(c);
    frame.adjacency = frame.solve && hasNormals_ && adjacencyStaging_.handle() && !adjacencyUploaded_;
}

RecordReport LiveMove::Impl::record(VkCommandBuffer commands, const RecordSync& sync) noexcept {
    const Context::Impl& ctx = implOf(context_);
    RecordReport report;
    report.chunksTotal = uint32_t(chunks_.size());
    pending_.ticket = 0; // a frame recorded before and not acknowledged was dropped
    recordFailure_ = nullptr;
    settle();
    try {
        planFrame();
        if (!pending_.solve && pending_.restored.empty()) return report;
        const uint32_t ours = context_.queueFamily();
        const bool transfer = !sync.renderGraph && sync.drawQueueFamily != VK_QUEUE_FAMILY_IGNORED &&
                              sync.drawQueueFamily != ours;
        if (transfer && sync.drawQueueFamily >= ctx.queueFamilyCount) {
            const char* message = "record: RecordSync::drawQueueFamily is not a queue family of this device; nothing recorded";
            refuse(message);
            recordFailure_ = std::make_exception_ptr(Error(ErrorCode::InvalidArgument, message));
            return report;
        }
        const std::span<const BufferAccess> ranges{transferRanges_.data(), transferRangeCount_};
        // Async compute: the renderer's buffers come over from the draws' family.
        if (transfer) ownershipTransfer(ctx, commands, ranges, sync.drawQueueFamily, ours, {}, kOurScope);
        const bool graphics = context_.queueFlags() & VK_QUEUE_GRAPHICS_BIT;
        // After the renderer's earlier accesses and the earlier frames' writes (in a
        // render graph, only the latter: the graph orders its own).
        const AccessScope before = sync.renderGraph ? AccessScope{}
                                   : sync.before.stages ? sync.before
                                                        : defaultBefore(graphics);
        scopedBarrier(ctx, commands, {before.stages | kOurStages, before.accesses | kOurWrites}, kOurScope);
        const uint32_t slot = submittedFrames_ % kTimestampRing;
        if (timestamps_) {
            ctx.vk.vkCmdResetQueryPool(commands, timestamps_, 2 * slot, 2);
            ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 2 * slot);
        }
        recordSnapshots(commands);
        report.chunksSnapshotted = uint32_t(pending_.snapshots.size());
        if (pending_.adjacency) { // the staging copy stays until this LiveMove goes: a frame may be in flight
            ctx.vk.vkCmdCopyBuffer(commands, adjacencyStaging_.handle(), adjacencyStart_.handle(), 1,
                                   &adjacencyCopies_[0]);
            if (adjacencyCopies_[1].size)
                ctx.vk.vkCmdCopyBuffer(commands, adjacencyStaging_.handle(), adjacencyPairs_.handle(), 1,
                                       &adjacencyCopies_[1]);
        }
        report.chunksRestored = uint32_t(pending_.restored.size());
        {
            std::lock_guard lock(pipelines_.mutex()); // another LiveMove's begin() may be building
            recordRestores(commands);
            if (pending_.solve) recordSolve(commands, report);
        }
        if (timestamps_)
            ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 2 * slot + 1);
        if (!sync.renderGraph)
            scopedBarrier(ctx, commands, kOurWriteScope, sync.after.stages ? sync.after : defaultAfter(graphics));
        if (transfer) ownershipTransfer(ctx, commands, ranges, ours, sync.drawQueueFamily, kOurWriteScope, {});
        listAccesses(report);
        std::copy(ranges.begin(), ranges.end(), report.transfers.begin());
        report.transferCount = transferRangeCount_;
        pending_.ticket = nextTicket_++;
        report.ticket = {pending_.ticket};
        report.recorded = true;
    } catch (const std::exception& e) {
        refuse(e.what());
        recordFailure_ = std::current_exception();
        report = {}; // a half-recorded frame's counts mean nothing
        report.chunksTotal = uint32_t(chunks_.size());
    }
    return report;
}

// The renderer's buffer ranges the pending frame reads or writes.
void LiveMove::Impl::listAccesses(RecordReport& report) const {
    auto add = [&](VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stages,
                   VkAccessFlags2 accesses) {
        report.accesses[report.accessCount++] = {buffer, offset, size, stages, accesses};
    };
    auto addRange = [&](const VkDescriptorBufferInfo& range, VkAccessFlags2 accesses) {
        add(range.buffer, range.offset, range.range, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, accesses);
    };
    const VkAccessFlags2 readWrite = VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT;
    if (!pending_.snapshots.empty()) // one range a span, from the first chunk copied to the last
        for (const Span& span : spans_) {
            VkDeviceSize from = span.end, to = span.begin;
            for (uint32_t c : pending_.snapshots) {
                const auto [first, last] = chunkBytes(span, chunks_[c]);
                if (first < last) from = std::min(from, first), to = std::max(to, last);
            }
            if (from < to)
                add(span.buffer, from, to - from, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        }
    if (pending_.solve || !pending_.restored.empty()) {
        addRange(positionsRange_, readWrite);
        if (hasNormals_) addRange(normalsRange_, readWrite);
    }
    if (pending_.solve && hasMask_) addRange(maskRange_, VK_ACCESS_2_SHADER_READ_BIT);
    if (pending_.solve && hasStatistics_) addRange(statisticsRange_, VK_ACCESS_2_SHADER_WRITE_BIT);
}

std::pair<VkDeviceSize, VkDeviceSize> LiveMove::Impl::chunkBytes(const Span& span, const MeshChunk& chunk) const {
    VkDeviceSize from = span.end, to = span.begin;
    auto cover = [&](const VertexStream& stream) {
        if (stream.buffer != span.buffer || stream.offset < span.begin || stream.offset >= span.end) return;
        from = std::min(from, stream.offset + VkDeviceSize(chunk.firstVertex) * stream.stride);
        to = std::max(to, stream.offset + VkDeviceSize(chunk.firstVertex + chunk.vertexCount - 1) * stream.stride + 12);
    };
    if (chunk.vertexCount == 0) return {span.begin, span.begin};
    cover(positionStream_);
    if (hasNormals_) cover(normalStream_);
    return {from, std::max(from, to)};
}

// Copies the bytes of the chunks solved for the first time into the snapshot,
// at their offsets in the spans: the grab costs what the move reaches, not the mesh.
void LiveMove::Impl::recordSnapshots(VkCommandBuffer commands) {
    const Context::Impl& ctx = implOf(context_);
    if (pending_.snapshots.empty()) return;
    for (const Span& span : spans_) {
        copies_.clear(); // capacity reserved: no allocation
        for (uint32_t c : pending_.snapshots) {
            const auto [from, to] = chunkBytes(span, chunks_[c]);
            if (from < to) copies_.push_back({from, span.snapshotOffset + (from - span.begin), to - from});
        }
        if (!copies_.empty())
            ctx.vk.vkCmdCopyBuffer(commands, span.buffer, snapshot_.handle(), uint32_t(copies_.size()), copies_.data());
    }
    // The dispatches after it read the snapshot, and write the spans it read, through
    // descriptors that cover them whole.
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kComputeAccesses);
}

// Copies the restored chunks' positions and normals back from the snapshot, xyz
// by xyz: the bytes between them (the renderer's colours, UVs) are not touched.
void LiveMove::Impl::recordRestores(VkCommandBuffer commands) {
    const Context::Impl& ctx = implOf(context_);
    bool first = true;
    for (int stream = 0; stream < (hasNormals_ ? 2 : 1); ++stream) {
        forEachRun(chunks_, pending_.restored, [&](uint32_t firstVertex, uint32_t count, const Bounds&) {
            // Dispatches writing one buffer bound whole are ordered, disjoint as they are.
            if (!first)
                memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kComputeAccesses);
            first = false;
            VertexPassPushConstants push = restoreLayouts_[stream];
            push.firstVertex = firstVertex;
            push.vertexCount = count;
            pipelines_.restore().record(commands, context_, restoreSets_[stream], push);
        });
    }
}

void LiveMove::Impl::recordSolve(VkCommandBuffer commands, RecordReport& report) {
    const Context::Impl& ctx = implOf(context_);
    deform_.recordToolUpload(commands, context_, kernel_); // its barrier also orders the snapshot and restores

    // Adjacent chunks go in one dispatch. Dispatches writing one buffer are ordered
    // by barriers: their ranges are disjoint, but a descriptor covers the whole mesh.
    const std::vector<uint32_t>& solved = pending_.solved;
    auto forEachSolvedRun = [&](auto&& recordRun) { forEachRun(chunks_, solved, recordRun); };
    bool firstRun = true;
    auto separate = [&] {
        if (!firstRun)
            memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kComputeAccesses);
        firstRun = false;
    };
    const bool continuous = mode_ == MoveMode::Continuous;
    forEachSolvedRun([&](uint32_t first, uint32_t count, const Bounds& bounds) {
        separate();
        const bool compact = compactionPays(kernel_, bounds, hasMask_);
        recordDeform(commands, context_, pipelines_.deform(), kernel_, hasStatistics_,
                     continuous ? continuousBinding_ : deformBinding_, first, count,
                     compact ? &deformScratch_ : nullptr);
        report.verticesSolved += count;
    });
    report.chunksSolved = uint32_t(solved.size());
    if (hasNormals_ && !solved.empty()) {
        firstRun = false; // normals read the positions just written
        forEachSolvedRun([&](uint32_t first, uint32_t count, const Bounds&) {
            separate();
            VertexPassPushConstants push = normalsLayout_;
            push.firstVertex = first;
            push.vertexCount = count;
            pipelines_.normals().record(commands, context_, normalsSet_, push);
        });
    }
}

// The changed chunks' byte ranges of each span, from the snapshot to the same
// offsets in the renderer's copies.
bool LiveMove::Impl::recordUndoCopy(VkCommandBuffer commands, VkBuffer positionsCopy, VkBuffer normalsCopy) noexcept {
    const Context::Impl& ctx = implOf(context_);
    if (!positionsCopy) return refuse("recordUndoCopy: no positionsCopy buffer given");
    if (state_ != State::Idle)
        return refuse("recordUndoCopy: a move is open or not over yet; call it after the committed move's last frame");
    if (changed_.empty()) return true;
    memoryBarrier(ctx.vk, commands, kOurStages, kOurWrites, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT);
    for (const Span& span : spans_) {
        const VkBuffer copy = span.buffer == positionStream_.buffer && span.begin <= positionStream_.offset &&
                                      positionStream_.offset < span.end
                                  ? positionsCopy
                                  : normalsCopy;
        if (!copy) continue;
        copies_.clear(); // capacity reserved: no allocation
        for (uint32_t c : changed_) {
            const auto [from, to] = chunkBytes(span, chunks_[c]);
            if (from < to) copies_.push_back({span.snapshotOffset + (from - span.begin), from, to - from});
        }
        if (!copies_.empty())
            ctx.vk.vkCmdCopyBuffer(commands, snapshot_.handle(), copy, uint32_t(copies_.size()), copies_.data());
    }
    return true;
}

} // namespace sculptflow
