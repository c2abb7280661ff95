// The shared velocity fields: Kelvinlet calibration, affine falloff, and the
// speed bound that culling relies on.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "kernel_fixtures.hpp"
#include "src/kernel_tools.hpp"

namespace sculptflow {
namespace {

using test::affineMotion;
using test::kelvinletMotion;

kernel::Kernel kernelFor(const ToolMotion& m) {
    return makeKernel(Move{{m}}, SolverOptions{});
}

TEST(Field, KelvinletTipFollowsTheToolAtUnitStiffness) {
    const glm::dvec3 d(300.0, -120.0, 80.0);
    for (double nu : {0.0, 0.25, 0.5}) {
        kernel::Kernel k = kernelFor(kelvinletMotion(100.0, d, {}, 0.0, 1.0, nu));
        for (float s : {0.0f, 0.4f, 1.0f}) {
            glm::vec3 tip = glm::vec3(d) * s;
            glm::vec3 v = k.velocity(tip, s, 1u);
            EXPECT_NEAR(glm::length(glm::dvec3(v) - d), 0.0, 1e-4 * glm::length(d)) << "nu " << nu;
        }
    }
}

TEST(Field, StifferMaterialMovesLess) {
    const glm::dvec3 d(200.0, 0.0, 0.0);
    kernel::Kernel soft = kernelFor(kelvinletMotion(80.0, d, {}, 0.0, 1.0));
    kernel::Kernel stiff = kernelFor(kelvinletMotion(80.0, d, {}, 0.0, 4.0));
    glm::vec3 x(30.0f, 20.0f, -10.0f);
    glm::vec3 vSoft = soft.velocity(x, 0.0f, 1u);
    glm::vec3 vStiff = stiff.velocity(x, 0.0f, 1u);
    EXPECT_NEAR(glm::length(vStiff - 0.25f * vSoft), 0.0f, 1e-4f * glm::length(vSoft));
}

TEST(Field, KelvinletTwistAndScaleMatchTheToolNearTheTip) {
    // Near R = 0 the calibrated twist and scale give v ≈ r × R + λR.
    const glm::dvec3 r(0.0, 0.0, 1.5);
    const double lambda = 0.3;
    kernel::Kernel k = kernelFor(kelvinletMotion(100.0, {}, r, lambda));
    glm::vec3 offset(0.5f, -0.3f, 0.2f);
    glm::vec3 v = k.velocity(offset, 0.0f, 1u);
    glm::dvec3 expected = glm::cross(r, glm::dvec3(offset)) + lambda * glm::dvec3(offset);
    EXPECT_NEAR(glm::length(glm::dvec3(v) - expected), 0.0, 1e-3 * glm::length(expected));
}

TEST(Field, AffineVelocityAndFalloff) {
    ToolMotion m = affineMotion({10.0, 0.0, 0.0}, {5.0, 1.0, 0.0}, {0.0, 0.0, 2.0}, 0.5, 20.0, 60.0);
    kernel::Kernel k = kernelFor(m);
    glm::vec3 x(30.0f, 10.0f, 0.0f);
    float s = 0.5f;
    glm::dvec3 offset = glm::dvec3(x) - m.tipAt(s);
    glm::dvec3 expected = m.translation + glm::cross(m.rotation, offset) + m.logScale * offset;
    EXPECT_NEAR(glm::length(glm::dvec3(k.velocity(x, s, 1u)) - expected), 0.0, 1e-4);

    EXPECT_FLOAT_EQ(k.affineFalloff(0, glm::vec3(25.0f, 0.0f, 0.0f)), 1.0f);  // inside r_in
    EXPECT_FLOAT_EQ(k.affineFalloff(0, glm::vec3(50.0f, 0.0f, 0.0f)), 0.5f);  // halfway
    EXPECT_FLOAT_EQ(k.affineFalloff(0, glm::vec3(70.0f, 0.0f, 0.0f)), 0.0f);  // at r_out
    EXPECT_NEAR(k.affineFalloff(0, glm::vec3(40.0f, 0.0f, 0.0f)), 0.75f * 0.75f * 1.5f, 1e-6f);
}

// s_end = w(|x0 − origin|) places an affine tool's breakpoint, where the vertex
// moves at the tool's full speed: an error in it moves the vertex along its path.
// Near w = 1 the smooth and smoother polynomials' terms cancel; evaluated there in
// float, the smoother one's w was up to 1e-6 off (seed 29945, GeneratedStrokes).
TEST(Field, ASmoothFalloffNearItsInnerRadiusIsFloatAccurate) {
    for (Falloff falloff : {Falloff::Smooth, Falloff::Smoother}) {
        ToolMotion m = affineMotion({}, {5.0, 1.0, 0.0}, {}, 0.0, 20.0, 60.0);
        m.falloff = falloff;
        kernel::Kernel k = kernelFor(m);
        double worst = 0.0;
        for (int step = 0; step <= 4000; ++step) {
            const glm::vec3 x0(20.0f + 0.01f * float(step), 0.0f, 0.0f); // u from 1 down to 0
            const double u = 1.0 - (double(x0.x) - 20.0) / 40.0;
            const double w = falloff == Falloff::Smooth ? u * u * (3.0 - 2.0 * u) : u * u * u * (u * (6.0 * u - 15.0) + 10.0);
            worst = std::max(worst, std::abs(double(k.affineFalloff(0, x0)) - w));
        }
        // Half an ulp of 1 for w's rounding, one for u's (w′ ≤ 1.875): 1.5e-7.
        EXPECT_LE(worst, 1.5e-7) << (falloff == Falloff::Smooth ? "smooth" : "smoother");
    }
}

TEST(Field, SpeedBoundHoldsEverywhereBeyondItsRadius) {
    ToolMotion m = kelvinletMotion(100.0, {436.0, 0.0, 50.0}, {0.4, 1.2, -0.8}, 0.2, 1.0, 0.3);
    kernel::Kernel k = kernelFor(m);
    std::mt19937 rng(7);
    std::normal_distribution<float> gauss;
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (float rho : {5.0f, 50.0f, 100.0f, 300.0f, 1000.0f, 5000.0f}) {
        float bound = k.kelvinletSpeedBound(0, rho);
        float worst = 0.0f;
        for (int n = 0; n < 2000; ++n) {
            glm::vec3 dir = glm::normalize(glm::vec3(gauss(rng), gauss(rng), gauss(rng)));
            float radius = rho * (1.0f + 3.0f * unit(rng) * unit(rng));
            float s = unit(rng);
            glm::vec3 x = glm::vec3(m.tipAt(s)) + radius * dir;
            worst = std::max(worst, glm::length(k.velocity(x, s, 1u)));
        }
        EXPECT_LE(worst, bound) << "rho " << rho;
        // The bound is not vacuous: within a modest factor far from the tool.
        if (rho >= 300.0f) {
            EXPECT_LE(bound, 20.0f * worst) << "rho " << rho;
        }
    }
}

} // namespace
} // namespace sculptflow
