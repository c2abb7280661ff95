// LiveMove: validating the mesh, allocating what a frame needs, and the move's
// state: begin/update/commit/cancel and what a submitted frame changes.
#include "live_move_impl.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <sculptflow/error.hpp>
#include <sculptflow/hot_reload.hpp>
#include "src/kernel_tools.hpp"
#include "src/vertex_adjacency.hpp"
#include "buffer_transfer.hpp"
#include "context_impl.hpp"
#include "memory_barrier.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

namespace {


VkDeviceSize streamEnd(const VertexStream& stream, uint32_t vertices) {
    return stream.offset + VkDeviceSize(vertices - 1) * stream.stride + 12;
}

void validateStream(const VertexStream& stream, uint32_t vertices, const std::string& name) {
    if (!stream.buffer) throw Error("mesh." + name + ".buffer: no buffer given");
    if (stream.offset % 4 != 0) throw Error("mesh." + name + ".offset: must be a multiple of 4 bytes");
    if (stream.stride % 4 != 0 || stream.stride < 12)
        throw Error("mesh." + name + ".stride: must be a multiple of 4 bytes and at least 12");
    // The shaders address floats with 32-bit indices.
    if (streamEnd(stream, vertices) / 4 > std::numeric_limits<uint32_t>::max())
        throw Error("mesh." + name + ": the vertices reach past 16 GiB into the buffer");
}

void validateMaskStream(const ScalarStream& stream, uint32_t vertices) {
    if (stream.offset % 4 != 0) throw Error("mesh.mask.offset: must be a multiple of 4 bytes");
    if (stream.stride % 4 != 0 || stream.stride < 4)
        throw Error("mesh.mask.stride: must be a multiple of 4 bytes and at least 4");
    if ((stream.offset + VkDeviceSize(vertices - 1) * stream.stride + 4) / 4 > std::numeric_limits<uint32_t>::max())
        throw Error("mesh.mask: the values reach past 16 GiB into the buffer");
}

// The chunks' vertex ranges must be disjoint and inside the mesh.
void validateChunks(std::span<const MeshChunk> chunks, uint32_t vertices) {
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    for (size_t i = 0; i < chunks.size(); ++i) {
        if (uint64_t(chunks[i].firstVertex) + chunks[i].vertexCount > vertices)
            throw Error("mesh.chunks[" + std::to_string(i) + "]: vertices past the mesh's " +
                        std::to_string(vertices));
        ranges.emplace_back(chunks[i].firstVertex, chunks[i].vertexCount);
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i - 1].first + ranges[i - 1].second > ranges[i].first)
            throw Error("mesh.chunks: the chunks starting at vertices " + std::to_string(ranges[i - 1].first) +
                        " and " + std::to_string(ranges[i].first) + " overlap");
}

// The tools held still at posesA: validates them (Error names `call`) and gives
// the kernel whose pipelines a drag with them records.
Move stillMove(const Stroke& tools, std::span<const Pose> posesA, const std::string& call) {
    const size_t toolCount = mirroredToolCount(tools.tools.size(), tools.symmetry.axes);
    if (tools.tools.empty() || toolCount > kMaxTools)
        throw Error(call + ": " + std::to_string(tools.tools.size()) + " tools" +
                    (tools.symmetry.axes ? " (" + std::to_string(toolCount) + " with the mirrored copies)" : "") +
                    "; 1 to " + std::to_string(kMaxTools) + " in all are supported");
    if (posesA.size() != tools.tools.size())
        throw Error(call + ": " + std::to_string(posesA.size()) + " poses for " +
                    std::to_string(tools.tools.size()) + " tools");
    Move probe;
    for (size_t i = 0; i < posesA.size(); ++i) {
        Pose still = posesA[i];
        still.time += 1.0;
        probe.tools.push_back(toolMotion(tools.tools[i], posesA[i], still, tools.voxelSize));
    }
    addMirroredTools(probe, tools.symmetry, tools.voxelSize);
    return probe;
}

bool finitePose(const Pose& pose) {
    const double values[] = {pose.position.x,    pose.position.y,    pose.position.z,    pose.orientation.x,
                             pose.orientation.y, pose.orientation.z, pose.orientation.w, pose.scale,
                             pose.time};
    return std::all_of(std::begin(values), std::end(values), [](double v) { return std::isfinite(v); });
}

// Why update() refuses `next` after `previous` (the poses its move starts from),
// written into `message` without allocating; false when it does not.
bool poseRefusal(std::span<const Pose> previous, std::span<const Pose> next, std::span<char> message) {
    auto say = [&](const char* format, size_t a, size_t b) {
        std::snprintf(message.data(), message.size(), format, a, b);
        return true;
    };
    if (next.size() != previous.size()) return say("update: %zu poses for %zu tools", next.size(), previous.size());
    for (size_t i = 0; i < next.size(); ++i) {
        const Pose& pose = next[i];
        if (!finitePose(pose)) return say("update: pose %zu of %zu is not finite", i, next.size());
        if (!(glm::length(pose.orientation) > 1e-6))
            return say("update: pose %zu of %zu: the orientation is not a rotation (zero quaternion)", i, next.size());
        if (!(pose.scale > 0.0)) return say("update: pose %zu of %zu: the scale must be positive", i, next.size());
        if (!(pose.time > previous[i].time))
            return say("update: pose %zu of %zu: time must increase past the poses the move starts from", i,
                       next.size());
    }
    return false;
}

} // namespace

uint32_t prewarmLiveMoves(Context& context, std::span<const Stroke> toolSets, const LiveMoveOptions& options,
                          const MeshFeatures& features) {
    validateSolverOptions(options.solver);
    LivePipelines& pipelines = livePipelines(context);
    uint32_t created = 0;
    for (const Stroke& tools : toolSets) {
        const std::vector<Pose> posesA(tools.tools.size()); // kinds and shapes matter, not where the hands are
        const kernel::Kernel kernel = makeKernel(stillMove(tools, posesA, "prewarmLiveMoves"), options.solver);
        std::lock_guard lock(pipelines.mutex());
        created += pipelines.buildDeform(kernel, features.statistics, features.mask);
    }
    return created;
}

void useLiveMoveShader(Context& context, std::span<const uint32_t> spirv) {
    livePipelines(context).replaceDeformShader({spirv, {}});
}

size_t releaseRetiredLiveMovePipelines(Context& context) { return livePipelines(context).releaseRetired(); }

LiveMove::Impl::Impl(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options)
    : context_(context),
      options_(options),
      vertexCount_(mesh.vertexCount),
      hasNormals_(mesh.normals.buffer != VK_NULL_HANDLE),
      positionStream_(mesh.positions),
      normalStream_(mesh.normals),
      hasMask_(mesh.mask.buffer != VK_NULL_HANDLE),
      hasStatistics_(mesh.statistics != VK_NULL_HANDLE),
      pipelines_(livePipelines(context)) {
    validateSolverOptions(options.solver);
    if (mesh.vertexCount == 0) throw Error("mesh.vertexCount: must be positive");
    validateStream(mesh.positions, vertexCount_, "positions");
    const Context::Impl& ctx = implOf(context_);
    if (hasNormals_) {
        validateStream(mesh.normals, vertexCount_, "normals");
        if (mesh.triangles.empty()) throw Error("mesh.triangles: needed to recompute normals");
    }
    validateChunks(mesh.chunks, vertexCount_);
    if (hasMask_) validateMaskStream(mesh.mask, vertexCount_);

    spans_.push_back({mesh.positions.buffer, mesh.positions.offset, streamEnd(mesh.positions, vertexCount_), 0});
    if (hasNormals_) {
        Span normals{mesh.normals.buffer, mesh.normals.offset, streamEnd(mesh.normals, vertexCount_), 0};
        Span& positions = spans_.front();
        if (normals.buffer == positions.buffer && normals.begin <= positions.end && positions.begin <= normals.end) {
            positions.begin = std::min(positions.begin, normals.begin); // interleaved: one span
            positions.end = std::max(positions.end, normals.end);
        } else {
            spans_.push_back(normals);
        }
    }
    VkDeviceSize snapshotSize = 0;
    for (Span& span : spans_) {
        span.snapshotOffset = snapshotSize;
        snapshotSize += (span.end - span.begin + 15) / 16 * 16;
    }

    if (mesh.chunks.empty()) {
        const float inf = std::numeric_limits<float>::infinity();
        chunks_.push_back({0, vertexCount_, {glm::vec3(-inf), glm::vec3(inf)}}); // always in reach
    } else {
        chunks_.assign(mesh.chunks.begin(), mesh.chunks.end());
    }
    written_.assign(chunks_.size(), 0);
    snapshotted_.assign(chunks_.size(), 0);
    pending_.snapshots.reserve(chunks_.size());
    changed_.reserve(chunks_.size());
    lastError_.reserve(256);
    copies_.reserve(chunks_.size() * spans_.size());
    pending_.solved.reserve(chunks_.size());
    pending_.restored.reserve(chunks_.size());
    pending_.posesB.reserve(kMaxTools);
    move_.tools.reserve(kMaxTools);
    posesA_.reserve(kMaxTools);
    posesB_.reserve(kMaxTools);

    try {
        snapshot_ = GpuBuffer(context, snapshotSize,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              "the undeformed snapshot", BufferMemory::DeviceLocal);
        deform_ = DeformInterface(context);
        deformScratch_ = DeformScratch(context, vertexCount_);
        if (hasNormals_) {
            VertexAdjacency adjacency = buildVertexAdjacency(mesh.triangles, vertexCount_);
            const VkDeviceSize startBytes = adjacency.start.size() * 4, pairBytes = adjacency.pairs.size() * 8;
            adjacencyStart_ = GpuBuffer(context, startBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the normals adjacency",
                                        BufferMemory::GpuRead);
            adjacencyPairs_ = GpuBuffer(context, std::max<VkDeviceSize>(pairBytes, 16),
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the normals adjacency", BufferMemory::GpuRead);
            if (adjacencyStart_.mapped()) {
                uploadBuffer(adjacencyStart_, 0, adjacency.start.data(), startBytes);
                uploadBuffer(adjacencyPairs_, 0, adjacency.pairs.data(), pairBytes);
            } else {
                // Device-local: copied in by the first record(), as this submits nothing.
                adjacencyStaging_ = GpuBuffer(context, startBytes + std::max<VkDeviceSize>(pairBytes, 4),
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "the normals adjacency (staging)");
                auto* staging = static_cast<uint8_t*>(adjacencyStaging_.mapped());
                std::memcpy(staging, adjacency.start.data(), startBytes);
                std::memcpy(staging + startBytes, adjacency.pairs.data(), pairBytes);
                adjacencyCopies_ = {VkBufferCopy{0, 0, startBytes}, VkBufferCopy{startBytes, 0, pairBytes}};
            }
        }
        createDescriptors(mesh);
        if (options_.timestamps && ctx.timestampBits > 0) {
            VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
            queryInfo.queryCount = 2 * kTimestampRing;
            SF_VK_CHECK(ctx.vk.vkCreateQueryPool(context.device(), &queryInfo, ctx.allocator, &timestamps_));
        }
    } catch (...) {
        release();
        throw;
    }
}

LiveMove::Impl::~Impl() { release(); }

void LiveMove::Impl::release() {
    const Context::Impl& ctx = implOf(context_);
    VkDevice device = context_.device();
    if (timestamps_) ctx.vk.vkDestroyQueryPool(device, timestamps_, ctx.allocator);
    if (descriptorPool_) ctx.vk.vkDestroyDescriptorPool(device, descriptorPool_, ctx.allocator);
    timestamps_ = VK_NULL_HANDLE;
    descriptorPool_ = VK_NULL_HANDLE;
}

void LiveMove::Impl::begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode) {
    if (state_ == State::Moving)
        throw Error(ErrorCode::InvalidState, "begin: a move is open; commit() or cancel() it first");
    if (state_ != State::Idle)
        throw Error(ErrorCode::InvalidState,
                    "begin: the previous move's last frame is not submitted yet; record() it and pass its ticket "
                    "to submitted()");
    Move probe = stillMove(tools, posesA, "begin");
    const kernel::Kernel kernel = makeKernel(probe, options_.solver);
    {
        std::lock_guard lock(pipelines_.mutex());
        pipelines_.buildDeform(kernel, hasStatistics_, hasMask_); // none after a prewarm that covered these tools
    }

    mode_ = mode;
    toolSettings_ = tools;
    posesA_.assign(posesA.begin(), posesA.end());
    posesB_.assign(posesA.begin(), posesA.end());
    move_ = std::move(probe);
    move_.tools.reserve(kMaxTools);
    kernel_ = kernel;
    solvedGeneration_ = updateGeneration_; // nothing to solve before the first update()
    std::fill(snapshotted_.begin(), snapshotted_.end(), 0); // each chunk's first solved frame takes it
    changed_.clear();                      // the last move's undo window closes
    std::fill(written_.begin(), written_.end(), 0);
    state_ = State::Moving;
}

void LiveMove::Impl::setMotion(std::span<const Pose> posesA, std::span<const Pose> posesB) {
    move_.tools.clear(); // keeps its capacity: no allocation
    for (size_t i = 0; i < posesB.size(); ++i)
        move_.tools.push_back(toolMotion(toolSettings_.tools[i], posesA[i], posesB[i], toolSettings_.voxelSize));
    addMirroredTools(move_, toolSettings_.symmetry, toolSettings_.voxelSize);
}

bool LiveMove::Impl::update(std::span<const Pose> posesB, double segmentTolerance) noexcept {
    // The refusals a frame loop can meet allocate nothing (lastError_'s capacity is reserved).
    if (state_ != State::Moving) return refuse("update: no move is open; begin() first");
    const bool continuous = mode_ == MoveMode::Continuous;
    if (continuous && (!(segmentTolerance > 0.0) || !std::isfinite(segmentTolerance)))
        return refuse("update: segmentTolerance must be positive and finite");
    std::array<char, 160> message;
    if (poseRefusal(continuous ? posesB_ : posesA_, posesB, message)) return refuse(message.data());
    try {
        if (continuous) {
            // Checked against the latest poses: the segment record() solves starts at
            // the last submitted frame's, which are no later.
            setMotion(posesB_, posesB);
            SolverOptions solver = options_.solver;
            solver.tolerance = segmentTolerance;
            makeKernel(move_, solver);
        } else {
            setMotion(posesA_, posesB);
            kernel_ = makeKernel(move_, options_.solver);
        }
        std::copy(posesB.begin(), posesB.end(), posesB_.begin());
    } catch (const std::exception& e) {
        lastError_ = e.what();
        return false;
    }
    segmentTolerance_ = segmentTolerance;
    ++updateGeneration_;
    return true;
}

void LiveMove::Impl::commit() {
    if (state_ != State::Moving) throw Error(ErrorCode::InvalidState, "commit: no move is open");
    state_ = State::Committing; // a solve not yet submitted is still recorded: it is the committed shape
    settle();
}

void LiveMove::Impl::cancel() {
    if (state_ != State::Moving) throw Error(ErrorCode::InvalidState, "cancel: no move is open");
    state_ = State::Cancelling; // the chunks written by submitted frames go back
    settle();
}

bool LiveMove::Impl::submitted(FrameTicket ticket) noexcept {
    if (ticket.frame == 0) return true; // nothing was recorded
    if (ticket.frame != pending_.ticket) {
        try {
            lastError_ = "submitted: frame " + std::to_string(ticket.frame) +
                         " is not the latest recorded one, or was acknowledged already; a frame recorded before the "
                         "last record() must not be submitted (that record() did its work again)";
        } catch (...) {
        }
        return false;
    }
    PendingFrame& frame = pending_;
    for (uint32_t c : frame.snapshots) snapshotted_[c] = 1;
    adjacencyUploaded_ |= frame.adjacency;
    for (uint32_t c : frame.restored) written_[c] = 0;
    if (frame.solve) {
        for (uint32_t c : frame.solved) written_[c] = 1;
        solvedGeneration_ = frame.generation;
        if (mode_ == MoveMode::Continuous) {
            // The next segment starts where this one ends, and the chunks it moved hold
            // their vertices within their bounds grown by how far it could carry one.
            std::copy(frame.posesB.begin(), frame.posesB.end(), posesA_.begin());
            for (uint32_t c : frame.solved) {
                chunks_[c].bounds.min -= glm::vec3(frame.grow);
                chunks_[c].bounds.max += glm::vec3(frame.grow);
            }
        }
    }
    if (timestamps_) ++submittedFrames_;
    frame.ticket = 0;
    settle();
    return true;
}

void LiveMove::Impl::settle() noexcept {
    if (state_ != State::Committing && state_ != State::Cancelling) return;
    if (pending_.ticket != 0) return; // a recorded frame may still be submitted
    const bool anyWritten = std::find(written_.begin(), written_.end(), 1) != written_.end();
    if (state_ == State::Committing ? solveWanted() : anyWritten) return;
    if (state_ == State::Committing && mode_ == MoveMode::Move) {
        // Continuous mode grew the bounds with each segment submitted.
        const float grow = displacementBound(kernel_);
        for (size_t c = 0; c < chunks_.size(); ++c) {
            if (!written_[c]) continue;
            chunks_[c].bounds.min -= glm::vec3(grow);
            chunks_[c].bounds.max += glm::vec3(grow);
        }
    }
    if (state_ == State::Committing)
        for (uint32_t c = 0; c < chunks_.size(); ++c)
            if (written_[c]) changed_.push_back(c); // capacity reserved: no allocation
    std::fill(written_.begin(), written_.end(), 0);
    state_ = State::Idle;
}

void LiveMove::Impl::setChunkBounds(size_t chunk, const Bounds& bounds) {
    if (chunk >= chunks_.size())
        throw Error("setChunkBounds: chunk " + std::to_string(chunk) + " of " + std::to_string(chunks_.size()));
    chunks_[chunk].bounds = bounds;
}

double LiveMove::Impl::gpuMilliseconds() const {
    const Context::Impl& ctx = implOf(context_);
    if (!timestamps_) return std::numeric_limits<double>::quiet_NaN();
    // Newest first: the latest frame whose two timestamps are both available.
    for (uint32_t back = 1; back < kTimestampRing && back <= submittedFrames_; ++back) {
        const uint32_t slot = (submittedFrames_ - back) % kTimestampRing;
        uint64_t values[4] = {0, 0, 0, 0}; // timestamp, availability, timestamp, availability
        VkResult result = ctx.vk.vkGetQueryPoolResults(context_.device(), timestamps_, 2 * slot, 2, sizeof(values), values,
                                                       2 * sizeof(uint64_t),
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        if ((result == VK_SUCCESS || result == VK_NOT_READY) && values[1] && values[3] && values[2] >= values[0])
            return double(values[2] - values[0]) * context_.properties().limits.timestampPeriod * 1e-6;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

LiveMove::LiveMove(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options)
    : impl_(std::make_unique<Impl>(context, mesh, options)) {}
LiveMove::~LiveMove() = default;
void LiveMove::begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode) {
    impl_->begin(tools, posesA, mode);
}
bool LiveMove::update(std::span<const Pose> posesB, double segmentTolerance) noexcept {
    return impl_->update(posesB, segmentTolerance);
}
RecordReport LiveMove::record(VkCommandBuffer commands, const RecordSync& sync) noexcept {
    return impl_->record(commands, sync);
}
bool LiveMove::submitted(FrameTicket ticket) noexcept { return impl_->submitted(ticket); }
std::span<const uint32_t> LiveMove::changedChunks() const { return impl_->changed_; }
bool LiveMove::recordUndoCopy(VkCommandBuffer commands, VkBuffer positionsCopy, VkBuffer normalsCopy) noexcept {
    return impl_->recordUndoCopy(commands, positionsCopy, normalsCopy);
}
void LiveMove::commit() { impl_->commit(); }
void LiveMove::cancel() { impl_->cancel(); }
bool LiveMove::moving() const { return impl_->moving(); }
const std::string& LiveMove::lastError() const { return impl_->lastError(); }
double LiveMove::gpuMilliseconds() const { return impl_->gpuMilliseconds(); }
size_t LiveMove::chunkCount() const { return impl_->chunkCount(); }
const Bounds& LiveMove::chunkBounds(size_t chunk) const { return impl_->chunkBounds(chunk); }
void LiveMove::setChunkBounds(size_t chunk, const Bounds& bounds) { impl_->setChunkBounds(chunk, bounds); }

} // namespace sculptflow
