// Each method's error falls at its theoretical order as h shrinks, and each
// error estimate at the order the step controller assumes (spec §4).
#include <cmath>

#include <gtest/gtest.h>

#include "kernel_fixtures.hpp"
#include "src/kernel_tools.hpp"

namespace sculptflow {
namespace {

// A strongly rotating, scaling affine flow: smooth, with an exact solution.
const ToolMotion kFlow = test::affineMotion({0.0, 0.0, 0.0}, {40.0, 10.0, 0.0}, {0.0, 0.5, 3.0},
                                            0.6, 1e6, 2e6);
const glm::vec3 kStart(50.0f, 20.0f, -10.0f);

kernel::Kernel flowKernel() { return makeKernel(Move{{kFlow}}, SolverOptions{}); }

// Global error at s = 1 after n fixed steps, in voxels.
double globalError(int method, int n) {
    kernel::Kernel k = flowKernel();
    glm::vec3 x = kStart;
    float h = 1.0f / float(n);
    for (int i = 0; i < n; ++i) {
        float s = float(i) * h;
        x = k.attemptStep(method, x, s, h, k.velocity(x, s, 1u), 1u).y;
    }
    return glm::length(glm::dvec3(x) - test::affineClosedForm(kFlow, glm::dvec3(kStart), 1.0));
}

// Observed order from errors at n and 2n steps.
double observedOrder(int method, int n) {
    return std::log2(globalError(method, n) / globalError(method, 2 * n));
}

// The orders checked are the method table's (methods.glsl).
struct OrderCase {
    int method;
    int steps; // coarse enough that float rounding is far below the error
};

std::string nameOf(const OrderCase& c) { return kernel::methodTraits(c.method).name; }

class Convergence : public testing::TestWithParam<OrderCase> {};

TEST_P(Convergence, GlobalErrorFallsAtTheMethodsOrder) {
    const OrderCase& c = GetParam();
    for (int n : {c.steps, 2 * c.steps}) {
        double e = globalError(c.method, 2 * n);
        // Float rounding over this flow is about 2e-5 voxel.
        ASSERT_GT(e, 5e-4) << "too close to float rounding to measure an order";
        EXPECT_NEAR(observedOrder(c.method, n), kernel::methodTraits(c.method).order, 0.35) << nameOf(c) << " n " << n;
    }
}

class EstimateOrder : public testing::TestWithParam<OrderCase> {};

TEST_P(EstimateOrder, ErrorEstimateFallsAtTheControllersOrder) {
    const OrderCase& c = GetParam();
    kernel::Kernel k = flowKernel();
    k.solverMethod = c.method;
    glm::vec3 k1 = k.velocity(kStart, 0.0f, 1u);
    // Local error ∝ h^(q+1), so the error per unit step ∝ h^q.
    float h = 0.2f;
    double big = k.attemptStep(c.method, kStart, 0.0f, h, k1, 1u).error;
    double small = k.attemptStep(c.method, kStart, 0.0f, 0.5f * h, k1, 1u).error;
    EXPECT_NEAR(std::log2(big / small), kernel::methodTraits(c.method).estimateOrder + 1.0, 0.35) << nameOf(c);
}

// bs32's bound adds up each step's own error (simpsonCheck), not its
// estimate, which is the second-order companion's: it must track the third-order
// step's true local error, falling as h⁴.
TEST(EstimateOrder, HermiteSimpsonTracksBs32sOwnStepError) {
    kernel::Kernel k = flowKernel();
    glm::vec3 k1 = k.velocity(kStart, 0.0f, 1u);
    double previous = 0.0;
    for (float h : {0.2f, 0.1f}) {
        const auto step = k.attemptStep(kernel::kMethodBs32, kStart, 0.0f, h, k1, 1u);
        const double own = k.simpsonCheck(kStart, 0.0f, h, k1, step, false, 1u);
        const double exact = glm::length(glm::dvec3(step.y) - test::affineClosedForm(kFlow, glm::dvec3(kStart), h));
        ASSERT_GT(exact, 1e-3) << "too close to float rounding";
        EXPECT_NEAR(own / exact, 1.0, 0.3) << "h " << h;
        if (previous > 0.0) {
            EXPECT_NEAR(std::log2(previous / own), 4.0, 0.35);
        }
        previous = own;
    }
}

// On a linear field the check sees (I − 8hJ/15)e, not (I − hJ/2)e: Simpson's rule
// with the Hermite midpoint has a quadrature error of its own, hJe/30 (steppers.glsl,
// ownErrorOfCheck). A pure dilation (J = λI) adds every step's error in one
// direction, so there the bound must cover each step's whole error: with 1/2 alone
// it was 0.4–0.5% short at hλ = 0.25–0.3, and seed 21892's mirrored affine tools
// ended 1.004× tol unflagged.
TEST(EstimateOrder, Bs32sOwnErrorCoversItsStepOnADilation) {
    const double logScale = 1.5;
    const ToolMotion dilation = test::affineMotion({0.0, 0.0, 0.0}, {40.0, 10.0, 0.0}, {0.0, 0.0, 0.0}, logScale,
                                                   1e6, 2e6);
    kernel::Kernel k = makeKernel(Move{{dilation}}, SolverOptions{});
    // Far out, so that each step's error (0.07–0.15 voxel) is 1,000× its float rounding.
    const glm::vec3 start(400.0f, 150.0f, -80.0f);
    glm::vec3 k1 = k.velocity(start, 0.0f, 1u);
    for (double z : {0.3, 0.25}) { // hλ
        const float h = float(z / logScale);
        const auto step = k.attemptStep(kernel::kMethodBs32, start, 0.0f, h, k1, 1u);
        const double check = k.simpsonCheck(start, 0.0f, h, k1, step, false, 1u);
        const double own = k.ownErrorOfCheck(float(check), h, float(logScale));
        const double exact = glm::length(glm::dvec3(step.y) - test::affineClosedForm(dilation, glm::dvec3(start), h));
        ASSERT_GT(exact, 0.05) << "too close to float rounding";
        EXPECT_GE(own, exact) << "h " << h;
        EXPECT_LE(own, 1.02 * exact) << "h " << h; // the factor is the error's, not a margin
    }
}

const OrderCase kRk4{kernel::kMethodRk4, 4};
const OrderCase kRk4Double{kernel::kMethodRk4Double, 2};
const OrderCase kBs32{kernel::kMethodBs32, 4};
const OrderCase kDp45{kernel::kMethodDp45, 2};
const OrderCase kTsit5{kernel::kMethodTsit5, 2};

std::string caseName(const testing::TestParamInfo<OrderCase>& param) { return nameOf(param.param); }

// tsit5's error on this flow is already 2e-4 voxel at 4 steps, within 10× of float
// rounding, and 5.8 at 2 → 4 steps is not yet asymptotic: its order is not
// measurable here (EstimateOrder and the accuracy tests check it).
// The bound's Simpson check (simpsonCheck) is of the 5(4) estimates' order, and its
// weight in the method table (½) keeps it, where the estimate is asymptotic (this
// smooth flow, steps short against its change), within dp45's and rk4dbl's estimate
// (the test equation's worst ratio puts dp45's at 1.06 of it): there the bound adds
// up the estimate, as before the check. tsit5's estimate is a quarter to a third of
// the check there, so its bound is up to twice its estimate (docs/error-bound.md).
TEST_P(EstimateOrder, SimpsonCheckLeavesAnAsymptoticEstimateAlone) {
    const OrderCase& c = GetParam();
    const kernel::MethodTraits traits = kernel::methodTraits(c.method);
    if (traits.boundEstimateWeight == 0.0f) GTEST_SKIP() << nameOf(c) << "'s bound is its check alone";
    kernel::Kernel k = flowKernel();
    k.solverMethod = c.method;
    const glm::vec3 k1 = k.velocity(kStart, 0.0f, 1u);
    for (float h : {0.2f, 0.1f}) {
        const auto step = k.attemptStep(c.method, kStart, 0.0f, h, k1, 1u);
        const float bound = k.boundStepError(traits, kStart, 0.0f, h, k1, step, 0.0f, 0.0f, 1u);
        const float check = k.simpsonCheck(kStart, 0.0f, h, k1, step, traits.boundEvaluations == 0, 1u);
        EXPECT_GT(check, 0.1f * step.error) << nameOf(c) << " h " << h << ": the check measures something";
        const float within = c.method == kernel::kMethodTsit5 ? 2.0f : 1.1f;
        EXPECT_LE(bound, within * step.error) << nameOf(c) << " h " << h << ": check " << check;
    }
}

// A step that passes over a change of the field: a Kelvinlet sweeps 3 radii past a
// vertex in one step. Every stage misses the change alike, so the 5(4) estimates
// fall short of the step's true error; the check, from a point the estimate never
// sampled, must bring the bound up to it.
TEST_P(EstimateOrder, SimpsonCheckCoversALongStepTheEstimateMisses) {
    const OrderCase& c = GetParam();
    const kernel::MethodTraits traits = kernel::methodTraits(c.method);
    kernel::Kernel k = makeKernel(Move{{test::kelvinletMotion(10.0, {60.0, 0.0, 0.0})}}, SolverOptions{});
    k.solverMethod = c.method;
    const glm::vec3 start(25.0f, 6.0f, 0.0f);
    const float h = 0.5f;
    const glm::vec3 k1 = k.velocity(start, 0.0f, 1u);
    const auto step = k.attemptStep(c.method, start, 0.0f, h, k1, 1u);
    glm::vec3 fine = start; // the same step in 4,000 classic RK4 steps
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        const float s = h * float(i) / float(n);
        fine = k.attemptStep(kernel::kMethodRk4, fine, s, h / float(n), k.velocity(fine, s, 1u), 1u).y;
    }
    const double exact = glm::length(glm::dvec3(step.y) - glm::dvec3(fine));
    const float bound = k.boundStepError(traits, start, 0.0f, h, k1, step, 0.0f, 0.0f, 1u);
    ASSERT_GT(exact, 0.05) << "the step should err visibly";
    if (traits.boundEstimateWeight > 0.0f) {
        EXPECT_LT(step.error, exact) << nameOf(c) << ": the estimate falls short";
    }
    EXPECT_GE(bound, exact) << nameOf(c) << ": estimate " << step.error;
}

INSTANTIATE_TEST_SUITE_P(Methods, Convergence, testing::Values(kRk4, kRk4Double, kBs32, kDp45),
                         caseName);
// rk4 has no error estimate.
INSTANTIATE_TEST_SUITE_P(Methods, EstimateOrder, testing::Values(kRk4Double, kBs32, kDp45, kTsit5), caseName);

} // namespace
} // namespace sculptflow
