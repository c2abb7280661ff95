// The C API against the C++ one, scenario by scenario and bit for bit: the CPU
// solve with a thread count, a chunked mesh dragged in continuous mode with its
// segment tolerance (reports, bytes and the grown chunk bounds), and the
// load-time prewarm (the same pipelines, none built by a grab after it).
#include <sculptflow/sculptflow.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include "host/c_api_impl.hpp"
#include "c_api_fixture.hpp"

namespace sculptflow {
namespace {

using test::ChunkedMesh;
using test::CApiTools;
using test::cApiPose;
using test::chunkGrid;

// What the C API gives the solver for SF_METHOD_BS32 and tolerance 0 (its
// default), written out in C++ terms: the faces agree on options too.
SolverOptions parityLiveOptions() {
    SolverOptions options;
    options.maxIterations = plannedAttempts(options.method, options.tolerance);
    return options;
}

// 642 vertices: past the 512 under which the CPU solve takes no threads.
TEST(CApiParityCpu, CpuSolveIsTheCppOneBitForBitWithAnyThreadCount) {
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> start = test::tipSphere(move.tools[0], 3, 1.0f).positions;
    ASSERT_GT(start.size(), 512u);
    SolverOptions options = parityLiveOptions();
    options.maxIterations = plannedAttempts(options, {&move, 1}); // sfSolve plans its move's, as the CLI
    const std::vector<glm::vec3> expected = solveOnCpu(move, start, options, 1).positions;

    const CApiTools tools(stroke);
    const SfPose posesA = cApiPose(stroke.tools[0].poses.front());
    const SfPose posesB = cApiPose(stroke.tools[0].poses.back());
    SfSolveInfo info;
    SF_INIT_STRUCT(&info);
    info.backend = SF_BACKEND_CPU;
    info.tools = &tools.info;
    info.posesA = &posesA;
    info.posesB = &posesB;
    info.vertexCount = uint32_t(start.size());
    info.positions = &start[0].x;
    for (uint32_t threads : {0u, 1u, 2u, 5u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        info.cpuThreads = threads;
        std::vector<glm::vec3> moved(start.size(), glm::vec3(-1.0f));
        ASSERT_EQ(sfSolve(nullptr, &info, &moved[0].x), SF_SUCCESS) << sfGetLastError(nullptr);
        EXPECT_EQ(std::memcmp(moved.data(), expected.data(), expected.size() * sizeof(glm::vec3)), 0);
    }
    // 0.1.0's struct, without cpuThreads: accepted, every core.
    info.cpuThreads = 0;
    info.structSize = uint32_t(offsetof(SfSolveInfo, cpuThreads));
    std::vector<glm::vec3> moved(start.size(), glm::vec3(-1.0f));
    ASSERT_EQ(sfSolve(nullptr, &info, &moved[0].x), SF_SUCCESS) << sfGetLastError(nullptr);
    EXPECT_EQ(std::memcmp(moved.data(), expected.data(), expected.size() * sizeof(glm::vec3)), 0);
    info.structSize = uint32_t(offsetof(SfSolveInfo, tolerance));
    EXPECT_EQ(sfSolve(nullptr, &info, &moved[0].x), SF_ERROR_INVALID_STRUCT_SIZE);
}

// What one frame did, as both faces report it, and the renderer's bytes after it.
struct ParityFrame {
    bool recorded = false;
    uint32_t chunksSolved = 0, chunksRestored = 0, chunksTotal = 0;
    uint64_t verticesSolved = 0;
    std::string bytes;
    std::string statistics; // the statistics buffer's bytes, when the drag has one
    uint32_t chunksSnapshotted = 0;
    std::string accesses, transfers; // the report's lists, field by field
    bool operator==(const ParityFrame&) const = default;
};

// A drag through either face.
struct ParityDrag {
    std::vector<ParityFrame> frames;
    std::vector<Bounds> boundsAfter; // every chunk's, once the committed move is over
    std::vector<uint32_t> changed;   // the committed move's changed chunks
    std::string undoCopy;            // the undo copy's buffer after it
};

// The optional streams a drag's mesh carries (the fixture's buffers).
struct ParityStreams {
    bool mask = false;
    bool statistics = false;
    bool renderGraph = false; // every frame recorded for a render graph
};

// A report's access or transfer list as bytes, field by field (no padding); each
// drag has a vertex buffer of its own, so it stands as "vertices".
std::string parityAccessBytes(std::span<const BufferAccess> list, VkBuffer vertices) {
    std::string out;
    auto put = [&](const auto& value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); };
    for (const BufferAccess& a : list) {
        if (a.buffer == vertices) out += "vertices";
        else put(a.buffer);
        put(a.offset), put(a.size), put(a.stages), put(a.accesses);
    }
    return out;
}

class CApiParity : public test::CApiFixture {
protected:
    void SetUp() override {
        test::CApiFixture::SetUp();
        if (IsSkipped()) return;
        const ToolMotion& tool = motion_.tools[0];
        grid_ = chunkGrid(tool, 4, 1, 30.0f * float(tool.outerRadius)); // 64 chunks
        const size_t n = stroke_.tools[0].poses.size();
        frameIndices_ = {2, n / 3, 2 * n / 3, n - 1};
    }

    SfContext adoptParity(PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr) {
        SfContextCreateInfo info = test::cApiAdoptInfo(renderer_->adopted());
        info.getDeviceProcAddr = getDeviceProcAddr;
        return adoptC(info);
    }

    ParityFrame parityFrame(const RecordReport& r) const {
        return {r.recorded, r.chunksSolved, r.chunksRestored, r.chunksTotal, r.verticesSolved, bytes(),
                statisticsBytes(), r.chunksSnapshotted, parityAccessBytes(r.accessList(), vertices_.buffer),
                parityAccessBytes(r.transferList(), vertices_.buffer)};
    }

    // A buffer the size of the vertex buffer for the undo copy, zeroed.
    test::TestRenderer::Buffer& undoBuffer() {
        undo_ = renderer_->createBuffer(vertices_.size, test::TestRenderer::kVertexUsage);
        std::memset(undo_.mapped, 0, undo_.size);
        return undo_;
    }
    std::string undoBytes() const { return std::string(static_cast<const char*>(undo_.mapped), undo_.size); }

    // A mask (one float a vertex, stride 8, after 12 bytes: zeros, fractions and
    // ones across the tool) and a statistics buffer, for drags that ask for them.
    static constexpr VkDeviceSize kParityMaskOffset = 12;
    void createStreams() {
        const glm::vec3 tip(motion_.tools[0].origin);
        const float radius = float(motion_.tools[0].outerRadius);
        mask_ = renderer_->createBuffer(kParityMaskOffset + 8 * VkDeviceSize(count_),
                                        test::TestRenderer::kVertexUsage);
        auto* values = reinterpret_cast<float*>(static_cast<char*>(mask_.mapped) + kParityMaskOffset);
        for (uint32_t i = 0; i < count_; ++i)
            values[2 * i] = glm::clamp(0.5f + (grid_.positions[i].x - tip.x) / radius, 0.0f, 1.0f);
        statistics_ = renderer_->createBuffer(16 * VkDeviceSize(count_), test::TestRenderer::kVertexUsage);
    }
    std::string statisticsBytes() const {
        return statistics_.mapped ? std::string(static_cast<const char*>(statistics_.mapped), statistics_.size) : "";
    }
    // Each drag starts from the same statistics bytes.
    void resetStatistics() {
        if (statistics_.mapped) std::memset(statistics_.mapped, 0xFF, statistics_.size);
    }

    // C++: LiveMove on the fixture's adopted Context.
    ParityDrag dragCpp(double segmentTolerance, ParityStreams streams = {}) {
        upload(grid_.positions);
        resetStatistics();
        LiveMoveOptions options;
        options.solver = parityLiveOptions();
        RendererMesh mesh = rendererMesh(grid_.triangles, grid_.chunks);
        if (streams.mask) mesh.mask = {mask_.buffer, kParityMaskOffset, 8};
        if (streams.statistics) mesh.statistics = statistics_.buffer;
        LiveMove live(*context_, mesh, options);
        live.begin(stroke_, firstPoses(), MoveMode::Continuous);
        ParityDrag drag;
        auto frame = [&] {
            VkCommandBuffer commands = renderer_->begin();
            RecordSync sync;
            sync.renderGraph = streams.renderGraph;
            const RecordReport r = live.record(commands, sync);
            renderer_->submitAndWait();
            EXPECT_TRUE(live.submitted(r.ticket)) << live.lastError();
            drag.frames.push_back(parityFrame(r));
        };
        for (size_t index : frameIndices_) {
            EXPECT_TRUE(live.update(posesAt(index), segmentTolerance)) << live.lastError();
            frame();
        }
        live.commit();
        frame();
        for (size_t c = 0; c < live.chunkCount(); ++c) drag.boundsAfter.push_back(live.chunkBounds(c));
        drag.changed.assign(live.changedChunks().begin(), live.changedChunks().end());
        const VkBuffer undo = undoBuffer().buffer;
        EXPECT_TRUE(live.recordUndoCopy(renderer_->begin(), undo)) << live.lastError();
        renderer_->submitAndWait();
        drag.undoCopy = undoBytes();
        return drag;
    }

    SfLiveMoveCreateInfo liveInfo(const std::vector<SfMeshChunk>& chunks, double segmentTolerance) const {
        SfLiveMoveCreateInfo info = test::cApiLiveInfo(rendererMesh(grid_.triangles), grid_.triangles);
        info.chunkCount = uint32_t(chunks.size());
        info.chunks = chunks.data();
        info.segmentTolerance = segmentTolerance;
        return info;
    }

    std::vector<SfMeshChunk> cChunks() const {
        std::vector<SfMeshChunk> chunks;
        for (const MeshChunk& c : grid_.chunks)
            chunks.push_back({c.firstVertex,
                              c.vertexCount,
                              {c.bounds.min.x, c.bounds.min.y, c.bounds.min.z},
                              {c.bounds.max.x, c.bounds.max.y, c.bounds.max.z}});
        return chunks;
    }

    // C: the same drag through sculptflow.h, on a Context of its own.
    ParityDrag dragC(double segmentTolerance, ParityStreams streams = {}) {
        upload(grid_.positions);
        resetStatistics();
        SfContext context = adoptParity();
        const std::vector<SfMeshChunk> chunks = cChunks();
        SfLiveMoveCreateInfo info = liveInfo(chunks, segmentTolerance);
        if (streams.mask) info.mask = {mask_.buffer, kParityMaskOffset, 8};
        if (streams.statistics) info.statistics = statistics_.buffer;
        SfLiveMove live = nullptr;
        EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
        ParityDrag drag;
        if (!live) return sfDestroyContext(context), drag;
        const CApiTools tools(stroke_);
        const SfPose posesA = cApiPose(firstPoses()[0]);
        EXPECT_EQ(sfLiveMoveBegin(live, &tools.info, &posesA, SF_MOVE_MODE_CONTINUOUS), SF_SUCCESS)
            << sfLiveMoveGetLastError(live);
        auto frame = [&] {
            VkCommandBuffer commands = renderer_->begin();
            SfRecordReport r;
            SF_INIT_STRUCT(&r);
            SfRecordSync sync;
            SF_INIT_STRUCT(&sync);
            sync.renderGraph = streams.renderGraph;
            EXPECT_EQ(sfLiveMoveRecord(live, commands, &sync, &r), SF_SUCCESS) << sfLiveMoveGetLastError(live);
            std::vector<BufferAccess> accesses, transfers;
            for (uint32_t i = 0; i < r.accessCount; ++i)
                accesses.push_back({r.accesses[i].buffer, r.accesses[i].offset, r.accesses[i].size,
                                    r.accesses[i].stages, r.accesses[i].accesses});
            for (uint32_t i = 0; i < r.transferCount; ++i)
                transfers.push_back({r.transfers[i].buffer, r.transfers[i].offset, r.transfers[i].size,
                                     r.transfers[i].stages, r.transfers[i].accesses});
            renderer_->submitAndWait();
            EXPECT_EQ(sfLiveMoveSubmitted(live, r.ticket), SF_SUCCESS) << sfLiveMoveGetLastError(live);
            drag.frames.push_back({r.recorded != 0, r.chunksSolved, r.chunksRestored, r.chunksTotal, r.verticesSolved,
                                   bytes(), statisticsBytes(), r.chunksSnapshotted, parityAccessBytes(accesses, vertices_.buffer),
                                   parityAccessBytes(transfers, vertices_.buffer)});
        };
        for (size_t index : frameIndices_) {
            const SfPose posesB = cApiPose(posesAt(index)[0]);
            EXPECT_EQ(sfLiveMoveUpdate(live, &posesB), SF_SUCCESS) << sfLiveMoveGetLastError(live);
            frame();
        }
        EXPECT_EQ(sfLiveMoveCommit(live), SF_SUCCESS) << sfLiveMoveGetLastError(live);
        frame();
        const uint32_t count = sfLiveMoveGetChunkCount(live);
        for (uint32_t c = 0; c < count; ++c) {
            Bounds bounds;
            EXPECT_EQ(sfLiveMoveGetChunkBounds(live, c, &bounds.min.x, &bounds.max.x), SF_SUCCESS);
            drag.boundsAfter.push_back(bounds);
        }
        uint32_t changedCount = 0;
        EXPECT_EQ(sfLiveMoveGetChangedChunks(live, &changedCount, nullptr), SF_SUCCESS);
        drag.changed.resize(changedCount);
        EXPECT_EQ(sfLiveMoveGetChangedChunks(live, &changedCount, drag.changed.data()), SF_SUCCESS);
        const VkBuffer undo = undoBuffer().buffer;
        EXPECT_EQ(sfLiveMoveRecordUndoCopy(live, renderer_->begin(), undo, VK_NULL_HANDLE), SF_SUCCESS)
            << sfLiveMoveGetLastError(live);
        renderer_->submitAndWait();
        drag.undoCopy = undoBytes();
        sfDestroyLiveMove(live);
        sfDestroyContext(context);
        return drag;
    }

    ChunkedMesh grid_;
    std::vector<size_t> frameIndices_;
    test::TestRenderer::Buffer mask_, statistics_; // createStreams()
    test::TestRenderer::Buffer undo_;              // undoBuffer()
};

bool sameBounds(const std::vector<Bounds>& a, const std::vector<Bounds>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Bounds)) == 0;
}

// The same continuous drag on 64 chunks through both faces: every frame's report
// and bytes, and the bounds the committed move grew, bit for bit. Another segment
// tolerance parts them, so the C field is the one the solve used.
TEST_F(CApiParity, ChunkedContinuousDragIsTheCppOneBitForBit) {
    const double tolerance = 0.02; // voxels a segment; the default is 0.001
    const ParityDrag cpp = dragCpp(tolerance);
    const ParityDrag c = dragC(tolerance);
    ASSERT_EQ(cpp.frames.size(), c.frames.size());
    for (size_t f = 0; f < cpp.frames.size(); ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        EXPECT_EQ(c.frames[f].recorded, cpp.frames[f].recorded);
        EXPECT_EQ(c.frames[f].chunksSolved, cpp.frames[f].chunksSolved);
        EXPECT_EQ(c.frames[f].chunksRestored, cpp.frames[f].chunksRestored);
        EXPECT_EQ(c.frames[f].chunksTotal, cpp.frames[f].chunksTotal);
        EXPECT_EQ(c.frames[f].verticesSolved, cpp.frames[f].verticesSolved);
        EXPECT_TRUE(c.frames[f].bytes == cpp.frames[f].bytes) << "the renderer's buffer differs between the faces";
    }
    EXPECT_EQ(cpp.frames[0].chunksTotal, 64u);
    EXPECT_GE(cpp.frames[0].chunksSolved, 1u);
    EXPECT_LT(cpp.frames[0].chunksSolved, 64u) << "only the chunks in reach";
    EXPECT_TRUE(sameBounds(c.boundsAfter, cpp.boundsAfter)) << "chunk bounds after the committed move";
    EXPECT_FALSE(sameBounds(cpp.boundsAfter, std::vector<Bounds>(grid_.chunks.size()))) << "bounds were read";

    const ParityDrag byDefault = dragC(0.0);
    EXPECT_FALSE(byDefault.frames.back().bytes == c.frames.back().bytes)
        << "segmentTolerance 0.02 and the default gave the same bytes: the field was not used";
    const ParityDrag cppDefault = dragCpp(kDefaultSegmentTolerance);
    EXPECT_TRUE(byDefault.frames.back().bytes == cppDefault.frames.back().bytes) << "0: C++'s default";
}

// A drag whose mesh has a mask and a statistics buffer: through both faces the
// same bytes, vertices and statistics, every frame. Without the mask the C drag
// moves other bytes (so the field was read), and a prewarm with the mesh features
// through C builds what C++'s would.
TEST_F(CApiParity, MaskAndStatisticsAreTheCppOnesBitForBit) {
    upload(grid_.positions);
    createStreams();
    const ParityDrag cpp = dragCpp(0.02, {true, true});
    const ParityDrag c = dragC(0.02, {true, true});
    ASSERT_EQ(cpp.frames.size(), c.frames.size());
    for (size_t f = 0; f < cpp.frames.size(); ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        EXPECT_EQ(c.frames[f].verticesSolved, cpp.frames[f].verticesSolved);
        EXPECT_TRUE(c.frames[f].bytes == cpp.frames[f].bytes) << "the vertex buffer differs between the faces";
        EXPECT_TRUE(c.frames[f].statistics == cpp.frames[f].statistics) << "the statistics differ between the faces";
    }
    EXPECT_FALSE(c.frames.back().statistics == std::string(statistics_.size, '\xFF')) << "no statistics written";
    const ParityDrag unmasked = dragC(0.02, {false, true});
    EXPECT_FALSE(unmasked.frames.back().bytes == c.frames.back().bytes) << "the mask changed nothing";
    EXPECT_FALSE(unmasked.frames.back().statistics == c.frames.back().statistics);

    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const CApiTools tools(stroke_);
    SfPrewarmInfo prewarm;
    SF_INIT_STRUCT(&prewarm);
    prewarm.toolSetCount = 1;
    prewarm.toolSets = &tools.info;
    uint32_t plain = 0, featured = 0;
    ASSERT_EQ(sfPrewarmLiveMoves(context, &prewarm, &plain), SF_SUCCESS) << sfGetLastError(context);
    prewarm.mask = prewarm.statistics = 1;
    ASSERT_EQ(sfPrewarmLiveMoves(context, &prewarm, &featured), SF_SUCCESS) << sfGetLastError(context);
    EXPECT_GT(featured, 0u) << "a mask and statistics take pipelines of their own";
    LiveMoveOptions options;
    options.solver = parityLiveOptions();
    EXPECT_EQ(prewarmLiveMoves(*context->context, {&stroke_, 1}, options, MeshFeatures{true, true}), 0u)
        << "the C++ prewarm with the same features found pipelines to build";
    prewarm.structSize = uint32_t(offsetof(SfPrewarmInfo, mask)); // its first version: no features
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &featured), SF_SUCCESS) << sfGetLastError(context);
    prewarm.structSize = uint32_t(offsetof(SfPrewarmInfo, tolerance));
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &featured), SF_ERROR_INVALID_STRUCT_SIZE);
    sfDestroyContext(context);
}

// A mask or statistics buffer too small for the mesh, or a bad mask stride: its
// code and text, no handle. A structSize that ends before them ignores them.
TEST_F(CApiParity, MaskAndStatisticsOutOfTheirBuffersAreRefused) {
    upload(grid_.positions);
    createStreams();
    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const std::vector<SfMeshChunk> chunks = cChunks();
    SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    info.mask = {mask_.buffer, kParityMaskOffset, 8};
    info.maskBufferSize = mask_.size - 5;
    info.statistics = statistics_.buffer;
    SfLiveMove live = nullptr;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("maskBufferSize"), std::string::npos)
        << sfGetLastError(context);
    info.maskBufferSize = mask_.size - 4; // the last value's 4 bytes still fit: stride 8 leaves 4 spare
    info.statisticsBufferSize = statistics_.size - 1;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("statisticsBufferSize"), std::string::npos)
        << sfGetLastError(context);
    info.statisticsBufferSize = statistics_.size;
    info.mask.stride = 2;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("mask.stride"), std::string::npos) << sfGetLastError(context);
    EXPECT_EQ(live, nullptr);
    info.structSize = uint32_t(offsetof(SfLiveMoveCreateInfo, mask)); // older headers: no mask, no statistics
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    sfDestroyLiveMove(live);
    info.structSize = sizeof info;
    info.mask.stride = 8;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// The undo of a committed drag through both faces: each frame's snapshotted
// chunks, the changed chunks and the undo copy's bytes, bit for bit.
TEST_F(CApiParity, UndoCopyAndChangedChunksAreTheCppOnesBitForBit) {
    const ParityDrag cpp = dragCpp(0.02);
    const ParityDrag c = dragC(0.02);
    ASSERT_EQ(cpp.frames.size(), c.frames.size());
    for (size_t f = 0; f < cpp.frames.size(); ++f)
        EXPECT_EQ(c.frames[f].chunksSnapshotted, cpp.frames[f].chunksSnapshotted) << "frame " << f;
    EXPECT_GT(cpp.frames[0].chunksSnapshotted, 0u) << "the grab's frame copies its chunks aside";
    EXPECT_EQ(c.changed, cpp.changed);
    EXPECT_FALSE(cpp.changed.empty());
    EXPECT_LT(cpp.changed.size(), grid_.chunks.size()) << "only the chunks in reach changed";
    EXPECT_TRUE(c.undoCopy == cpp.undoCopy) << "the undo copies differ between the faces";
    EXPECT_FALSE(cpp.undoCopy == std::string(cpp.undoCopy.size(), '\0')) << "nothing was copied";
}

// A render-graph drag with a mask and statistics through both faces: each frame's
// access list and transfer list, and the bytes, bit for bit; a 0.1.0-sized
// SfRecordSync and SfRecordReport are taken, and the report's newer fields are
// left alone.
TEST_F(CApiParity, RenderGraphAccessListsAreTheCppOnesBitForBit) {
    upload(grid_.positions);
    createStreams();
    const ParityDrag cpp = dragCpp(0.02, {true, true, true});
    const ParityDrag c = dragC(0.02, {true, true, true});
    ASSERT_EQ(cpp.frames.size(), c.frames.size());
    for (size_t f = 0; f < cpp.frames.size(); ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        EXPECT_TRUE(c.frames[f].accesses == cpp.frames[f].accesses) << "the access lists differ";
        EXPECT_TRUE(c.frames[f].transfers == cpp.frames[f].transfers) << "the transfer lists differ";
        EXPECT_TRUE(c.frames[f].bytes == cpp.frames[f].bytes);
    }
    EXPECT_FALSE(cpp.frames[0].accesses.empty()) << "a solved frame accesses the renderer's buffers";
    EXPECT_FALSE(cpp.frames[0].transfers.empty());

    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const std::vector<SfMeshChunk> chunks = cChunks();
    const SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    SfLiveMove live = nullptr;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    SfRecordSync sync;
    SF_INIT_STRUCT(&sync);
    sync.structSize = uint32_t(offsetof(SfRecordSync, renderGraph));
    sync.renderGraph = 1; // past its structSize: not read
    SfRecordReport r;
    std::memset(&r, 0xCD, sizeof r);
    r.structSize = uint32_t(offsetof(SfRecordReport, chunksSnapshotted));
    EXPECT_EQ(sfLiveMoveRecord(live, renderer_->begin(), &sync, &r), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    renderer_->submitAndWait();
    EXPECT_EQ(r.recorded, 0u) << "no move: nothing to record";
    EXPECT_EQ(r.accessCount, 0xCDCDCDCDu) << "a field past the report's structSize was written";
    sync.structSize = uint32_t(offsetof(SfRecordSync, afterAccesses));
    EXPECT_EQ(sfLiveMoveRecord(live, renderer_->begin(), &sync, &r), SF_ERROR_INVALID_STRUCT_SIZE);
    renderer_->submitAndWait();
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// A record that fails is no "nothing pending": with a drawQueueFamily the device
// lacks, C returns INVALID_ARGUMENT with C++'s text (C++ reports nothing
// recorded and sets lastError()); neither recorded a frame, and the next record works.
TEST_F(CApiParity, RecordFailureIsReportedNotHidden) {
    upload(grid_.positions);
    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const std::vector<SfMeshChunk> chunks = cChunks();
    const SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    SfLiveMove live = nullptr;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    LiveMove cppLive(*context_, rendererMesh(grid_.triangles, grid_.chunks));
    const CApiTools tools(stroke_);
    const SfPose posesA = cApiPose(firstPoses()[0]), posesB = cApiPose(lastPoses()[0]);
    ASSERT_EQ(sfLiveMoveBegin(live, &tools.info, &posesA, SF_MOVE_MODE_MOVE), SF_SUCCESS);
    ASSERT_EQ(sfLiveMoveUpdate(live, &posesB), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    cppLive.begin(stroke_, firstPoses());
    ASSERT_TRUE(cppLive.update(lastPoses()));

    SfRecordSync sync;
    SF_INIT_STRUCT(&sync);
    sync.asyncCompute = 1;
    sync.drawQueueFamily = 1000;
    SfRecordReport r;
    SF_INIT_STRUCT(&r);
    r.ticket = 77;
    VkCommandBuffer commands = renderer_->begin();
    EXPECT_EQ(sfLiveMoveRecord(live, commands, &sync, &r), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(r.ticket, 77u) << "a failed record writes no report";
    RecordSync cppSync;
    cppSync.drawQueueFamily = 1000;
    const RecordReport cppReport = cppLive.record(commands, cppSync);
    EXPECT_FALSE(cppReport.recorded);
    EXPECT_EQ(std::string(sfLiveMoveGetLastError(live)), cppLive.lastError());
    EXPECT_NE(cppLive.lastError().find("drawQueueFamily"), std::string::npos) << cppLive.lastError();
    renderer_->submitAndWait(); // nothing in it

    sync.asyncCompute = 0; // the family is read only with asyncCompute
    SF_INIT_STRUCT(&r);
    EXPECT_EQ(sfLiveMoveRecord(live, renderer_->begin(), &sync, &r), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    renderer_->submitAndWait();
    EXPECT_TRUE(r.recorded);
    EXPECT_EQ(sfLiveMoveSubmitted(live, r.ticket), SF_SUCCESS);
    EXPECT_EQ(sfLiveMoveCancel(live), SF_SUCCESS);
    cppLive.cancel();
    cFramesUntilOver(live); // the cancel's restores
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// The undo calls' refusals, their codes one to one with C++'s false: outside the
// window (a move open), no copy buffer, too little room; nothing written.
TEST_F(CApiParity, UndoOutsideItsWindowIsRefused) {
    upload(grid_.positions);
    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const std::vector<SfMeshChunk> chunks = cChunks();
    const SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    SfLiveMove live = nullptr;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    LiveMove cppLive(*context_, rendererMesh(grid_.triangles, grid_.chunks));
    const VkBuffer undo = undoBuffer().buffer;
    uint32_t count = 7;
    EXPECT_EQ(sfLiveMoveGetChangedChunks(live, &count, nullptr), SF_SUCCESS);
    EXPECT_EQ(count, 0u) << "no committed move yet";
    EXPECT_EQ(sfLiveMoveGetChangedChunks(live, nullptr, nullptr), SF_ERROR_INVALID_ARGUMENT);
    const CApiTools tools(stroke_);
    const SfPose posesA = cApiPose(firstPoses()[0]), posesB = cApiPose(lastPoses()[0]);
    ASSERT_EQ(sfLiveMoveBegin(live, &tools.info, &posesA, SF_MOVE_MODE_MOVE), SF_SUCCESS);
    cppLive.begin(stroke_, firstPoses());
    VkCommandBuffer commands = renderer_->begin();
    EXPECT_EQ(sfLiveMoveRecordUndoCopy(live, commands, undo, VK_NULL_HANDLE), SF_ERROR_INVALID_STATE);
    EXPECT_FALSE(cppLive.recordUndoCopy(commands, undo));
    EXPECT_EQ(std::string(sfLiveMoveGetLastError(live)), cppLive.lastError()) << "the same text";
    EXPECT_EQ(sfLiveMoveRecordUndoCopy(live, commands, VK_NULL_HANDLE, VK_NULL_HANDLE), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sfLiveMoveRecordUndoCopy(live, VK_NULL_HANDLE, undo, VK_NULL_HANDLE), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sfLiveMoveRecordUndoCopy(nullptr, commands, undo, VK_NULL_HANDLE), SF_ERROR_INVALID_ARGUMENT);
    renderer_->submitAndWait();
    cppLive.cancel();

    // Commit a move, then ask for its chunks with too little room.
    ASSERT_EQ(sfLiveMoveUpdate(live, &posesB), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    ASSERT_EQ(sfLiveMoveCommit(live), SF_SUCCESS);
    cFramesUntilOver(live);
    ASSERT_EQ(sfLiveMoveGetChangedChunks(live, &count, nullptr), SF_SUCCESS);
    ASSERT_GT(count, 0u);
    std::vector<uint32_t> some(count, 99u);
    uint32_t room = count - 1;
    EXPECT_EQ(sfLiveMoveGetChangedChunks(live, &room, some.data()), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(room, count - 1) << "a refused call writes nothing";
    EXPECT_EQ(some, std::vector<uint32_t>(count, 99u));
    room = count + 3;
    EXPECT_EQ(sfLiveMoveGetChangedChunks(live, &room, some.data()), SF_SUCCESS);
    EXPECT_EQ(room, count);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// Chunk bounds set through C steer what a frame solves: every box moved far away
// leaves no chunk in reach; a bad chunk or null bounds are refused.
TEST_F(CApiParity, ChunkBoundsSetThroughCSteerTheSolve) {
    upload(grid_.positions);
    SfContext context = adoptParity();
    ASSERT_TRUE(context);
    const std::vector<SfMeshChunk> chunks = cChunks();
    SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    SfLiveMove live = nullptr;
    info.segmentTolerance = -1.0;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("segmentTolerance"), std::string::npos);
    info.segmentTolerance = 0.0;
    info.chunks = nullptr;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    std::vector<SfMeshChunk> overlapping = chunks;
    overlapping[1].firstVertex = 1;
    info.chunks = overlapping.data();
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("overlap"), std::string::npos) << sfGetLastError(context);
    EXPECT_EQ(live, nullptr);
    info.chunks = chunks.data();
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    ASSERT_EQ(sfLiveMoveGetChunkCount(live), 64u);
    EXPECT_EQ(sfLiveMoveGetChunkCount(nullptr), 0u);

    float boundsMin[3], boundsMax[3];
    ASSERT_EQ(sfLiveMoveGetChunkBounds(live, 5, boundsMin, boundsMax), SF_SUCCESS);
    EXPECT_EQ(std::memcmp(boundsMin, chunks[5].boundsMin, sizeof boundsMin), 0);
    EXPECT_EQ(std::memcmp(boundsMax, chunks[5].boundsMax, sizeof boundsMax), 0);
    EXPECT_EQ(sfLiveMoveGetChunkBounds(live, 64, boundsMin, boundsMax), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("chunk 64 of 64"), std::string::npos)
        << sfLiveMoveGetLastError(live);
    EXPECT_EQ(sfLiveMoveSetChunkBounds(live, 64, boundsMin, boundsMax), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sfLiveMoveSetChunkBounds(live, 0, nullptr, boundsMax), SF_ERROR_INVALID_ARGUMENT);

    const float away[3] = {1e7f, 1e7f, 1e7f}, awayMax[3] = {1e7f + 1.0f, 1e7f + 1.0f, 1e7f + 1.0f};
    for (uint32_t c = 0; c < 64; ++c) ASSERT_EQ(sfLiveMoveSetChunkBounds(live, c, away, awayMax), SF_SUCCESS);
    ASSERT_EQ(sfLiveMoveGetChunkBounds(live, 5, boundsMin, boundsMax), SF_SUCCESS);
    EXPECT_EQ(std::memcmp(boundsMin, away, sizeof away), 0);

    const std::string before = bytes();
    const CApiTools tools(stroke_);
    const SfPose posesA = cApiPose(firstPoses()[0]);
    const SfPose posesB = cApiPose(lastPoses()[0]);
    ASSERT_EQ(sfLiveMoveBegin(live, &tools.info, &posesA, SF_MOVE_MODE_MOVE), SF_SUCCESS);
    ASSERT_EQ(sfLiveMoveUpdate(live, &posesB), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    VkCommandBuffer commands = renderer_->begin();
    SfRecordReport r;
    SF_INIT_STRUCT(&r);
    ASSERT_EQ(sfLiveMoveRecord(live, commands, nullptr, &r), SF_SUCCESS);
    renderer_->submitAndWait();
    EXPECT_EQ(sfLiveMoveSubmitted(live, r.ticket), SF_SUCCESS);
    EXPECT_EQ(r.chunksTotal, 64u);
    EXPECT_EQ(r.chunksSolved, 0u) << "every chunk's box is out of the tools' reach";
    EXPECT_TRUE(bytes() == before) << "a chunk out of reach was written";
    EXPECT_EQ(sfLiveMoveCancel(live), SF_SUCCESS);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// A vkGetDeviceProcAddr that counts the compute pipelines created through it.
PFN_vkGetDeviceProcAddr gParityNextProcAddr = nullptr;
PFN_vkCreateComputePipelines gParityNextCreate = nullptr;
uint32_t gParityPipelines = 0;

VKAPI_ATTR VkResult VKAPI_CALL parityCountingCreate(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                    const VkComputePipelineCreateInfo* infos,
                                                    const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    gParityPipelines += count;
    return gParityNextCreate(device, cache, count, infos, allocator, pipelines);
}

PFN_vkVoidFunction VKAPI_CALL parityCountingProcAddr(VkDevice device, const char* name) {
    PFN_vkVoidFunction forwarded = gParityNextProcAddr(device, name);
    if (std::strcmp(name, "vkCreateComputePipelines") == 0 && forwarded) {
        gParityNextCreate = reinterpret_cast<PFN_vkCreateComputePipelines>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&parityCountingCreate);
    }
    return forwarded;
}

// sfPrewarmLiveMoves builds what C++'s prewarmLiveMoves would (a C++ prewarm after
// it on the same Context builds nothing), and no grab after it creates a pipeline.
TEST_F(CApiParity, PrewarmLeavesTheGrabNothingToBuild) {
    gParityNextProcAddr = vkGetDeviceProcAddr; // volk's, loaded for the renderer's device
    gParityPipelines = 0;
    SfContext context = adoptParity(parityCountingProcAddr);
    ASSERT_TRUE(context);
    Stroke mirrored = stroke_;
    const ToolMotion& tool = motion_.tools[0];
    mirrored.symmetry = {kSymmetryX, (tool.origin + glm::dvec3(0.4 * tool.outerRadius, 0.0, 0.0)) * stroke_.voxelSize};
    const CApiTools plain(stroke_), mirror(mirrored);
    const SfTools sets[2] = {plain.info, mirror.info};
    SfPrewarmInfo prewarm;
    SF_INIT_STRUCT(&prewarm);
    prewarm.toolSetCount = 2;
    prewarm.toolSets = sets;
    uint32_t created = 12345;
    ASSERT_EQ(sfPrewarmLiveMoves(context, &prewarm, &created), SF_SUCCESS) << sfGetLastError(context);
    EXPECT_GT(created, 0u);
    EXPECT_GE(gParityPipelines, created) << "counted at vkCreateComputePipelines";
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &created), SF_SUCCESS);
    EXPECT_EQ(created, 0u) << "a second prewarm has nothing left to build";
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, nullptr), SF_SUCCESS) << "created is optional";
    LiveMoveOptions options;
    options.solver = parityLiveOptions();
    EXPECT_EQ(prewarmLiveMoves(*context->context, std::vector<Stroke>{stroke_, mirrored}, options), 0u)
        << "the C++ prewarm of the same tools found pipelines to build";

    // Grabs with both tool sets, on a fresh live move: no pipeline.
    gParityPipelines = 0;
    upload(grid_.positions);
    const std::vector<SfMeshChunk> chunks = cChunks();
    const SfLiveMoveCreateInfo info = liveInfo(chunks, 0.0);
    SfLiveMove live = nullptr;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    const SfPose posesA = cApiPose(firstPoses()[0]);
    for (const SfTools* tools : {&plain.info, &mirror.info}) {
        ASSERT_EQ(sfLiveMoveBegin(live, tools, &posesA, SF_MOVE_MODE_MOVE), SF_SUCCESS) << sfLiveMoveGetLastError(live);
        EXPECT_EQ(sfLiveMoveCancel(live), SF_SUCCESS);
        VkCommandBuffer commands = renderer_->begin(); // the cancel's frame: nothing solved, nothing to restore
        SfRecordReport r;
        SF_INIT_STRUCT(&r);
        ASSERT_EQ(sfLiveMoveRecord(live, commands, nullptr, &r), SF_SUCCESS);
        renderer_->submitAndWait();
        EXPECT_EQ(sfLiveMoveSubmitted(live, r.ticket), SF_SUCCESS);
    }
    EXPECT_EQ(gParityPipelines, 0u) << "pipelines created by grabs after the prewarm";

    // Bad input: its code, nothing written.
    created = 12345;
    prewarm.toolSets = nullptr;
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &created), SF_ERROR_INVALID_ARGUMENT);
    SfTools badSets[2] = {plain.info, mirror.info};
    SfTool badTool = plain.tools[0];
    badTool.stiffness = -1.0;
    badSets[1].tools = &badTool;
    prewarm.toolSets = badSets;
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &created), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("stiffness"), std::string::npos) << sfGetLastError(context);
    badSets[1] = mirror.info;
    badSets[1].structSize = 4;
    EXPECT_EQ(sfPrewarmLiveMoves(context, &prewarm, &created), SF_ERROR_INVALID_STRUCT_SIZE);
    EXPECT_NE(std::string(sfGetLastError(context)).find("toolSets[1]"), std::string::npos) << sfGetLastError(context);
    EXPECT_EQ(created, 12345u);
    EXPECT_EQ(sfPrewarmLiveMoves(nullptr, &prewarm, &created), SF_ERROR_INVALID_ARGUMENT);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

} // namespace
} // namespace sculptflow
