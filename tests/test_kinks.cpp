// Steps across a kink of an affine flow's falloff (kinkCrossing in controller.glsl):
// the bound it puts on such a step's error holds where the embedded estimates miss
// most of it, and whole moves across kinks keep spec §4's final-error contract.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel_tools.hpp"
#include "src/method_table.hpp"
#include "kernel_fixtures.hpp"

namespace sculptflow {
namespace {

constexpr double kInner = 10.0; // voxels
constexpr double kOuter = 40.0;
constexpr double kPull = 200.0;

// A linear-falloff flow that pulls kPull voxels along x, with its tip at the origin.
ToolMotion linearPull() {
    ToolMotion m = test::affineMotion({0.0, 0.0, 0.0}, {kPull, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, kInner, kOuter);
    m.kind = ToolKind::AffineFlow;
    m.falloff = Falloff::Linear;
    return m;
}

// On the x axis ahead of the tip the flow is x' = w(x − s·kPull)·kPull: at rest
// until r_out reaches the vertex, where dx'/ds jumps from 0 to kPull²/(r_out − r_in).
// Its solution in double, by RK4 substeps far finer than any step below.
double exactOnAxis(double x, double s0, double s1) {
    auto v = [](double at, double s) {
        return std::clamp((kOuter - (at - s * kPull)) / (kOuter - kInner), 0.0, 1.0) * kPull;
    };
    const int n = 100000;
    const double h = (s1 - s0) / n;
    for (int i = 0; i < n; ++i) {
        const double s = s0 + i * h;
        const double k1 = v(x, s), k2 = v(x + 0.5 * h * k1, s + 0.5 * h);
        const double k3 = v(x + 0.5 * h * k2, s + 0.5 * h), k4 = v(x + h * k3, s + h);
        x += h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4);
    }
    return x;
}

// One step from s = 0, as long as the flow's step limit (a quarter of the shell's
// width of tool motion), for vertices that r_out reaches 5% to 95% of the way:
// each step's error against the double solution stays within kinkCrossing's
// bound, and the embedded estimate sees a fraction of it.
TEST(Kinks, TheBoundCoversOneStepAcrossAKink) {
    const Move move{{linearPull()}};
    const float h = float(0.25 * (kOuter - kInner) / kPull);
    for (Method method : allMethods(true)) {
        SolverOptions options;
        options.method = method;
        kernel::Kernel k = makeKernel(move, options);
        double worstShare = 0.0, leastSeen = 1e30;
        for (double theta = 0.05; theta < 0.96; theta += 0.05) {
            const double x0 = kOuter + theta * h * kPull;
            const glm::vec3 x(float(x0), 0.0f, 0.0f);
            const glm::vec3 k1 = k.velocity(x, 0.0f, 1u);
            const auto step = k.attemptStep(int(method), x, 0.0f, h, k1, 1u);
            const auto crossing = k.kinkCrossing(x, 0.0f, k1, step.y, h);
            const double error = std::abs(double(step.y.x) - exactOnAxis(x0, 0.0, h));
            ASSERT_GT(crossing.error, 0.0f) << methodName(method) << " θ " << theta;
            EXPECT_NEAR(crossing.first, theta, 0.05) << methodName(method);
            // 1e-4 voxel: float rounding of a step at |x| ≈ 50.
            EXPECT_LE(error, crossing.error + 1e-4) << methodName(method) << " θ " << theta;
            worstShare = std::max(worstShare, error / crossing.error);
            if (error > 1e-3) leastSeen = std::min(leastSeen, double(step.error) / error);
        }
        // The bound is not loose by orders of magnitude: some step comes within 4×.
        EXPECT_GT(worstShare, 0.25) << methodName(method);
        // dp45 and tsit5's estimates see under a fifth of some step's error: the
        // reason the bound exists.
        if (method == Method::Dp45 || method == Method::Tsit5) {
            EXPECT_LT(leastSeen, 0.2) << methodName(method);
        }
    }
}

// Whole moves: each adaptive method on balls across both kinks of a linear flow
// that turns and grows as it pulls, and of one that only pulls (its vertices ride
// the shell), at tol 0.1 and 0.01, CPU against the double reference.
TEST(Kinks, LinearFlowsKeepTheToleranceWithEveryMethod) {
    ToolMotion turning = linearPull();
    turning.rotation = {0.3, 0.9, 0.4};
    turning.logScale = 0.2;
    for (const ToolMotion& tool : {linearPull(), turning}) {
        const Move move{{tool}};
        std::vector<glm::vec3> start = icosphere(2, glm::vec3(20.0f, 5.0f, 0.0f), 30.0f).positions;
        const std::vector<glm::vec3> inner = icosphere(1, glm::vec3(0.0f, 3.0f, 0.0f), 12.0f).positions;
        start.insert(start.end(), inner.begin(), inner.end());
        const GroundTruth truth = groundTruth(move, start);
        for (Method method : allMethods(true)) {
            for (double tol : {0.1, 0.01}) {
                SolverOptions options;
                options.method = method;
                options.tolerance = tol;
                options.maxIterations = plannedAttempts(options, std::span<const Move>(&move, 1)); // as the CLI plans it
                const CpuSolution cpu = solveOnCpu(move, start, options);
                double worst = 0.0;
                size_t flagged = 0;
                for (size_t i = 0; i < start.size(); ++i) {
                    ASSERT_TRUE(truth.converged[i]);
                    if (cpu.statistics[i].flags & (kVertexMinStepClamped | kVertexIterationCap)) {
                        ++flagged;
                        continue;
                    }
                    worst = std::max(worst, glm::length(glm::dvec3(cpu.positions[i]) - truth.positions[i]));
                }
                const std::string what = std::string(methodName(method)) + " tol " + std::to_string(tol) +
                                         (tool.rotation.x != 0.0 ? " turning" : " pulling");
                EXPECT_LE(worst, tol) << what;
                // The error bound's second pass may meet h_min or the cap: at most 1%.
                EXPECT_LE(100 * flagged, start.size()) << what;
            }
        }
    }
}

} // namespace
} // namespace sculptflow
