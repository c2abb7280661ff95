// Volume change per vertex (a debug output): J = det(∂x/∂x0) of the end map,
// integrated along each path, against central differences of the double
// reference's end map; FOLDED where the truncated affine folds and never for the
// affine flow; refused for a move it cannot handle; continuous mode's product.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using VolumeChange = test::GpuTest;

// Points on an n³ grid over the tool's outer ball at its start.
std::vector<glm::vec3> gridAround(const ToolMotion& tool, int n, double extent = 1.0) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k)
                points.push_back(glm::vec3(tool.origin + (glm::dvec3(i, j, k) / double(n - 1) * 2.0 - 1.0) *
                                                             extent * tool.outerRadius));
    return points;
}

// det(∂x/∂x0) of the double reference's end map by central differences of step h.
std::vector<double> finiteDifferenceVolumeChange(const Move& move, const std::vector<glm::vec3>& points, double h) {
    std::vector<glm::vec3> probes;
    for (const glm::vec3& p : points)
        for (int axis = 0; axis < 3; ++axis)
            for (double sign : {-1.0, 1.0}) {
                glm::vec3 q = p;
                q[axis] += float(sign * h);
                probes.push_back(q);
            }
    const GroundTruth truth = groundTruth(move, probes);
    std::vector<double> det(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        glm::dmat3 jacobian;
        for (int axis = 0; axis < 3; ++axis) {
            const size_t lo = 6 * i + 2 * axis;
            const double spacing = double(probes[lo + 1][axis]) - double(probes[lo][axis]);
            jacobian[axis] = (truth.positions[lo + 1] - truth.positions[lo]) / spacing;
        }
        det[i] = glm::determinant(jacobian);
    }
    return det;
}

struct Comparison {
    double worst = 0.0; // |J − J_fd| / max(|J_fd|, 0.1)
    size_t compared = 0;
};

Comparison compare(const std::vector<float>& solved, const std::vector<double>& reference,
                   const std::vector<VertexStatistics>& statistics) {
    Comparison c;
    for (size_t i = 0; i < solved.size(); ++i) {
        if (statistics[i].flags & kVertexCulled) {
            EXPECT_EQ(solved[i], 1.0f) << "a culled vertex does not move";
            continue;
        }
        c.worst = std::max(c.worst, std::abs(double(solved[i]) - reference[i]) / std::max(std::abs(reference[i]), 0.1));
        ++c.compared;
    }
    return c;
}

// The affine flow's end map is steep in its falloff shell (J from 0.017 to 4.6 on
// test0): differences of 1 and 0.25 voxel were 36% and 3.4% off; 0.05, 0.02 and 0.01
// agree with each other.
constexpr double kDifferenceStep = 0.05;

// Kelvinlet profiles (compressible: ν = 0), the affine flow and the truncated affine
// on test0's stroke (or the built-in one), CPU and GPU, within 2% of the differences.
TEST_F(VolumeChange, MatchesFiniteDifferencesOfTheEndMap) {
    const auto recorded = test::recordedStroke("test0_righthandstroke.bin");
    const Stroke base = recorded ? readStroke(*recorded) : defaultStroke();
    struct Case {
        ToolKind kind;
        KelvinletProfile profile;
        Falloff falloff;
    };
    const Case cases[] = {{ToolKind::Kelvinlet, KelvinletProfile::BiScale, Falloff::Smooth},
                          {ToolKind::Kelvinlet, KelvinletProfile::BiLaplacian, Falloff::Smooth},
                          {ToolKind::AffineFlow, KelvinletProfile::BiScale, Falloff::Smooth},
                          {ToolKind::AffineFlow, KelvinletProfile::BiScale, Falloff::Smoother},
                          {ToolKind::Affine, KelvinletProfile::BiScale, Falloff::Smooth}};
    for (const Case& c : cases) {
        // Under the sanitizers one case of each kind (test_support.hpp, kSanitized).
        if (test::kSanitized && (c.profile != KelvinletProfile::BiScale || c.falloff != Falloff::Smooth)) continue;
        Stroke stroke = base;
        setToolKind(stroke.tools[0], c.kind);
        stroke.tools[0].profile = c.profile;
        stroke.tools[0].falloff = c.falloff;
        stroke.tools[0].compressibility = 0.0;
        const Move move = moveToolMotion(stroke);
        const std::vector<glm::vec3> points = gridAround(move.tools[0], 7, 1.2);
        const std::vector<double> reference = finiteDifferenceVolumeChange(move, points, kDifferenceStep);
        SolverOptions options;
        options.method = Method::Dp45;
        options.volumeChange = true;
        const CpuSolution cpu = solveOnCpu(move, points, options);
        const GpuSolution gpu = solveOnGpu(solver(), move, points, options);
        ASSERT_EQ(cpu.volumeChanges.size(), points.size());
        ASSERT_EQ(gpu.volumeChanges.size(), points.size());
        const Comparison onCpu = compare(cpu.volumeChanges, reference, cpu.statistics);
        const Comparison onGpu = compare(gpu.volumeChanges, reference, gpu.statistics);
        const std::string what = std::string(toolKindName(c.kind)) + " " +
                                 std::string(c.kind == ToolKind::Kelvinlet ? kelvinletProfileName(c.profile)
                                                                           : falloffName(c.falloff));
        EXPECT_LE(onCpu.worst, 0.02) << what;
        EXPECT_LE(onGpu.worst, 0.02) << what;
        EXPECT_GT(onCpu.compared, points.size() / 5) << what << ": the grid must be in reach";
        const auto [lo, hi] = std::minmax_element(reference.begin(), reference.end());
        EXPECT_GT(*hi - *lo, 0.2) << what << ": the move must change volumes";
        std::printf("[ volume ] %-24s J vs finite differences: worst %.2g (CPU), %.2g (GPU) of max(|J|, 0.1) over %zu "
                    "vertices; J in [%.3g, %.3g]\n",
                    what.c_str(), onCpu.worst, onGpu.worst, onCpu.compared, *lo, *hi);
    }
}

// Spec §3.6: the truncated affine folds around test0's stroke, the flow never does.
TEST_F(VolumeChange, TheTruncatedAffineFoldsAndTheFlowDoesNot) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    SolverOptions options;
    options.volumeChange = true;
    for (ToolKind kind : {ToolKind::Affine, ToolKind::AffineFlow}) {
        const Move move = moveToolMotion(readStroke(path, {.kindOverride = kind}));
        const std::vector<glm::vec3> grid = gridAround(move.tools[0], test::kSanitized ? 9 : 21);
        const CpuSolution cpu = solveOnCpu(move, grid, options);
        const GpuSolution gpu = solveOnGpu(solver(), move, grid, options);
        size_t negative = 0;
        for (size_t i = 0; i < grid.size(); ++i) {
            const bool folded = (cpu.statistics[i].flags & kVertexFolded) != 0;
            EXPECT_EQ(folded, !(cpu.volumeChanges[i] > 0.0f)) << "vertex " << i;
            negative += folded ? 1 : 0;
        }
        EXPECT_EQ(cpu.report.folded, negative);
        std::printf("[ volume ] %s on test0's 21³ grid: %zu folded (CPU), %zu (GPU)\n",
                    std::string(toolKindName(kind)).c_str(), cpu.report.folded, gpu.report.folded);
        if (kind == ToolKind::Affine) {
            EXPECT_GT(cpu.report.folded, 0u);
            EXPECT_GT(gpu.report.folded, 0u);
        } else {
            EXPECT_EQ(cpu.report.folded, 0u);
            EXPECT_EQ(gpu.report.folded, 0u);
        }
    }
}

// A pure scale by e^λ inside an affine flow's core: J = e^{3λ} exactly, and the
// continuous mode's product of the segments' J is the whole stroke's.
TEST_F(VolumeChange, ACoreScaleAndContinuousSegmentsMultiply) {
    ToolMotion m = test::affineMotion({0.0, 0.0, 0.0}, {40.0, 0.0, 0.0}, {0.0, 0.0, 0.5}, 0.2, 60.0, 120.0);
    m.kind = ToolKind::AffineFlow;
    const std::vector<glm::vec3> core = icosphere(1, glm::vec3(0.0f), 20.0f).positions;
    SolverOptions options;
    options.volumeChange = true;
    const CpuSolution whole = solveOnCpu(Move{{m}}, core, options);
    for (float j : whole.volumeChanges) EXPECT_NEAR(j, std::exp(0.6), 1e-3 * std::exp(0.6));

    ToolMotion first = m, second = m;
    first.translation *= 0.5;
    first.logScale *= 0.5;
    first.rotation *= 0.5;
    second.origin = m.origin + first.translation;
    second.translation = first.translation;
    second.rotation = first.rotation;
    second.logScale = first.logScale;
    const std::vector<Move> segments{Move{{first}}, Move{{second}}};
    const CpuSolution cpu = solveContinuousOnCpu(segments, core, {}, options);
    const GpuSolution gpu = solveContinuousOnGpu(solver(), segments, core, options);
    for (size_t i = 0; i < core.size(); ++i) {
        EXPECT_NEAR(cpu.volumeChanges[i], std::exp(0.6), 1e-3 * std::exp(0.6)) << i;
        EXPECT_NEAR(gpu.volumeChanges[i], std::exp(0.6), 1e-3 * std::exp(0.6)) << i;
    }
}

TEST_F(VolumeChange, OffByDefaultAndRefusedForAMixOfAffineAndOtherKinds) {
    const Move move = moveToolMotion(defaultStroke());
    const std::vector<glm::vec3> points = icosphere(1, glm::vec3(move.tools[0].origin), 30.0f).positions;
    EXPECT_TRUE(solveOnCpu(move, points, SolverOptions{}).volumeChanges.empty());
    GpuMesh mesh(context(), points);
    solver().run(mesh, move, SolverOptions{});
    EXPECT_TRUE(mesh.readVolumeChanges().empty()) << "nothing allocated without a request";

    Move mixed = move;
    mixed.tools.push_back(test::affineMotion(move.tools[0].origin, {10.0, 0.0, 0.0}, {}, 0.0, 5.0, 20.0));
    SolverOptions options;
    options.volumeChange = true;
    EXPECT_TRUE(test::failsWith([&] { solveOnCpu(mixed, points, options); }, {"volume change", "affine"}));
    EXPECT_TRUE(test::failsWith([&] { solver().run(mesh, mixed, options); }, {"volume change", "affine"}));
    EXPECT_NO_THROW(solveOnCpu(mixed, points, SolverOptions{}));
}

} // namespace
} // namespace sculptflow
