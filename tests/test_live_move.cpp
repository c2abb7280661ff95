// The renderer's path: adopting a renderer's device and buffers, recording into its
// command buffer (with synchronization validation), the move's lifecycle, normals
// and chunks.
#include <cmath>
#include <cstring>
#include <numbers>

#include <gtest/gtest.h>

#include "src/kernel_tools.hpp"
#include "live_move_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::ChunkedMesh;
using test::Vertex;
using test::chunkGrid;
using test::kMeshOffset;
using test::tipSphere;
using test::triangles;

class LiveMoveTest : public test::LiveMoveFixture {};

TEST_F(LiveMoveTest, RecordedFrameDrawsWhatTheHeadlessPathComputes) {
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    const RecordReport report = frame();
    EXPECT_TRUE(report.recorded);
    EXPECT_EQ(report.chunksSolved, 1u);

    const std::vector<glm::vec3> drawn = renderer_->captured(count_);
    const std::vector<glm::vec3> expected = headless(motion_, sphere.positions);
    const double worst = maxDistance(drawn, expected);
    EXPECT_LE(worst, 0.01) << "voxels between the drawn positions and the headless path";
    EXPECT_GT(maxDistance(drawn, sphere.positions), 10.0) << "the move must visibly move the sphere";
    std::printf("[ renderer ] %u vertices, drawn vs headless max %.2g voxel, GPU %.2f ms\n", count_, worst,
                live_->gpuMilliseconds());
}

// With staged buffers the normals adjacency is device-local, copied in by the
// first record() (the constructor submits nothing): the frame's bytes, positions
// and normals, are the mapped context's exactly.
TEST_F(LiveMoveTest, StagedBuffersDrawTheSameBytesAsMappedOnes) {
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    const std::vector<uint32_t> tris = triangles(sphere);
    std::string drawn[2];
    for (BufferPlacement placement : {BufferPlacement::Mapped, BufferPlacement::Staged}) {
        live_.reset();
        AdoptedDevice adopted = renderer_->adopted();
        adopted.hooks.bufferPlacement = placement;
        context_ = std::make_unique<Context>(adopted);
        ASSERT_EQ(context_->bufferPlacement(), placement);
        upload(sphere.positions);
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
        live_->begin(stroke_, firstPoses());
        ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
        EXPECT_TRUE(frame().recorded);
        drawn[placement == BufferPlacement::Staged] = bytes();
        EXPECT_GT(maxDistance(positions(), sphere.positions), 10.0);
    }
    EXPECT_TRUE(drawn[0] == drawn[1]) << "the staged frame's bytes differ from the mapped one's";
}

// The statistics stream: every solved frame writes each vertex's flags, steps and
// evaluations where the renderer asked, as the headless run counts them.
TEST_F(LiveMoveTest, StatisticsStreamCountsWhatTheHeadlessRunCounts) {
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    test::TestRenderer::Buffer statistics =
        renderer_->createBuffer(16 * VkDeviceSize(count_), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memset(statistics.mapped, 0xFF, statistics.size);
    RendererMesh mesh = rendererMesh(tris);
    mesh.statistics = statistics.buffer;
    live_ = std::make_unique<LiveMove>(*context_, mesh);
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    frame();
    std::vector<VertexStatistics> drawn(count_);
    std::memcpy(drawn.data(), statistics.mapped, 16 * size_t(count_));
    if (!solver_) solver_ = std::make_unique<GpuSolver>(*context_);
    const GpuSolution headless = solveOnGpu(*solver_, motion_, sphere.positions, SolverOptions{});
    const SolveReport live = summarize(drawn);
    EXPECT_EQ(live.vertices, count_);
    EXPECT_EQ(live.nonFinite + live.iterationCap + live.minStepClamped, 0u);
    EXPECT_GT(live.meanEvaluations(), 10.0) << "every vertex of the sphere is integrated";
    EXPECT_NEAR(live.meanEvaluations(), headless.report.meanEvaluations(), 0.01 * headless.report.meanEvaluations());
    size_t sameEvaluations = 0;
    for (uint32_t i = 0; i < count_; ++i) sameEvaluations += drawn[i].evaluations == headless.statistics[i].evaluations;
    EXPECT_GE(sameEvaluations, size_t(0.99 * count_));
}

TEST_F(LiveMoveTest, CancelRestoresTheBytesExactly) {
    const Mesh sphere = tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::string original = bytes();
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    for (size_t k : {3, 7, 12}) {
        ASSERT_TRUE(live_->update(posesAt(k))) << live_->lastError();
        frame();
    }
    ASSERT_NE(differenceFrom(original), "") << "the frames must have changed the buffer";
    live_->cancel();
    const RecordReport report = frame();
    EXPECT_EQ(report.chunksRestored, 1u);
    EXPECT_EQ(differenceFrom(original), "") << "cancel must restore every byte";
    EXPECT_FALSE(frame().recorded) << "nothing is pending after the restore";
}

TEST_F(LiveMoveTest, SecondMoveStartsFromTheCommittedShape) {
    const Mesh sphere = tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses()));
    live_->commit();
    frame(); // the committed move's last frame
    const std::vector<glm::vec3> committed = positions();
    EXPECT_LE(maxDistance(committed, headless(motion_, sphere.positions)), 0.01);

    // The second grab pulls back from where the first one ended.
    Stroke back = stroke_;
    std::reverse(back.tools[0].poses.begin(), back.tools[0].poses.end());
    for (size_t i = 0; i < back.tools[0].poses.size(); ++i) back.tools[0].poses[i].time = 0.01 * double(i);
    live_->begin(back, std::vector<Pose>{back.tools[0].poses.front()});
    ASSERT_TRUE(live_->update(std::vector<Pose>{back.tools[0].poses.back()}));
    frame();
    const double worst = maxDistance(positions(), headless(moveToolMotion(back), committed));
    EXPECT_LE(worst, 0.01) << "voxels from a headless solve of the second move from the committed shape";
    live_->commit();
}

TEST_F(LiveMoveTest, RecomputedNormalsOfASphereAreRadial) {
    const ToolMotion& tool = motion_.tools[0];
    const glm::vec3 center(tool.origin);
    // Far from the tip: the move barely touches it, but one chunk is always solved.
    const Mesh sphere = icosphere(4, center + glm::vec3(0.0f, 0.0f, 40.0f * float(tool.outerRadius)), 20.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(1)));
    frame();
    const glm::vec3 sphereCenter = center + glm::vec3(0.0f, 0.0f, 40.0f * float(tool.outerRadius));
    double worstDegrees = 0.0;
    const std::vector<glm::vec3> p = positions(), n = normals();
    for (uint32_t i = 0; i < count_; ++i) {
        const double cosine = glm::dot(glm::normalize(glm::dvec3(p[i] - sphereCenter)), glm::dvec3(n[i]));
        worstDegrees = std::max(worstDegrees, std::acos(std::min(1.0, cosine)) * 180.0 / std::numbers::pi);
        ASSERT_NEAR(glm::length(n[i]), 1.0f, 1e-5f) << "vertex " << i;
    }
    EXPECT_LT(worstDegrees, 1.0) << "worst angle to the analytic normal";
    std::printf("[ normals  ] %u vertices, worst angle to the analytic normal %.3f°\n", count_, worstDegrees);
}

TEST_F(LiveMoveTest, DeformedNormalsMatchTheDeformedTriangles) {
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses()));
    frame();
    // An independent area-weighted sum over the triangles, in double.
    const std::vector<glm::vec3> p = positions(), n = normals();
    std::vector<glm::dvec3> sum(count_, glm::dvec3(0.0));
    for (size_t t = 0; t < tris.size(); t += 3) {
        const glm::dvec3 a(p[tris[t]]), b(p[tris[t + 1]]), c(p[tris[t + 2]]);
        const glm::dvec3 face = glm::cross(b - a, c - a);
        for (int k = 0; k < 3; ++k) sum[tris[t + k]] += face;
    }
    double worstDegrees = 0.0;
    for (uint32_t i = 0; i < count_; ++i) {
        const double cosine = glm::dot(glm::normalize(sum[i]), glm::dvec3(n[i]));
        worstDegrees = std::max(worstDegrees, std::acos(std::min(1.0, cosine)) * 180.0 / std::numbers::pi);
    }
    EXPECT_LT(worstDegrees, 0.05);
}


TEST_F(LiveMoveTest, OnlyChunksInReachAreSolvedAndLeavingOnesAreRestored) {
    const ToolMotion& tool = motion_.tools[0];
    const ChunkedMesh grid = chunkGrid(tool, 4, 1, 30.0f * float(tool.outerRadius));
    upload(grid.positions);
    const std::string original = bytes();
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(grid.triangles, grid.chunks));
    // A small move: the tip stays near chunk 0.
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(2)));
    const RecordReport near = frame();
    EXPECT_EQ(near.chunksTotal, 64u);
    EXPECT_GE(near.chunksSolved, 1u);
    EXPECT_LE(near.chunksSolved, 4u);
    // Every vertex agrees with a headless solve of the whole mesh, solved or not.
    Move small;
    small.tools.push_back(toolMotion(stroke_.tools[0], firstPoses()[0], posesAt(2)[0], stroke_.voxelSize));
    EXPECT_LE(maxDistance(positions(), headless(small, grid.positions)), 0.01);

    // The whole move: the tool travels ~430 voxels, past other chunks.
    ASSERT_TRUE(live_->update(lastPoses()));
    const RecordReport far = frame();
    EXPECT_LE(maxDistance(positions(), headless(motion_, grid.positions)), 0.01);
    std::printf("[ chunks   ] 64 chunks: %u solved near the grab, %u for the whole move\n", near.chunksSolved,
                far.chunksSolved);
    EXPECT_LT(far.chunksSolved, 64u) << "some chunks must stay out of reach";

    // Back to a still tool: every chunk changed so far is copied back.
    Pose stillPose = firstPoses()[0];
    stillPose.time += 1e-3;
    ASSERT_TRUE(live_->update(std::vector<Pose>{stillPose}));
    const RecordReport still = frame();
    EXPECT_EQ(still.chunksSolved, 0u);
    EXPECT_EQ(still.chunksRestored, far.chunksSolved);
    EXPECT_EQ(differenceFrom(original), "");
    live_->commit();
}

TEST_F(LiveMoveTest, BadMeshesAndCallsAreRefusedByName) {
    upload({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f)});
    RendererMesh mesh = rendererMesh({}, {}, false);
    mesh.positions.stride = 14;
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.positions.stride"}));
    mesh = rendererMesh({}, {}, false);
    mesh.positions.offset = 2;
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.positions.offset"}));
    mesh = rendererMesh({}, {}, true);
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.triangles"}));
    const uint32_t badTriangle[] = {0, 1, 3};
    mesh.triangles = badTriangle;
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"triangles[0]", "out of range"}));
    const MeshChunk overlapping[] = {{0, 2, {}}, {1, 2, {}}};
    mesh = rendererMesh({}, overlapping, false);
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.chunks", "overlap"}));
    const MeshChunk outside[] = {{2, 5, {}}};
    mesh = rendererMesh({}, outside, false);
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.chunks[0]"}));

    live_ = std::make_unique<LiveMove>(*context_, rendererMesh({}, {}, false));
    EXPECT_FALSE(live_->update(lastPoses()));
    EXPECT_NE(live_->lastError().find("begin() first"), std::string::npos) << live_->lastError();
    EXPECT_TRUE(test::failsWith([&] { live_->commit(); }, {"commit", "no move"}));
    Stroke bad = stroke_;
    bad.tools[0].stiffness = -1.0;
    EXPECT_TRUE(test::failsWith([&] { live_->begin(bad, firstPoses()); }, {"stiffness"}));
    live_->begin(stroke_, firstPoses());
    EXPECT_TRUE(test::failsWith([&] { live_->begin(stroke_, firstPoses()); }, {"begin", "commit() or cancel()"}));
    std::vector<Pose> backwards = firstPoses();
    backwards[0].time -= 1.0;
    EXPECT_FALSE(live_->update(backwards));
    EXPECT_NE(live_->lastError().find("time must increase"), std::string::npos) << live_->lastError();
    std::vector<Pose> nan = lastPoses();
    nan[0].position.x = std::nan("");
    EXPECT_FALSE(live_->update(nan));
    live_->cancel();
    EXPECT_FALSE(frame().recorded) << "a cancelled move that recorded nothing has nothing to restore";
}

// Continuous mode, pose by pose as an app feeds it: each frame solves one segment
// in place, from the last frame's output, only in the chunks it reaches; the end
// is the batch continuous solve at the same per-segment tolerance.
TEST_F(LiveMoveTest, ContinuousReplayEndsAtTheBatchContinuousSolve) {
    // A ball on the tool's path and, as its own chunk, one far away: at a segment's
    // tolerance the cull reaches ~45 radii, so the far one is 100 out.
    const ToolMotion& tool = motion_.tools[0];
    ChunkedMesh grid;
    for (float away : {0.0f, 100.0f}) {
        const glm::vec3 centre = glm::vec3(tool.origin) + glm::vec3(away * float(tool.outerRadius), 0.0f, 0.0f);
        const Mesh ball = icosphere(3, centre, float(tool.outerRadius));
        const uint32_t first = uint32_t(grid.positions.size());
        grid.chunks.push_back({first, uint32_t(ball.positions.size()),
                               {centre - glm::vec3(tool.outerRadius), centre + glm::vec3(tool.outerRadius)}});
        for (uint32_t i : ball.faceIndices) grid.triangles.push_back(first + i);
        grid.positions.insert(grid.positions.end(), ball.positions.begin(), ball.positions.end());
    }
    upload(grid.positions);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(grid.triangles, grid.chunks));
    const double segmentTolerance = kDefaultSegmentTolerance;
    live_->begin(stroke_, firstPoses(), MoveMode::Continuous);
    const size_t poseCount = stroke_.tools[0].poses.size();
    uint32_t mostChunks = 0;
    for (size_t k = 1; k < poseCount; ++k) {
        ASSERT_TRUE(live_->update(posesAt(k), segmentTolerance)) << live_->lastError();
        mostChunks = std::max(mostChunks, frame().chunksSolved);
    }
    live_->commit();

    const std::vector<Move> segments = continuousMotions(stroke_);
    SolverOptions options;
    options.tolerance = segmentTolerance * double(segments.size());
    if (!solver_) solver_ = std::make_unique<GpuSolver>(*context_);
    const std::vector<glm::vec3> batch = solveContinuousOnGpu(*solver_, segments, grid.positions, options).positions;
    const double worst = maxDistance(positions(), batch);
    EXPECT_LE(worst, 0.01) << "voxels between the live replay and the batch continuous solve";
    EXPECT_GT(maxDistance(positions(), grid.positions), 100.0) << "the stroke must visibly move the mesh";
    EXPECT_EQ(mostChunks, 1u) << "no segment reaches the far chunk";
    std::printf("[ renderer ] continuous replay of %zu segments: %.2g voxel from the batch solve\n", segments.size(),
                worst);
}

// The renderer's mask buffer: frozen vertices keep their bytes, the rest move by
// m·(x(1) − x0) as the headless path computes, and a repainted mask counts at the
// next frame.
TEST_F(LiveMoveTest, MaskInTheRenderersBufferFreezesAndScales) {
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    upload(sphere.positions);
    std::vector<float> mask(count_);
    const glm::vec3 tip(motion_.tools[0].origin);
    for (uint32_t i = 0; i < count_; ++i) mask[i] = glm::clamp(sphere.positions[i].x - tip.x, 0.0f, 1.0f);
    constexpr VkDeviceSize kMaskOffset = 8;
    test::TestRenderer::Buffer maskBuffer =
        renderer_->createBuffer(kMaskOffset + 8 * VkDeviceSize(count_), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    auto paint = [&](const std::vector<float>& values) {
        auto* slots = reinterpret_cast<float*>(static_cast<char*>(maskBuffer.mapped) + kMaskOffset);
        for (uint32_t i = 0; i < count_; ++i) slots[2 * i] = values[i]; // stride 8: another attribute between
    };
    paint(mask);
    const std::vector<uint32_t> tris = triangles(sphere);
    RendererMesh mesh = rendererMesh(tris);
    mesh.mask = {maskBuffer.buffer, kMaskOffset, 8};
    live_ = std::make_unique<LiveMove>(*context_, mesh);
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    frame();
    const std::vector<glm::vec3> moved = positions();
    if (!solver_) solver_ = std::make_unique<GpuSolver>(*context_);
    const std::vector<glm::vec3> expected = solveOnGpu(*solver_, motion_, sphere.positions, SolverOptions{}, mask).positions;
    size_t frozen = 0;
    for (uint32_t i = 0; i < count_; ++i) {
        if (mask[i] != 0.0f) continue;
        ++frozen;
        EXPECT_EQ(moved[i], sphere.positions[i]) << "vertex " << i;
    }
    EXPECT_GT(frozen, count_ / 3);
    EXPECT_LE(maxDistance(moved, expected), 0.01);

    paint(std::vector<float>(count_, 1.0f)); // the sculptor clears the mask mid-drag
    ASSERT_TRUE(live_->update(lastPoses()));
    frame();
    EXPECT_LE(maxDistance(positions(), headless(motion_, sphere.positions)), 0.01);
    live_->cancel();
    frame();
}

// A stroke with symmetry mirrors the tools every frame, as the headless path does.
TEST_F(LiveMoveTest, SymmetryMirrorsTheToolsEveryFrame) {
    const ToolMotion& tool = motion_.tools[0];
    Stroke mirrored = stroke_;
    mirrored.symmetry = {kSymmetryX, (tool.origin + glm::dvec3(0.4 * tool.outerRadius, 0.0, 0.0)) * stroke_.voxelSize};
    const Mesh sphere = tipSphere(tool, 3, 1.2f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(mirrored, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    frame();
    const Move move = moveToolMotion(mirrored);
    ASSERT_EQ(move.tools.size(), 2u);
    EXPECT_LE(maxDistance(positions(), headless(move, sphere.positions)), 0.01);
    EXPECT_GT(maxDistance(positions(), headless(motion_, sphere.positions)), 1.0) << "the copy must matter";
    live_->commit();
}

// The field shapes (spec §3.6, §3.7) on the renderer's path: an affine flow and a
// mirrored bi-Laplacian Kelvinlet draw what the headless path computes.
TEST_F(LiveMoveTest, FieldShapesDrawWhatTheHeadlessPathComputes) {
    const ToolMotion& tool = motion_.tools[0];
    Stroke flow = stroke_;
    setToolKind(flow.tools[0], ToolKind::AffineFlow);
    flow.tools[0].falloff = Falloff::Smoother;
    Stroke sharp = stroke_;
    sharp.tools[0].profile = KelvinletProfile::BiLaplacian;
    sharp.symmetry = {kSymmetryX, (tool.origin + glm::dvec3(0.4 * tool.outerRadius, 0.0, 0.0)) * stroke_.voxelSize};
    const Mesh sphere = tipSphere(tool, 3, 1.2f);
    const std::vector<uint32_t> tris = triangles(sphere);
    for (const Stroke* shaped : {&flow, &sharp}) {
        upload(sphere.positions);
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
        live_->begin(*shaped, firstPoses());
        ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
        frame();
        const std::vector<glm::vec3> expected = headless(moveToolMotion(*shaped), sphere.positions);
        const char* what = shaped == &flow ? "affine-flow" : "mirrored bi-laplacian";
        EXPECT_LE(maxDistance(positions(), expected), 0.01) << what;
        EXPECT_GT(maxDistance(positions(), sphere.positions), 10.0) << what << ": the move must move the sphere";
        live_->commit();
        frame();
        live_.reset();
    }
}

TEST_F(LiveMoveTest, BadMasksSymmetryAndSegmentTolerancesAreRefusedByName) {
    upload({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f)});
    RendererMesh mesh = rendererMesh({}, {}, false);
    mesh.mask = {vertices_.buffer, 0, 2};
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.mask.stride"}));
    mesh.mask = {vertices_.buffer, 6, 4};
    EXPECT_TRUE(test::failsWith([&] { LiveMove(*context_, mesh); }, {"mesh.mask.offset"}));

    live_ = std::make_unique<LiveMove>(*context_, rendererMesh({}, {}, false));
    Stroke three = stroke_;
    three.tools.resize(3, stroke_.tools[0]);
    three.symmetry.axes = kSymmetryX | kSymmetryY | kSymmetryZ;
    const std::vector<Pose> threePoses(3, firstPoses()[0]);
    EXPECT_TRUE(test::failsWith([&] { live_->begin(three, threePoses); }, {"24 with the mirrored copies", "16"}));
    EXPECT_FALSE(live_->moving());

    live_->begin(stroke_, firstPoses(), MoveMode::Continuous);
    EXPECT_FALSE(live_->update(posesAt(1), 0.0));
    EXPECT_NE(live_->lastError().find("segmentTolerance"), std::string::npos) << live_->lastError();
    EXPECT_TRUE(live_->update(posesAt(1)));
    live_->cancel();
    frame();
}

} // namespace
} // namespace sculptflow
