// The GPU solver on lavapipe (or any Vulkan device) against the CPU reference,
// the ground truth, hostile fields and bad input; validation layers on throughout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/demo_fixtures.hpp"
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "host/gpu_solver_impl.hpp"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

class GpuSolverTest : public test::GpuTest {};

// Random points in a ball of twice the tool's radius around its tip.
std::vector<glm::vec3> randomBall(const ToolMotion& tool, size_t count, unsigned seed) {
    return ballAroundTip(tool, count, 2.0f, seed);
}

// GPU and CPU run the same source, but their compilers round differently (FMA
// contraction, inversesqrt), so a near-threshold accept/reject can go the other
// way and the paths part by up to the tolerance. dp45 and rk4dbl also take their
// step limit per vertex from rounded values at every attempt (stepLimit), so
// their steps differ a little all along: 0.12% of test0's vertices part by more
// than 0.01 voxel (at most 0.027). Whether a vertex is solved a second time (its
// error bound against tol) is such a threshold too, and the second pass ends
// elsewhere within tol: so one vertex may part, however few are compared.
// A bug parts most of them, and by far more.
// Flags must agree exactly, but for CULLED on the cull bound itself: a vertex on
// the truncated affine's outer radius (the sphere at 1.0 radii) is culled on one
// side and solved on the other by a rounding (13 of 3,210 on an H200), and must
// then land within the cull bound (tol/10) of where the culled one stays.
void expectAgreesWithCpu(GpuSolver& solver, const std::string& name, const Move& move,
                         const std::vector<glm::vec3>& start, Method method) {
    const SolverOptions options = SolverOptions{.method = method};
    GpuSolution gpu = solveOnGpu(solver, move, start, options);
    CpuSolution cpu = solveOnCpu(move, start, options);
    size_t compared = 0, within = 0, flagMismatches = 0, cullBoundary = 0;
    double maxDiff = 0.0, maxBoundaryDiff = 0.0;
    for (size_t i = 0; i < start.size(); ++i) {
        const uint32_t differ = gpu.statistics[i].flags ^ cpu.statistics[i].flags;
        if (differ & ~kernel::kFlagCulled) ++flagMismatches;
        else if (differ) ++cullBoundary;
        if ((gpu.statistics[i].flags | cpu.statistics[i].flags) & ~kernel::kFlagCulled) continue;
        double diff = glm::length(glm::dvec3(gpu.positions[i]) - glm::dvec3(cpu.positions[i]));
        if (differ) maxBoundaryDiff = std::max(maxBoundaryDiff, diff);
        maxDiff = std::max(maxDiff, diff);
        within += diff <= 0.01;
        ++compared;
    }
    double rate = compared ? double(within) / double(compared) : 1.0;
    std::printf("  %-34s %-7s %7zu vertices: %.4f%% within 0.01 voxel, max %.4f, flag mismatches %zu, "
                "culled on one side only %zu, evaluations %.1f (gpu) %.1f (cpu)\n",
                name.c_str(), std::string(methodName(method)).c_str(), start.size(), 100.0 * rate, maxDiff,
                flagMismatches, cullBoundary, gpu.report.meanEvaluations(), cpu.report.meanEvaluations());
    EXPECT_LE(compared - within, std::max<size_t>(1, compared / 200)) << name << " " << methodName(method) << ": "
                                                                      << 100.0 * rate << "% within 0.01 voxel";
    EXPECT_LE(maxDiff, 0.1) << name << " " << methodName(method);
    EXPECT_EQ(flagMismatches, 0u) << name << " " << methodName(method);
    // The spec's cull bound: a culled vertex would move less than tol/10.
    EXPECT_LE(maxBoundaryDiff, 0.1 * options.tolerance) << name << " " << methodName(method);
}

class GpuRecordedStroke : public test::GpuTest, public testing::WithParamInterface<const char*> {};

TEST_P(GpuRecordedStroke, MatchesCpuReferenceForEveryMethod) {
    SF_REQUIRE_RECORDING(path, GetParam());
    for (ToolKind kind : {ToolKind::Kelvinlet, ToolKind::Affine}) {
        Move move = moveToolMotion(test::withKind(readStroke(path), kind));
        std::vector<glm::vec3> start = test::spheresAroundTip(move.tools[0], {0.1f, 0.3f, 0.6f, 1.0f, 1.5f});
        std::string name = std::string(GetParam()) + (kind == ToolKind::Affine ? " affine" : " kelvinlet");
        for (Method method : allMethods()) expectAgreesWithCpu(solver(), name, move, start, method);
    }
}

INSTANTIATE_TEST_SUITE_P(Recordings, GpuRecordedStroke,
                         testing::Values("test0_righthandstroke.bin", "test1_lefthandstroke.bin",
                                         "test1_righthandstroke.bin"),
                         [](const testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             return name.substr(0, name.find('.'));
                         });

TEST_F(GpuSolverTest, MatchesCpuReferenceOnRandomMeshesOfAnySize) {
    Move move = moveToolMotion(defaultStroke());
    // Counts around the workgroup size (64) and up to 300k vertices.
    for (size_t count : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(4097)}) {
        std::vector<glm::vec3> start = randomBall(move.tools[0], count, unsigned(count));
        for (Method method : allMethods())
            expectAgreesWithCpu(solver(), "random " + std::to_string(count), move, start, method);
    }
    std::vector<glm::vec3> large = randomBall(move.tools[0], 300000, 7);
    expectAgreesWithCpu(solver(), "random 300000", move, large, Method::Bs32);
}

TEST_F(GpuSolverTest, WithinToleranceOfGroundTruth) {
    auto recording = test::recordedStroke("test0_righthandstroke.bin");
    Stroke stroke = recording ? readStroke(*recording) : defaultStroke();
    for (ToolKind kind : {ToolKind::Kelvinlet, ToolKind::Affine}) {
        Move move = moveToolMotion(test::withKind(stroke, kind));
        std::vector<glm::vec3> start = test::spheresAroundTip(move.tools[0], {0.1f, 0.3f, 0.6f, 1.0f, 1.5f});
        GroundTruth truth = groundTruth(move, start);
        for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
            GpuSolution gpu = solveOnGpu(solver(), move, start, SolverOptions{.method = method});
            double maxError = 0.0;
            for (size_t i = 0; i < start.size(); ++i) {
                if (gpu.statistics[i].flags & ~kernel::kFlagCulled) continue;
                maxError = std::max(maxError, glm::length(glm::dvec3(gpu.positions[i]) - truth.positions[i]));
            }
            std::printf("  %s %s %s: max error %.4f voxel, %zu flagged\n", recording ? "test0" : "built-in",
                        kind == ToolKind::Affine ? "affine" : "kelvinlet", std::string(methodName(method)).c_str(),
                        maxError, gpu.report.minStepClamped + gpu.report.iterationCap + gpu.report.nonFinite);
            EXPECT_LE(maxError, 0.1) << methodName(method);
        }
    }
}

TEST_F(GpuSolverTest, HostileFieldFinishesWithinItsBound) {
    Move hostile{{test::kelvinletMotion(0.05, {1e6, -3e5, 2e5}, {0.0, 3.1, 0.0}, 2.0)}};
    Move ordinary = moveToolMotion(defaultStroke());
    std::vector<glm::vec3> start = randomBall(hostile.tools[0], 4096, 3);
    std::vector<glm::vec3> ordinaryStart = randomBall(ordinary.tools[0], 4096, 3);
    for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
        SolverOptions options = SolverOptions{.method = method};
        options.tolerance = 1e-9;
        options.maxIterations = 40;
        GpuSolution gpu = solveOnGpu(solver(), hostile, start, options);
        const long bound = worstCaseEvaluations(options);
        EXPECT_LE(long(gpu.report.maxEvaluations), bound) << methodName(method);
        for (const VertexStatistics& st : gpu.statistics)
            ASSERT_NE(st.flags & (kernel::kFlagIterationCap | kernel::kFlagMinStepClamped), 0u);

        // Time per vertex against an ordinary move's time per evaluation: the
        // bound predicts at most `bound` evaluations' worth. Timing is noisy on a
        // shared CPU (other tests run beside this one), so the fastest of three
        // hostile runs meets the slowest of three ordinary ones, and only a 4×
        // breach fails.
        SolverOptions ordinaryOptions = SolverOptions{.method = method};
        ordinaryOptions.maxIterations = 40;
        double hostileMs = gpu.gpuMilliseconds;
        double perEvaluation = 0.0;
        for (int repeat = 0; repeat < 3; ++repeat) {
            GpuSolution reference = solveOnGpu(solver(), ordinary, ordinaryStart, ordinaryOptions);
            perEvaluation = std::max(perEvaluation, reference.gpuMilliseconds / double(reference.report.evaluations));
            hostileMs = std::min(hostileMs, solveOnGpu(solver(), hostile, start, options).gpuMilliseconds);
        }
        double predicted = perEvaluation * double(bound) * double(start.size());
        std::printf("  hostile %s: %.1f ms on the GPU, %.1f ms predicted by the bound (%ld evaluations)\n",
                    std::string(methodName(method)).c_str(), hostileMs, predicted, bound);
        if (std::isfinite(hostileMs)) {
            EXPECT_LE(hostileMs, 4.0 * predicted) << methodName(method);
        }
    }
}

TEST_F(GpuSolverTest, NonFiniteVerticesComeBackUnchangedAndFlagged) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    Move move = moveToolMotion(defaultStroke());
    std::vector<glm::vec3> start = randomBall(move.tools[0], 100, 5);
    start[3] = {nan, 1.0f, 2.0f};
    start[50] = {3.0f, -inf, 4.0f};
    start[99] = {inf, inf, inf};
    for (Method method : allMethods()) {
        GpuSolution gpu = solveOnGpu(solver(), move, start, SolverOptions{.method = method});
        for (size_t i : {size_t(3), size_t(50), size_t(99)}) {
            EXPECT_EQ(gpu.statistics[i].flags, kernel::kFlagNonFinite);
            for (int c = 0; c < 3; ++c) {
                if (std::isnan(start[i][c])) {
                    EXPECT_TRUE(std::isnan(gpu.positions[i][c]));
                } else {
                    EXPECT_EQ(gpu.positions[i][c], start[i][c]);
                }
            }
        }
        EXPECT_EQ(gpu.report.nonFinite, 3u);
    }
}

TEST_F(GpuSolverTest, BadParametersAreRefusedBeforeDispatch) {
    Move move = moveToolMotion(defaultStroke());
    std::vector<glm::vec3> start = randomBall(move.tools[0], 256, 9);
    GpuMesh mesh(context(), start);
    auto refused = [&](const Move& m, const SolverOptions& o, std::vector<std::string_view> parts) {
        EXPECT_TRUE(test::failsWith([&] { solver().run(mesh, m, o); }, parts));
        EXPECT_EQ(mesh.readPositions(), start) << "the output changed"; // nothing was dispatched
    };
    SolverOptions options;
    options.tolerance = 0.0;
    refused(move, options, {"tolerance"});
    options.tolerance = -1.0;
    refused(move, options, {"tolerance"});
    Move bad = move;
    bad.tools[0].outerRadius = 0.0;
    refused(bad, SolverOptions{}, {"outerRadius"});
    bad = move;
    bad.tools[0].stiffness = -1.0;
    refused(bad, SolverOptions{}, {"stiffness"});
    bad = move;
    bad.tools[0].compressibility = 0.7;
    refused(bad, SolverOptions{}, {"compressibility"});
    bad = move;
    bad.tools[0].translation.x = std::nan("");
    refused(bad, SolverOptions{}, {"translation"});

    // Pose-level mistakes are refused when the move is made, before any GPU work.
    Stroke stroke = defaultStroke();
    stroke.tools[0].poses.back().time = stroke.tools[0].poses.front().time;
    EXPECT_TRUE(test::failsWith([&] { moveToolMotion(stroke); }, {"time"}));
    stroke = defaultStroke();
    stroke.tools[0].poses.back().orientation = glm::dquat(0.0, 0.0, 0.0, 0.0);
    EXPECT_TRUE(test::failsWith([&] { moveToolMotion(stroke); }, {"orientation"}));
    stroke = defaultStroke();
    stroke.voxelSize = 0.0;
    EXPECT_TRUE(test::failsWith([&] { moveToolMotion(stroke); }, {"voxel size"}));
}

TEST_F(GpuSolverTest, WithoutStatisticsTheSamePositions) {
    Move move = moveToolMotion(defaultStroke());
    std::vector<glm::vec3> start = randomBall(move.tools[0], 1000, 11);
    GpuMesh mesh(context(), start);
    solver().run(mesh, move, SolverOptions{}, true);
    std::vector<glm::vec3> withStatistics = mesh.readPositions();
    GpuRun run = solver().run(mesh, move, SolverOptions{}, false);
    std::vector<glm::vec3> without = mesh.readPositions();
    EXPECT_EQ(run.report.vertices, 0u); // nothing read back
    for (size_t i = 0; i < start.size(); ++i)
        EXPECT_LE(glm::length(without[i] - withStatistics[i]), 0.1f) << "vertex " << i;
}

// Issue 8: the default path culls and compacts first. A mesh with 5% of its
// vertices in reach, scattered among the culled ones: culled vertices come back
// exactly as the input, flagged CULLED with no work; the others as the CPU
// reference and as the uncompacted path (one pass, culling in the solver).
TEST_F(GpuSolverTest, CompactedPathCullsExactlyAndMatchesTheUncompactedOne) {
    const Move move = moveToolMotion(defaultStroke());
    const ToolMotion& tool = move.tools[0];
    const std::vector<glm::vec3> active = randomBall(tool, 1000, 21);
    std::vector<glm::vec3> far;
    for (const glm::vec3& p : ballAroundTip(tool, 60000, 600.0f, 22))
        if (glm::length(glm::dvec3(p) - tool.origin) > 200.0 * tool.outerRadius && far.size() < 19000) far.push_back(p);
    ASSERT_EQ(far.size(), 19000u);
    std::vector<glm::vec3> start;
    std::mt19937 random(23);
    for (size_t a = 0, f = 0; a < active.size() || f < far.size();) {
        const bool takeActive = f == far.size() || (a < active.size() && random() % 20 == 0);
        start.push_back(takeActive ? active[a++] : far[f++]);
    }

    ASSERT_TRUE(solver().compaction()) << "the compacted path is the default";
    const SolverOptions options;
    GpuSolution gpu = solveOnGpu(solver(), move, start, options);
    CpuSolution cpu = solveOnCpu(move, start, options);
    size_t culled = 0, flagMismatches = 0, within = 0, solved = 0;
    for (size_t i = 0; i < start.size(); ++i) {
        flagMismatches += gpu.statistics[i].flags != cpu.statistics[i].flags;
        if (gpu.statistics[i].flags == kernel::kFlagCulled) {
            ++culled;
            EXPECT_EQ(std::memcmp(&gpu.positions[i], &start[i], sizeof(glm::vec3)), 0) << "culled vertex " << i;
            EXPECT_EQ(gpu.statistics[i].evaluations, 0u) << "culled vertex " << i;
            EXPECT_EQ(gpu.statistics[i].acceptedSteps + gpu.statistics[i].rejectedSteps, 0u) << "vertex " << i;
        } else {
            ++solved;
            within += glm::length(gpu.positions[i] - cpu.positions[i]) <= 0.01f;
        }
    }
    EXPECT_EQ(flagMismatches, 0u);
    EXPECT_GE(culled, far.size()) << "every far vertex is out of reach";
    EXPECT_GE(solved, active.size() * 9 / 10) << "the ball is in reach";
    EXPECT_GE(double(within), 0.999 * double(solved));

    // The same shader code integrates the list: the same positions, bit for bit.
    GpuMesh mesh(context(), start);
    solver().setCompaction(false);
    solver().run(mesh, move, options, true);
    solver().setCompaction(true);
    const std::vector<glm::vec3> uncompacted = mesh.readPositions();
    const std::vector<VertexStatistics> uncompactedStatistics = mesh.readStatistics();
    size_t differ = 0;
    for (size_t i = 0; i < start.size(); ++i) {
        differ += std::memcmp(&uncompacted[i], &gpu.positions[i], sizeof(glm::vec3)) != 0;
        EXPECT_EQ(uncompactedStatistics[i].flags, gpu.statistics[i].flags) << "vertex " << i;
        EXPECT_EQ(uncompactedStatistics[i].evaluations, gpu.statistics[i].evaluations) << "vertex " << i;
    }
    EXPECT_EQ(differ, 0u);
    // Without statistics, and a second run on the same scratch: the same again.
    solver().run(mesh, move, options, false);
    solver().run(mesh, move, options, false);
    EXPECT_EQ(mesh.readPositions(), gpu.positions);
}

// Only the solve pass reads the method and verify, and the range's and the list's
// solves share its pipeline: so a solver that runs several methods, checked or
// not, builds one pipeline for each, and the other passes once; a tolerance or
// an attempt budget builds none.
TEST_F(GpuSolverTest, OnlyTheSolveIsBuiltPerMethodAndVerify) {
    const Move move = moveToolMotion(defaultStroke());
    GpuMesh mesh(context(), ballAroundTip(move.tools[0], 2000, 600.0f, 31)); // mostly out of reach
    GpuSolver own(context()); // the suite's solver has built pipelines already
    const DeformPipelines& pipelines = implOf(own).pipelines;
    own.run(mesh, move, SolverOptions{.method = Method::Bs32}, true);
    const size_t first = pipelines.builtCount();
    EXPECT_GE(first, 4u) << "compacted: the solve, mark, scan and scatter or blocks";
    own.run(mesh, move, SolverOptions{.method = Method::Dp45}, true);
    EXPECT_EQ(pipelines.builtCount(), first + 1);
    own.run(mesh, move, SolverOptions{.method = Method::Dp45, .verify = true}, true);
    EXPECT_EQ(pipelines.builtCount(), first + 2);
    // Runs that need nothing new build nothing: the build counter stands still.
    const size_t builds = pipelines.buildCount();
    EXPECT_EQ(builds, first + 2);
    own.run(mesh, move, SolverOptions{.method = Method::Bs32}, true);
    own.run(mesh, move, SolverOptions{.method = Method::Dp45}, true);
    // Nor do the tolerance and the attempt budget, which are push constants.
    own.run(mesh, move, SolverOptions{.method = Method::Dp45, .tolerance = 0.01, .maxIterations = 203}, true);
    EXPECT_EQ(pipelines.buildCount(), builds);
}

// Without statistics the compacted path leaves culled vertices unwritten and
// restores, before solving, the vertices the mesh's last run solved. Two moves
// whose reaches do not overlap, one after the other on one mesh, must give
// what the second gives alone; so must a run after an uncompacted one.
TEST_F(GpuSolverTest, RunsOnOneMeshRestoreWhatTheLastRunMoved) {
    const Move first = moveToolMotion(defaultStroke());
    Move second = first;
    second.tools[0].origin += glm::dvec3(400.0 * first.tools[0].outerRadius, 0.0, 0.0);
    std::vector<glm::vec3> start = randomBall(first.tools[0], 3000, 31);
    for (const glm::vec3& p : randomBall(second.tools[0], 3000, 32)) start.push_back(p);
    std::mt19937 random(33); // interleave the two balls
    std::shuffle(start.begin(), start.end(), random);
    const SolverOptions options;

    GpuMesh alone(context(), start);
    solver().run(alone, second, options, false);
    const std::vector<glm::vec3> expected = alone.readPositions();
    size_t firstBallKept = 0, secondBallMoved = 0;
    for (size_t i = 0; i < start.size(); ++i) {
        const bool unchanged = std::memcmp(&expected[i], &start[i], sizeof(glm::vec3)) == 0;
        if (glm::distance(glm::dvec3(start[i]), first.tools[0].origin) <
            glm::distance(glm::dvec3(start[i]), second.tools[0].origin))
            firstBallKept += unchanged;
        else
            secondBallMoved += !unchanged;
    }
    ASSERT_EQ(firstBallKept, 3000u) << "the second move culls the first ball";
    ASSERT_GE(secondBallMoved, 2900u) << "the second move moves its own ball";

    GpuMesh mesh(context(), start);
    solver().run(mesh, first, options, false);
    const std::vector<glm::vec3> afterFirst = mesh.readPositions();
    size_t firstMoved = 0;
    for (size_t i = 0; i < start.size(); ++i)
        firstMoved += std::memcmp(&afterFirst[i], &start[i], sizeof(glm::vec3)) != 0;
    ASSERT_GE(firstMoved, 2900u);
    solver().run(mesh, second, options, false);
    EXPECT_EQ(mesh.readPositions(), expected) << "after a compacted run";

    solver().setCompaction(false);
    solver().run(mesh, first, options, false);
    solver().setCompaction(true);
    solver().run(mesh, second, options, false);
    EXPECT_EQ(mesh.readPositions(), expected) << "after an uncompacted run";
}

// What the README promises a GpuMesh holds: input and output (12 bytes a vertex
// each), the blocks and the compaction list (8 together), statistics (16) only
// once a run asks for them; allocations are rounded up, hence the slack.
TEST_F(GpuSolverTest, MeshMemoryIsWhatTheReadmeSays) {
    const Move move = moveToolMotion(defaultStroke());
    const size_t count = 200'000;
    const std::vector<glm::vec3> start = randomBall(move.tools[0], count, 41);
    const uint64_t before = context().allocatedMemory();
    const uint64_t slack = 64 * 1024;
    {
        GpuMesh mesh(context(), start);
        const uint64_t held = context().allocatedMemory() - before;
        EXPECT_GE(held, 32 * count);
        EXPECT_LE(held, 32 * count + slack);
        solver().run(mesh, move, SolverOptions{}, false);
        EXPECT_EQ(context().allocatedMemory() - before, held) << "a run without statistics allocates nothing";
        solver().run(mesh, move, SolverOptions{}, true);
        EXPECT_LE(context().allocatedMemory() - before, held + 16 * count + slack);
    }
    EXPECT_EQ(context().allocatedMemory(), before) << "a mesh gives back all it held";
}

} // namespace
} // namespace sculptflow
