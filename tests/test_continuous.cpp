// Continuous mode (spec §2): a stroke applied segment by segment, each from the
// last one's output at tol/(N−1), against an independent double reference that
// chains the segments the same way, on the CPU reference and the GPU.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "gpu_fixture.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

// Shells around the tip at pose A, 0.1 to 1.5 outer radii: the vertices that move
// most, least and along the most twisted paths.
std::vector<glm::vec3> shellsAroundStart(const std::vector<Move>& segments) {
    return test::spheresAroundTip(segments.front().tools.front(), {0.1f, 0.3f, 0.6f, 1.0f, 1.5f}, 2);
}

// The reference: each segment's double ground truth from the last one's double
// output. With a mask, x0 + m·(x − x0) per segment.
std::vector<glm::dvec3> chainedReference(std::span<const Move> segments, std::span<const glm::vec3> start,
                                         std::span<const float> mask = {}) {
    std::vector<glm::dvec3> x(start.begin(), start.end());
    for (const Move& segment : segments) {
        const GroundTruth truth = groundTruth(segment, x);
        for (size_t i = 0; i < x.size(); ++i) {
            EXPECT_TRUE(truth.converged[i]) << "ground truth did not converge at vertex " << i;
            const double m = mask.empty() ? 1.0 : double(mask[i]);
            x[i] += m * (truth.positions[i] - x[i]);
        }
    }
    return x;
}

// Worst distance over the vertices no segment flagged (culled ones included).
double maxUnflaggedError(const std::vector<glm::vec3>& positions, std::span<const VertexStatistics> statistics,
                         const std::vector<glm::dvec3>& reference, size_t& flagged) {
    double worst = 0.0;
    flagged = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
        if (statistics[i].flags & ~kernel::kFlagCulled) {
            ++flagged;
            continue;
        }
        worst = std::max(worst, glm::length(glm::dvec3(positions[i]) - reference[i]));
    }
    return worst;
}

class ContinuousRecording : public test::GpuTest, public testing::WithParamInterface<std::string> {};

// Every recording, as a Kelvinlet and as an affine tool, each adaptive method,
// CPU and GPU: within the stroke's tolerance of the chained reference.
TEST_P(ContinuousRecording, CpuAndGpuWithinToleranceOfTheChainedReference) {
    SF_REQUIRE_RECORDING(path, GetParam());
    for (ToolKind kind : {ToolKind::Kelvinlet, ToolKind::Affine}) {
        const Stroke stroke = test::withKind(readStroke(path), kind);
        const std::vector<Move> segments = continuousMotions(stroke);
        const std::vector<glm::vec3> start = shellsAroundStart(segments);
        const std::vector<glm::dvec3> reference = chainedReference(segments, start);
        for (Method method : allMethods(true)) {
            SolverOptions options;
            options.method = method;
            options.tolerance = 0.1;
            const CpuSolution cpu = solveContinuousOnCpu(segments, start, {}, options);
            const GpuSolution gpu = solveContinuousOnGpu(solver(), segments, start, options);
            ASSERT_EQ(cpu.segments.size(), segments.size());
            ASSERT_EQ(gpu.segments.size(), segments.size());
            size_t cpuFlagged = 0, gpuFlagged = 0;
            const double cpuError = maxUnflaggedError(cpu.positions, cpu.statistics, reference, cpuFlagged);
            const double gpuError = maxUnflaggedError(gpu.positions, gpu.statistics, reference, gpuFlagged);
            const std::string what = GetParam() + (kind == ToolKind::Affine ? " affine " : " kelvinlet ") +
                                     std::string(methodName(method));
            EXPECT_LE(cpuError, options.tolerance) << what << " (CPU)";
            EXPECT_LE(gpuError, options.tolerance) << what << " (GPU)";
            EXPECT_LE(cpuFlagged, start.size() / 100) << what;
            EXPECT_LE(gpuFlagged, start.size() / 100) << what;
            // The GPU rounds differently (fused multiply-adds), so a step may go the other way.
            EXPECT_NEAR(double(gpu.report.evaluations), double(cpu.report.evaluations),
                        0.01 * double(cpu.report.evaluations))
                << what;
            std::printf("[ continuous ] %s: %zu segments, max error CPU %.3g GPU %.3g voxel, %.1f evaluations "
                        "a vertex over the stroke\n",
                        what.c_str(), segments.size(), cpuError, gpuError, cpu.report.meanEvaluations());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Recordings, ContinuousRecording,
                         testing::Values("test0_righthandstroke.bin", "test1_lefthandstroke.bin",
                                         "test1_righthandstroke.bin"),
                         [](const testing::TestParamInfo<std::string>& param) {
                             return param.param.substr(0, param.param.find('.'));
                         });

using ContinuousMode = test::GpuTest;

// The segments really do chain: the first segment alone is the move of poses 0 → 1,
// and the stroke's reports add up.
TEST_F(ContinuousMode, SegmentsChainAndTheirReportsAddUp) {
    const Stroke stroke = defaultStroke();
    const std::vector<Move> segments = continuousMotions(stroke);
    ASSERT_GE(segments.size(), 2u);
    const std::vector<glm::vec3> start = shellsAroundStart(segments);
    SolverOptions options;
    const CpuSolution whole = solveContinuousOnCpu(segments, start, {}, options);

    const SolverOptions perSegment = segmentOptions(options, segments.size());
    EXPECT_DOUBLE_EQ(perSegment.tolerance, options.tolerance / double(segments.size()));
    std::vector<glm::vec3> chained = start;
    uint64_t evaluations = 0;
    for (size_t k = 0; k < segments.size(); ++k) {
        const CpuSolution step = solveOnCpu(segments[k], chained, perSegment);
        EXPECT_EQ(step.report.evaluations, whole.segments[k].evaluations) << "segment " << k;
        evaluations += step.report.evaluations;
        chained = step.positions;
    }
    EXPECT_EQ(chained, whole.positions) << "the segments in turn, bit for bit";
    EXPECT_EQ(whole.report.evaluations, evaluations);
    EXPECT_EQ(whole.report.vertices, start.size());

    // The GPU's statistics are summed per vertex over the segments too.
    GpuMesh mesh(context(), start);
    const GpuRun run = solver().runContinuous(mesh, segments, options);
    const std::vector<VertexStatistics> statistics = mesh.readStatistics();
    uint64_t summed = 0;
    for (const VertexStatistics& s : statistics) summed += s.evaluations;
    EXPECT_EQ(summed, run.report.evaluations);
    EXPECT_EQ(run.report.evaluations, whole.report.evaluations);
}

// A continuous run then a move-tool run on one mesh: the second starts from the
// undeformed input again, with or without statistics.
TEST_F(ContinuousMode, AMoveAfterAContinuousRunStartsFromTheInput) {
    const Stroke stroke = defaultStroke();
    const std::vector<Move> segments = continuousMotions(stroke);
    const std::vector<glm::vec3> start = shellsAroundStart(segments);
    const SolverOptions options;
    GpuMesh mesh(context(), start);
    solver().runContinuous(mesh, segments, options, false);
    solver().run(mesh, segments.front(), options, false);
    GpuMesh fresh(context(), start);
    solver().run(fresh, segments.front(), options, false);
    EXPECT_EQ(mesh.readPositions(), fresh.readPositions());
}

TEST_F(ContinuousMode, BadStrokesAreRefusedByName) {
    Stroke one = defaultStroke();
    one.tools[0].poses.resize(1);
    EXPECT_TRUE(test::failsWith([&] { continuousMotions(one); }, {"1 poses", "at least 2"}));

    Stroke backwards = defaultStroke();
    backwards.tools[0].poses[2].time = backwards.tools[0].poses[1].time;
    EXPECT_TRUE(test::failsWith([&] { continuousMotions(backwards); }, {"poses 1 → 2", "time must increase"}));

    Stroke uneven = defaultStroke();
    uneven.tools.push_back(uneven.tools[0]);
    uneven.tools[1].poses.pop_back();
    EXPECT_TRUE(test::failsWith([&] { continuousMotions(uneven); }, {"same number of poses"}));
}

} // namespace
} // namespace sculptflow
