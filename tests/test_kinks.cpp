// Steps across a kink of an affine flow's falloff (kinkCrossing in controller.glsl):
// the bound it puts on such a step's error holds where the embedded estimates miss
// most of it, and whole moves across kinks keep spec §4's final-error contract.
#include <algorithm>
#include <cmath>
#include <utility>
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

// A flow that pulls kPull voxels along x, with its tip at the origin.
ToolMotion pull(Falloff falloff) {
    ToolMotion m = test::affineMotion({0.0, 0.0, 0.0}, {kPull, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, kInner, kOuter);
    m.kind = ToolKind::AffineFlow;
    m.falloff = falloff;
    return m;
}

ToolMotion linearPull() { return pull(Falloff::Linear); }

// w(u) of spec §3.6, written here apart from the kernel's.
double profile(Falloff falloff, double u) {
    if (falloff == Falloff::Linear) return u;
    if (falloff == Falloff::Smoother) return u * u * u * (u * (6.0 * u - 15.0) + 10.0);
    return u * u * (3.0 - 2.0 * u);
}

// On the x axis ahead of the tip the flow is x' = w(x − s·kPull)·kPull: at rest
// until r_out reaches the vertex, where the first derivative of dx'/ds that the
// falloff has no match for jumps (the first for linear, the second for smooth, the
// third for smoother). Its solution in double, by RK4 substeps far finer than any
// step below.
double exactOnAxis(Falloff falloff, double x, double s0, double s1) {
    auto v = [falloff](double at, double s) {
        return profile(falloff, std::clamp((kOuter - (at - s * kPull)) / (kOuter - kInner), 0.0, 1.0)) * kPull;
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
// width of tool motion), for vertices that r_out reaches 5% to 95% of the way,
// across kinks of order 1 (linear), 2 (smooth) and 3 (smoother): each step's error
// against the double solution stays within kinkCrossing's bound (for bs32 at orders
// 2 and 3, with its estimate), and dp45's and tsit5's estimates see a fraction of
// it. bs32 has no bound at order 3 (kinkError.z = 0): a jump in the third
// derivative is its own order's truncation, which its estimate sees whole.
TEST(Kinks, TheBoundCoversOneStepAcrossAKink) {
    const std::pair<Falloff, int> orders[] = {{Falloff::Linear, 1}, {Falloff::Smooth, 2}, {Falloff::Smoother, 3}};
    for (auto [falloff, order] : orders) {
        const Move move{{pull(falloff)}};
        const float h = float(0.25 * (kOuter - kInner) / kPull);
        for (Method method : allMethods(true)) {
            SolverOptions options;
            options.method = method;
            kernel::Kernel k = makeKernel(move, options);
            const bool bounded = kernel::methodTraits(int(method)).kinkError[order - 1] > 0.0f;
            const std::string what = std::string(methodName(method)) + " kink order " + std::to_string(order);
            double worstShare = 0.0, leastSeen = 1e30;
            for (double theta = 0.05; theta < 0.96; theta += 0.05) {
                const double x0 = kOuter + theta * h * kPull;
                const glm::vec3 x(float(x0), 0.0f, 0.0f);
                const glm::vec3 k1 = k.velocity(x, 0.0f, 1u);
                const auto step = k.attemptStep(int(method), x, 0.0f, h, k1, 1u);
                const auto crossing = k.kinkCrossing(x, 0.0f, k1, step.y, h);
                const double error = std::abs(double(step.y.x) - exactOnAxis(falloff, x0, 0.0, h));
                EXPECT_EQ(crossing.error > 0.0f, bounded) << what << " θ " << theta;
                EXPECT_NEAR(crossing.first, bounded ? theta : 1.0, 0.05) << what;
                // 1e-4 voxel: float rounding of a step at |x| ≈ 50. bs32's estimate is
                // of lower order than the smooth falloffs' kinks, and holds them whole.
                const double held = method == Method::Bs32 && order > 1 ? step.error : 0.0;
                EXPECT_LE(error, crossing.error + held + 1e-4) << what << " θ " << theta;
                if (bounded) worstShare = std::max(worstShare, error / crossing.error);
                // A higher-order kink errs less: count steps over a tenth of the first order's floor.
                if (error > (order == 1 ? 1e-3 : 1e-4)) leastSeen = std::min(leastSeen, double(step.error) / error);
            }
            // The bound is not loose by orders of magnitude: some step comes within 4×.
            if (bounded) {
                EXPECT_GT(worstShare, 0.25) << what;
            }
            // dp45 and tsit5's estimates see under a fifth of some step's error: the
            // reason the bound exists.
            if (method == Method::Dp45 || method == Method::Tsit5) {
                EXPECT_LT(leastSeen, 0.2) << what;
            }
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
