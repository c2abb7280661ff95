// The renderer's per-frame path: snapshot, chunk culling, solve, normals, restore.
#include "live_move_impl.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "buffer_transfer.hpp"
#include "error.hpp"
#include "kernel_tools.hpp"
#include "memory_barrier.hpp"
#include "vertex_adjacency.hpp"
#include "context_impl.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

namespace {

constexpr uint32_t kTimestampRing = 8; // frames whose GPU time can be in flight at once
constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

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

constexpr VkPipelineStageFlags kOurStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kOurWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kOurAccesses = kOurWrites | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT |
                                       VK_ACCESS_TRANSFER_READ_BIT;
constexpr VkAccessFlags kComputeAccesses = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

} // namespace

LiveMove::Impl::Impl(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options)
    : context_(context),
      options_(options),
      vertexCount_(mesh.vertexCount),
      hasNormals_(mesh.normals.buffer != VK_NULL_HANDLE),
      positionStream_(mesh.positions),
      normalStream_(mesh.normals),
      hasMask_(mesh.mask.buffer != VK_NULL_HANDLE),
      hasStatistics_(mesh.statistics != VK_NULL_HANDLE),
      deformPipelines_(context) {
    validateSolverOptions(options.solver);
    if (mesh.vertexCount == 0) throw Error("mesh.vertexCount: must be positive");
    validateStream(mesh.positions, vertexCount_, "positions");
    const Context::Impl& ctx = context_.impl();
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
    dirty_.assign(chunks_.size(), 0);
    restoring_.assign(chunks_.size(), 0);
    copies_.reserve(chunks_.size() * spans_.size());
    solvedChunks_.reserve(chunks_.size());
    move_.tools.reserve(kMaxTools);
    posesA_.reserve(kMaxTools);
    posesB_.reserve(kMaxTools);

    try {
        snapshot_ = GpuBuffer(context, snapshotSize,
                              kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              "the undeformed snapshot", BufferMemory::DeviceLocal);
        tools_ = GpuBuffer(context, sizeof(ToolBlock),
                           VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, "the tool block",
                           BufferMemory::DeviceLocal);
        // Bound to deform.comp's statistics and volume-change bindings, which this path never writes.
        noStatistics_ = GpuBuffer(context, 16, kStorage, "the unused statistics binding", BufferMemory::DeviceLocal);
        deformScratch_ = DeformScratch(context, vertexCount_);
        if (hasNormals_) {
            VertexAdjacency adjacency = buildVertexAdjacency(mesh.triangles, vertexCount_);
            const VkDeviceSize startBytes = adjacency.start.size() * 4, pairBytes = adjacency.pairs.size() * 8;
            adjacencyStart_ = GpuBuffer(context, startBytes, kStorage, "the normals adjacency", BufferMemory::GpuRead);
            adjacencyPairs_ = GpuBuffer(context, std::max<VkDeviceSize>(pairBytes, 16), kStorage,
                                        "the normals adjacency", BufferMemory::GpuRead);
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
            normalsPipeline_ = std::make_unique<NormalsPipeline>(context);
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
    const Context::Impl& ctx = context_.impl();
    VkDevice device = context_.device();
    if (timestamps_) ctx.vk.vkDestroyQueryPool(device, timestamps_, ctx.allocator);
    if (descriptorPool_) ctx.vk.vkDestroyDescriptorPool(device, descriptorPool_, ctx.allocator);
    timestamps_ = VK_NULL_HANDLE;
    descriptorPool_ = VK_NULL_HANDLE;
}

void LiveMove::Impl::begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode) {
    if (state_ == State::Moving) throw Error("begin: a move is open; commit() or cancel() it first");
    if (snapshotPending_ || solvePending_ || std::find(restoring_.begin(), restoring_.end(), 1) != restoring_.end())
        throw Error("begin: record() the previous move's last frame first");
    const size_t toolCount = mirroredToolCount(tools.tools.size(), tools.symmetry.axes);
    if (tools.tools.empty() || toolCount > kMaxTools)
        throw Error("begin: " + std::to_string(tools.tools.size()) + " tools" +
                    (tools.symmetry.axes ? " (" + std::to_string(toolCount) + " with the mirrored copies)" : "") +
                    "; 1 to " + std::to_string(kMaxTools) + " in all are supported");
    if (posesA.size() != tools.tools.size())
        throw Error("begin: " + std::to_string(posesA.size()) + " poses for " + std::to_string(tools.tools.size()) +
                    " tools");
    // A still pose B validates the tools and picks the pipeline, built here, not in a frame.
    Move probe;
    for (size_t i = 0; i < posesA.size(); ++i) {
        Pose still = posesA[i];
        still.time += 1.0;
        probe.tools.push_back(toolMotion(tools.tools[i], posesA[i], still, tools.voxelSize));
    }
    addMirroredTools(probe, tools.symmetry, tools.voxelSize);
    const kernel::Kernel kernel = makeKernel(probe, options_.solver);
    buildDeformPipelines(deformPipelines_, kernel, hasStatistics_, &deformScratch_, hasMask_);

    mode_ = mode;
    toolSettings_ = tools;
    posesA_.assign(posesA.begin(), posesA.end());
    posesB_.assign(posesA.begin(), posesA.end());
    move_ = std::move(probe);
    move_.tools.reserve(kMaxTools);
    kernel_ = kernel;
    std::fill(dirty_.begin(), dirty_.end(), 0);
    state_ = State::Moving;
    snapshotPending_ = true;
}

void LiveMove::Impl::setMotion(std::span<const Pose> posesA, std::span<const Pose> posesB) {
    move_.tools.clear(); // keeps its capacity: no allocation
    for (size_t i = 0; i < posesB.size(); ++i)
        move_.tools.push_back(toolMotion(toolSettings_.tools[i], posesA[i], posesB[i], toolSettings_.voxelSize));
    addMirroredTools(move_, toolSettings_.symmetry, toolSettings_.voxelSize);
}

bool LiveMove::Impl::update(std::span<const Pose> posesB, double segmentTolerance) noexcept {
    try {
        if (state_ != State::Moving) throw Error("update: no move is open; begin() first");
        if (posesB.size() != posesA_.size())
            throw Error("update: " + std::to_string(posesB.size()) + " poses for " +
                        std::to_string(posesA_.size()) + " tools");
        setMotion(posesA_, posesB);
        SolverOptions solver = options_.solver;
        if (mode_ == MoveMode::Continuous) {
            if (!(segmentTolerance > 0.0) || !std::isfinite(segmentTolerance))
                throw Error("update: segmentTolerance must be positive and finite");
            solver.tolerance = segmentTolerance;
        }
        kernel_ = makeKernel(move_, solver);
        std::copy(posesB.begin(), posesB.end(), posesB_.begin());
    } catch (const std::exception& e) {
        lastError_ = e.what();
        return false;
    }
    // Chunks the tools reach are solved. In move mode, chunks solved before and out
    // of reach now go back; in continuous mode they keep what earlier segments did.
    solvedChunks_.clear();
    for (uint32_t c = 0; c < chunks_.size(); ++c) {
        if (boxInReach(kernel_, chunks_[c].bounds)) {
            solvedChunks_.push_back(c); // capacity reserved: no allocation
            dirty_[c] = 1;
            restoring_[c] = 0;
        } else if (dirty_[c] && mode_ == MoveMode::Move) {
            dirty_[c] = 0;
            restoring_[c] = 1;
        }
    }
    solvePending_ = true;
    return true;
}

void LiveMove::Impl::commit() {
    if (state_ != State::Moving) throw Error("commit: no move is open");
    // Continuous mode grew the bounds with each segment it recorded.
    const float grow = mode_ == MoveMode::Move ? displacementBound(kernel_) : 0.0f;
    for (size_t c = 0; c < chunks_.size(); ++c) {
        if (!dirty_[c]) continue;
        chunks_[c].bounds.min -= glm::vec3(grow);
        chunks_[c].bounds.max += glm::vec3(grow);
        dirty_[c] = 0;
    }
    state_ = State::Idle; // a pending solve is still recorded: it is the committed shape
}

void LiveMove::Impl::cancel() {
    if (state_ != State::Moving) throw Error("cancel: no move is open");
    state_ = State::Idle;
    solvePending_ = false;
    if (snapshotPending_) { // nothing was recorded, so nothing was written
        snapshotPending_ = false;
        std::fill(restoring_.begin(), restoring_.end(), 0);
    } else {
        for (size_t c = 0; c < chunks_.size(); ++c) restoring_[c] |= dirty_[c];
    }
    std::fill(dirty_.begin(), dirty_.end(), 0);
}

void LiveMove::Impl::setChunkBounds(size_t chunk, const Bounds& bounds) {
    if (chunk >= chunks_.size())
        throw Error("setChunkBounds: chunk " + std::to_string(chunk) + " of " + std::to_string(chunks_.size()));
    chunks_[chunk].bounds = bounds;
}

RecordReport LiveMove::Impl::record(VkCommandBuffer commands) noexcept {
    const Context::Impl& ctx = context_.impl();
    RecordReport report;
    report.chunksTotal = uint32_t(chunks_.size());
    const bool restoring = std::find(restoring_.begin(), restoring_.end(), 1) != restoring_.end();
    if (!snapshotPending_ && !solvePending_ && !restoring) return report;
    try {
        const bool graphics = context_.queueFlags() & VK_QUEUE_GRAPHICS_BIT;
        // After earlier draws read the vertex buffer and earlier frames wrote it.
        const VkPipelineStageFlags before = kOurStages | (graphics ? VK_PIPELINE_STAGE_VERTEX_INPUT_BIT |
                                                                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT
                                                                   : 0);
        memoryBarrier(ctx.vk, commands, before, kOurWrites, kOurStages, kOurAccesses);
        const uint32_t slot = frame_ % kTimestampRing;
        if (timestamps_) {
            ctx.vk.vkCmdResetQueryPool(commands, timestamps_, 2 * slot, 2);
            ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 2 * slot);
        }
        if (snapshotPending_) {
            for (const Span& span : spans_) {
                const VkBufferCopy region{span.begin, span.snapshotOffset, span.end - span.begin};
                ctx.vk.vkCmdCopyBuffer(commands, span.buffer, snapshot_.handle(), 1, &region);
            }
            snapshotPending_ = false;
        }
        if (adjacencyStaging_.handle() && !adjacencyCopied_) {
            ctx.vk.vkCmdCopyBuffer(commands, adjacencyStaging_.handle(), adjacencyStart_.handle(), 1, &adjacencyCopies_[0]);
            if (adjacencyCopies_[1].size)
                ctx.vk.vkCmdCopyBuffer(commands, adjacencyStaging_.handle(), adjacencyPairs_.handle(), 1,
                                       &adjacencyCopies_[1]);
            adjacencyCopied_ = true; // the staging copy stays until this LiveMove goes: a frame may be in flight
        }
        for (size_t c = 0; c < chunks_.size(); ++c) report.chunksRestored += restoring_[c];
        recordRestores(commands);
        if (solvePending_) recordSolve(commands, report);
        if (timestamps_)
            ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 2 * slot + 1);
        const VkPipelineStageFlags after =
            graphics ? VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT : kOurStages;
        const VkAccessFlags reads = graphics ? VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_SHADER_READ_BIT
                                             : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
        memoryBarrier(ctx.vk, commands, kOurStages, kOurWrites, after, reads);
        ++frame_;
        report.recorded = true;
    } catch (const std::exception& e) {
        lastError_ = e.what();
    }
    return report;
}

// Copies the restoring chunks' bytes back from the snapshot, one region per chunk and span.
void LiveMove::Impl::recordRestores(VkCommandBuffer commands) {
    const Context::Impl& ctx = context_.impl();
    for (const Span& span : spans_) {
        copies_.clear();
        for (size_t c = 0; c < chunks_.size(); ++c) {
            if (!restoring_[c] || chunks_[c].vertexCount == 0) continue;
            // The chunk's bytes in this span: from its first vertex's first attribute
            // to its last vertex's last one, clamped to the span.
            VkDeviceSize from = span.end, to = span.begin;
            auto cover = [&](const VertexStream& stream) {
                if (stream.buffer != span.buffer || stream.offset < span.begin || stream.offset >= span.end) return;
                const MeshChunk& chunk = chunks_[c];
                from = std::min(from, stream.offset + VkDeviceSize(chunk.firstVertex) * stream.stride);
                to = std::max(to, stream.offset +
                                      VkDeviceSize(chunk.firstVertex + chunk.vertexCount - 1) * stream.stride + 12);
            };
            cover(positionStream_);
            if (hasNormals_) cover(normalStream_);
            if (from < to) copies_.push_back({span.snapshotOffset + (from - span.begin), from, to - from});
        }
        if (!copies_.empty())
            ctx.vk.vkCmdCopyBuffer(commands, snapshot_.handle(), span.buffer, uint32_t(copies_.size()), copies_.data());
    }
    std::fill(restoring_.begin(), restoring_.end(), 0);
}

void LiveMove::Impl::recordSolve(VkCommandBuffer commands, RecordReport& report) {
    const Context::Impl& ctx = context_.impl();
    ToolBlock block{};
    std::copy(std::begin(kernel_.tools), std::end(kernel_.tools), std::begin(block.tools));
    ctx.vk.vkCmdUpdateBuffer(commands, tools_.handle(), 0, sizeof(block), &block);
    memoryBarrier(ctx.vk, commands, kOurStages, kOurWrites, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            kComputeAccesses | VK_ACCESS_UNIFORM_READ_BIT);

    // Adjacent chunks go in one dispatch. Dispatches writing one buffer are ordered
    // by barriers: their ranges are disjoint, but a descriptor covers the whole mesh.
    auto forEachRun = [&](auto&& recordRun) {
        for (size_t k = 0; k < solvedChunks_.size();) {
            const uint32_t first = chunks_[solvedChunks_[k]].firstVertex;
            uint32_t end = first + chunks_[solvedChunks_[k]].vertexCount;
            Bounds bounds = chunks_[solvedChunks_[k]].bounds;
            for (++k; k < solvedChunks_.size() && chunks_[solvedChunks_[k]].firstVertex == end; ++k) {
                end += chunks_[solvedChunks_[k]].vertexCount;
                bounds = {glm::min(bounds.min, chunks_[solvedChunks_[k]].bounds.min),
                          glm::max(bounds.max, chunks_[solvedChunks_[k]].bounds.max)};
            }
            recordRun(first, end - first, bounds);
        }
    };
    bool firstRun = true;
    auto separate = [&] {
        if (!firstRun)
            memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kComputeAccesses);
        firstRun = false;
    };
    const bool continuous = mode_ == MoveMode::Continuous;
    forEachRun([&](uint32_t first, uint32_t count, const Bounds& bounds) {
        separate();
        // Compaction only pays where the run holds vertices out of reach, or masked.
        const bool compact = hasMask_ || !boxWithinReach(kernel_, bounds);
        recordDeform(commands, context_, deformPipelines_, kernel_, hasStatistics_,
                     continuous ? continuousBinding_ : deformBinding_, first, count,
                     compact ? &deformScratch_ : nullptr);
        report.verticesSolved += count;
    });
    report.chunksSolved = uint32_t(solvedChunks_.size());
    if (continuous) {
        // The next segment starts where this one ends, and the chunks it moved hold
        // their vertices within their bounds grown by how far it could carry one.
        const float grow = displacementBound(kernel_);
        for (uint32_t c : solvedChunks_) {
            chunks_[c].bounds.min -= glm::vec3(grow);
            chunks_[c].bounds.max += glm::vec3(grow);
        }
        std::copy(posesB_.begin(), posesB_.end(), posesA_.begin());
    }
    if (hasNormals_ && !solvedChunks_.empty()) {
        firstRun = false; // normals read the positions just written
        forEachRun([&](uint32_t first, uint32_t count, const Bounds&) {
            separate();
            NormalsPushConstants push = normalsLayout_;
            push.firstVertex = first;
            push.vertexCount = count;
            normalsPipeline_->record(commands, context_, normalsSet_, push);
        });
    }
    solvePending_ = false;
}

double LiveMove::Impl::gpuMilliseconds() const {
    const Context::Impl& ctx = context_.impl();
    if (!timestamps_) return std::numeric_limits<double>::quiet_NaN();
    // Newest first: the latest frame whose two timestamps are both available.
    for (uint32_t back = 1; back < kTimestampRing && back <= frame_; ++back) {
        const uint32_t slot = (frame_ - back) % kTimestampRing;
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
RecordReport LiveMove::record(VkCommandBuffer commands) noexcept { return impl_->record(commands); }
void LiveMove::commit() { impl_->commit(); }
void LiveMove::cancel() { impl_->cancel(); }
bool LiveMove::moving() const { return impl_->moving(); }
const std::string& LiveMove::lastError() const { return impl_->lastError(); }
double LiveMove::gpuMilliseconds() const { return impl_->gpuMilliseconds(); }
size_t LiveMove::chunkCount() const { return impl_->chunkCount(); }
const Bounds& LiveMove::chunkBounds(size_t chunk) const { return impl_->chunkBounds(chunk); }
void LiveMove::setChunkBounds(size_t chunk, const Bounds& bounds) { impl_->setChunkBounds(chunk, bounds); }

} // namespace sculptflow
