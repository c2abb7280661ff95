// The C API's per-frame path (sculptflow.h): sculptflow::LiveMove behind an
// SfLiveMove. update, record and submitted allocate nothing, as LiveMove's own.
#include <sculptflow/solve_report.hpp>
#include "c_api_impl.hpp"
#include "impl_access.hpp"
#include "live_move_impl.hpp"

#include <cmath>
#include <cstddef>
#include <exception>
#include <vector>

using namespace sculptflow;
using namespace sculptflow::capi;

namespace {

VertexStream stream(const SfVertexStream& in) { return {in.buffer, in.offset, in.stride}; }

MeshChunk meshChunk(const SfMeshChunk& in) {
    MeshChunk out;
    out.firstVertex = in.firstVertex;
    out.vertexCount = in.vertexCount;
    out.bounds.min = {in.boundsMin[0], in.boundsMin[1], in.boundsMin[2]};
    out.bounds.max = {in.boundsMax[0], in.boundsMax[1], in.boundsMax[2]};
    return out;
}

// 0.1.0's SfLiveMoveCreateInfo ended at `tolerance`; the buffer sizes came after.
constexpr size_t kLiveMoveCreateInfoMinimumSize = offsetof(SfLiveMoveCreateInfo, positionsBufferSize);

static_assert(SF_MAX_RECORD_ACCESSES == kMaxRecordAccesses && SF_MAX_OWNERSHIP_TRANSFERS == kMaxOwnershipTransfers);

SfBufferAccess bufferAccess(const BufferAccess& in) { return {in.buffer, in.offset, in.size, in.stages, in.accesses}; }

// 0.1.0's SfRecordReport ended at verticesSolved; chunksSnapshotted came after.
constexpr size_t kRecordReportMinimumSize = offsetof(SfRecordReport, chunksSnapshotted);

// A stream's last vertex ends within its buffer of `size` bytes (0: not given).
void requireWithin(const SfVertexStream& in, uint32_t vertexCount, VkDeviceSize size, const char* name) {
    if (size == 0 || !in.buffer || vertexCount == 0) return;
    const uint64_t span = uint64_t(vertexCount - 1) * in.stride + 12; // no overflow: both factors < 2^32
    require(in.offset <= size && span <= size - in.offset,
            std::string("SfLiveMoveCreateInfo.") + name + ": offset " + std::to_string(in.offset) + " + (vertexCount " +
                std::to_string(vertexCount) + " - 1) × stride " + std::to_string(in.stride) +
                " + 12 bytes ends past the buffer's " + std::to_string(size) + " (" + name + "BufferSize)");
}

// The mask's last value ends within its buffer (0: not given).
void requireMaskWithin(const SfScalarStream& in, uint32_t vertexCount, VkDeviceSize size) {
    if (size == 0 || !in.buffer || vertexCount == 0) return;
    const uint64_t span = uint64_t(vertexCount - 1) * in.stride + 4;
    require(in.offset <= size && span <= size - in.offset,
            "SfLiveMoveCreateInfo.mask: offset " + std::to_string(in.offset) + " + (vertexCount " +
                std::to_string(vertexCount) + " - 1) × stride " + std::to_string(in.stride) +
                " + 4 bytes ends past the buffer's " + std::to_string(size) + " (maskBufferSize)");
}

static_assert(sizeof(SfVertexStatistics) == sizeof(VertexStatistics) && SF_VERTEX_CULLED == kVertexCulled &&
              SF_VERTEX_UNVERIFIED == kVertexUnverified);

// A refusal from the per-frame calls: the handle's text, within its reserved capacity.
SfResult refuse(SfLiveMove live, SfResult code, const char* text) noexcept {
    return fail(live->lastError, code, text);
}

} // namespace

extern "C" {

SfResult sfCreateLiveMove(SfContext context, const SfLiveMoveCreateInfo* info, SfLiveMove* live) {
    return guarded(context ? context->lastError : threadError(), [&] {
        require(context != nullptr, "sfCreateLiveMove: context is NULL");
        require(live != nullptr, "sfCreateLiveMove: live (the output) is NULL");
        const SfLiveMoveCreateInfo in = readStruct(info, kLiveMoveCreateInfoMinimumSize, "SfLiveMoveCreateInfo");
        requireWithin(in.positions, in.vertexCount, in.positionsBufferSize, "positions");
        requireWithin(in.normals, in.vertexCount, in.normalsBufferSize, "normals");
        requireMaskWithin(in.mask, in.vertexCount, in.maskBufferSize);
        require(in.statisticsBufferSize == 0 || !in.statistics ||
                    in.statisticsBufferSize / sizeof(SfVertexStatistics) >= in.vertexCount,
                "SfLiveMoveCreateInfo.statistics: " + std::to_string(in.statisticsBufferSize) +
                    " bytes (statisticsBufferSize) hold fewer than 16 × vertexCount (" +
                    std::to_string(in.vertexCount) + ")");
        require(in.triangleCount == 0 || in.triangles, "SfLiveMoveCreateInfo.triangles is NULL with triangleCount " +
                                                           std::to_string(in.triangleCount));
        require(in.chunkCount == 0 || in.chunks,
                "SfLiveMoveCreateInfo.chunks is NULL with chunkCount " + std::to_string(in.chunkCount));
        require(in.segmentTolerance == 0.0 || (std::isfinite(in.segmentTolerance) && in.segmentTolerance > 0.0),
                "SfLiveMoveCreateInfo.segmentTolerance must be a finite number > 0 (0: the default), not " +
                    std::to_string(in.segmentTolerance));
        std::vector<MeshChunk> chunks;
        chunks.reserve(in.chunkCount);
        for (uint32_t i = 0; i < in.chunkCount; ++i) chunks.push_back(meshChunk(in.chunks[i]));
        RendererMesh mesh;
        mesh.vertexCount = in.vertexCount;
        mesh.positions = stream(in.positions);
        mesh.normals = stream(in.normals);
        mesh.triangles = {in.triangles, size_t(in.triangleCount) * 3};
        mesh.chunks = chunks;
        mesh.mask = {in.mask.buffer, in.mask.offset, in.mask.stride};
        mesh.statistics = in.statistics;
        LiveMoveOptions options;
        options.solver = solverOptions(in.method, in.tolerance);
        options.timestamps = in.noTimestamps == 0;
        auto handle = std::make_unique<SfLiveMove_T>();
        handle->context = context;
        if (in.segmentTolerance != 0.0) handle->segmentTolerance = in.segmentTolerance;
        handle->lastError.text.reserve(512);
        handle->live = std::make_unique<LiveMove>(*context->context, mesh, options);
        *live = handle.release();
        return SF_SUCCESS;
    });
}

void sfDestroyLiveMove(SfLiveMove live) { delete live; }

const char* sfLiveMoveGetLastError(SfLiveMove live) {
    return live ? live->lastError.text.c_str() : threadError().text.c_str();
}

VkResult sfLiveMoveGetLastVkResult(SfLiveMove live) { return live ? live->lastError.vkResult : threadError().vkResult; }

SfResult sfLiveMoveBegin(SfLiveMove live, const SfTools* tools, const SfPose* posesA, SfMoveMode mode) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveBegin: live is NULL");
    // LiveMove::begin's errors say their cause: bad tools, a move not yet over, memory.
    return guarded(live->lastError, [&] {
        const SfTools in = readStruct(tools, sizeof(SfTools), "SfTools");
        require(posesA != nullptr, "sfLiveMoveBegin: posesA is NULL");
        const uint32_t rawMode = rawValue(mode);
        require(rawMode == SF_MOVE_MODE_MOVE || rawMode == SF_MOVE_MODE_CONTINUOUS,
                "sfLiveMoveBegin: mode is " + std::to_string(rawMode) +
                    "; SF_MOVE_MODE_MOVE or SF_MOVE_MODE_CONTINUOUS");
        const Stroke stroke = toolsStroke(in);
        std::vector<Pose> poses;
        for (size_t i = 0; i < stroke.tools.size(); ++i) poses.push_back(pose(posesA[i]));
        live->live->begin(stroke, poses, rawMode == SF_MOVE_MODE_MOVE ? MoveMode::Move : MoveMode::Continuous);
        live->hands = stroke.tools.size();
        return SF_SUCCESS;
    });
}

SfResult sfLiveMoveUpdate(SfLiveMove live, const SfPose* posesB) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveUpdate: live is NULL");
    if (!live->live->moving())
        return refuse(live, SF_ERROR_INVALID_STATE, "sfLiveMoveUpdate: no move is open; begin first");
    if (!posesB) return refuse(live, SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveUpdate: posesB is NULL");
    for (size_t i = 0; i < live->hands; ++i) live->poses[i] = pose(posesB[i]);
    if (!live->live->update({live->poses.data(), live->hands}, live->segmentTolerance))
        return refuse(live, SF_ERROR_INVALID_ARGUMENT, live->live->lastError().c_str());
    return SF_SUCCESS;
}

SfResult sfLiveMoveRecord(SfLiveMove live, VkCommandBuffer commands, const SfRecordSync* sync,
                          SfRecordReport* report) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveRecord: live is NULL");
    if (!commands) return refuse(live, SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveRecord: commands is VK_NULL_HANDLE");
    if (!report) return refuse(live, SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveRecord: report is NULL");
    if (report->structSize < kRecordReportMinimumSize)
        return refuse(live, SF_ERROR_INVALID_STRUCT_SIZE,
                      "SfRecordReport.structSize is smaller than its first version's size "
                      "(offsetof(SfRecordReport, chunksSnapshotted))");
    RecordSync recordSync;
    if (sync) {
        SfRecordSync in{};
        const SfResult read = guarded(live->lastError, [&] {
            // 0.1.0's SfRecordSync ended at afterAccesses; the render graph and async compute came after.
            in = readStruct(sync, offsetof(SfRecordSync, renderGraph), "SfRecordSync");
            return SF_SUCCESS;
        });
        if (read != SF_SUCCESS) return read;
        recordSync.before = {in.beforeStages, in.beforeAccesses};
        recordSync.after = {in.afterStages, in.afterAccesses};
        recordSync.renderGraph = in.renderGraph != 0;
        if (in.asyncCompute) recordSync.drawQueueFamily = in.drawQueueFamily;
    }
    const RecordReport r = live->live->record(commands, recordSync);
    // record() says "nothing recorded" for a failure too; its cause gets its code,
    // the report is left as it was, and the command buffer holds nothing to submit.
    if (const std::exception_ptr failure = implOf(*live->live).recordFailure())
        return guarded(live->lastError, [&]() -> SfResult { std::rethrow_exception(failure); });
    // Only the bytes this library knows: a newer caller's later fields stay as they were.
    report->recorded = r.recorded;
    report->ticket = r.ticket.frame;
    report->chunksSolved = r.chunksSolved;
    report->chunksRestored = r.chunksRestored;
    report->chunksTotal = r.chunksTotal;
    report->verticesSolved = r.verticesSolved;
    if (report->structSize >= offsetof(SfRecordReport, chunksSnapshotted) + sizeof(uint32_t))
        report->chunksSnapshotted = r.chunksSnapshotted;
    if (report->structSize >= offsetof(SfRecordReport, transfers) + sizeof report->transfers) {
        report->accessCount = r.accessCount;
        for (uint32_t i = 0; i < kMaxRecordAccesses; ++i) report->accesses[i] = bufferAccess(r.accesses[i]);
        report->transferCount = r.transferCount;
        for (uint32_t i = 0; i < kMaxOwnershipTransfers; ++i) report->transfers[i] = bufferAccess(r.transfers[i]);
    }
    return SF_SUCCESS;
}

SfResult sfLiveMoveSubmitted(SfLiveMove live, uint64_t ticket) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveSubmitted: live is NULL");
    if (!live->live->submitted(FrameTicket{ticket}))
        return refuse(live, SF_ERROR_INVALID_STATE, live->live->lastError().c_str());
    return SF_SUCCESS;
}

SfResult sfLiveMoveCommit(SfLiveMove live) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveCommit: live is NULL");
    return guarded(live->lastError, [&] {
        live->live->commit();
        return SF_SUCCESS;
    });
}

SfResult sfLiveMoveCancel(SfLiveMove live) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveCancel: live is NULL");
    return guarded(live->lastError, [&] {
        live->live->cancel();
        return SF_SUCCESS;
    });
}

SfBool32 sfLiveMoveIsMoving(SfLiveMove live) { return live && live->live->moving() ? 1u : 0u; }

uint32_t sfLiveMoveGetChunkCount(SfLiveMove live) { return live ? uint32_t(live->live->chunkCount()) : 0u; }

SfResult sfLiveMoveGetChunkBounds(SfLiveMove live, uint32_t chunk, float boundsMin[3], float boundsMax[3]) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveGetChunkBounds: live is NULL");
    return guarded(live->lastError, [&] {
        require(boundsMin && boundsMax, "sfLiveMoveGetChunkBounds: boundsMin and boundsMax must both be given");
        require(chunk < live->live->chunkCount(), "sfLiveMoveGetChunkBounds: chunk " + std::to_string(chunk) + " of " +
                                                      std::to_string(live->live->chunkCount()));
        const Bounds& bounds = live->live->chunkBounds(chunk);
        for (int axis = 0; axis < 3; ++axis) {
            boundsMin[axis] = bounds.min[axis];
            boundsMax[axis] = bounds.max[axis];
        }
        return SF_SUCCESS;
    });
}

SfResult sfLiveMoveSetChunkBounds(SfLiveMove live, uint32_t chunk, const float boundsMin[3], const float boundsMax[3]) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveSetChunkBounds: live is NULL");
    return guarded(live->lastError, [&] {
        require(boundsMin && boundsMax, "sfLiveMoveSetChunkBounds: boundsMin and boundsMax must both be given");
        live->live->setChunkBounds(
            chunk, Bounds{{boundsMin[0], boundsMin[1], boundsMin[2]}, {boundsMax[0], boundsMax[1], boundsMax[2]}});
        return SF_SUCCESS;
    });
}

SfResult sfPrewarmLiveMoves(SfContext context, const SfPrewarmInfo* info, uint32_t* created) {
    return guarded(context ? context->lastError : threadError(), [&] {
        require(context != nullptr, "sfPrewarmLiveMoves: context is NULL");
        // Its first version ended at `tolerance`; the mesh features came after.
        const SfPrewarmInfo in = readStruct(info, offsetof(SfPrewarmInfo, mask), "SfPrewarmInfo");
        require(in.toolSetCount == 0 || in.toolSets,
                "SfPrewarmInfo.toolSets is NULL with toolSetCount " + std::to_string(in.toolSetCount));
        std::vector<Stroke> toolSets;
        for (uint32_t i = 0; i < in.toolSetCount; ++i) {
            const std::string name = "SfPrewarmInfo.toolSets[" + std::to_string(i) + "]";
            toolSets.push_back(toolsStroke(readStruct(&in.toolSets[i], sizeof(SfTools), name.c_str())));
        }
        LiveMoveOptions options;
        options.solver = solverOptions(in.method, in.tolerance); // as sfCreateLiveMove's: the same pipelines
        const MeshFeatures features{in.mask != 0, in.statistics != 0};
        const uint32_t built = prewarmLiveMoves(*context->context, toolSets, options, features);
        if (created) *created = built;
        return SF_SUCCESS;
    });
}

} // extern "C"
