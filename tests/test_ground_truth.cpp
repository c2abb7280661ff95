// Tests of the independent ground truth (spec §3): the matrix exponential, affine
// closed forms and falloff, breakpoints between tools, the Kelvinlet calibration and
// the RK4 convergence self-check. Expected values come from closed forms and
// integrations written here, never from the solver code.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/stroke.hpp>
#include "src/ground_truth.hpp"
#include "src/matrix_exp.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kNoFalloff = 1e9; // radii that put every test vertex inside r_in

// Rodrigues' formula: rotation of v by |r| about r̂.
glm::dvec3 rotate(const glm::dvec3& r, const glm::dvec3& v) {
    const double angle = glm::length(r);
    if (angle == 0.0) return v;
    const glm::dvec3 k = r / angle;
    return v * std::cos(angle) + glm::cross(k, v) * std::sin(angle) +
           k * glm::dot(k, v) * (1.0 - std::cos(angle));
}

// Spec §3.1: x(s) = o(s) + e^{λs}·Rot(s·r)·(x0 − p_A).
glm::dvec3 affineClosedForm(const ToolMotion& tool, const glm::dvec3& x0, double s) {
    return tool.tipAt(s) + std::exp(tool.logScale * s) * rotate(s * tool.rotation, x0 - tool.origin);
}

double smoothstepFalloff(double dist, double inner, double outer) {
    const double u = 1.0 - std::clamp((dist - inner) / (outer - inner), 0.0, 1.0);
    return u * u * (3.0 - 2.0 * u);
}

ToolMotion tool(ToolKind kind, glm::dvec3 origin, glm::dvec3 translation, glm::dvec3 rotation,
                double logScale, double inner, double outer) {
    ToolMotion t;
    t.kind = kind;
    t.origin = origin;
    t.translation = translation;
    t.rotation = rotation;
    t.logScale = logScale;
    t.innerRadius = inner;
    t.outerRadius = outer;
    return t;
}

ToolMotion affine(glm::dvec3 origin, glm::dvec3 translation, glm::dvec3 rotation, double logScale,
                  double inner = kNoFalloff, double outer = kNoFalloff) {
    return tool(ToolKind::Affine, origin, translation, rotation, logScale, inner, outer);
}

ToolMotion kelvinlet(glm::dvec3 origin, glm::dvec3 translation, glm::dvec3 rotation,
                     double logScale, double radius, double mu = 1.0, double nu = 0.5) {
    ToolMotion t = tool(ToolKind::Kelvinlet, origin, translation, rotation, logScale, 0.0, radius);
    t.stiffness = mu;
    t.compressibility = nu;
    return t;
}

// Fibonacci sphere: `count` roughly even points on a sphere.
std::vector<glm::vec3> spherePoints(glm::dvec3 center, double radius, int count) {
    std::vector<glm::vec3> points;
    const double golden = kPi * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < count; ++i) {
        const double z = 1.0 - 2.0 * (i + 0.5) / count;
        const double rho = std::sqrt(1.0 - z * z);
        const glm::dvec3 dir(rho * std::cos(golden * i), rho * std::sin(golden * i), z);
        points.emplace_back(center + radius * dir);
    }
    return points;
}

double dist(const glm::dvec3& a, const glm::dvec3& b) { return glm::length(a - b); }

// The radial profile shared by the Kelvinlet twist and scale terms, normalised to 1
// at the tip: [g(ε,ρ) − g(ε₁,ρ)] / [g(ε,0) − g(ε₁,0)], g = 1/r³ + 3ε²/(2r⁵) (spec §3.2).
double radialProfile(double rho, double eps) {
    auto g = [](double e, double p) {
        const double r = std::sqrt(p * p + e * e);
        return 1.0 / (r * r * r) + 1.5 * e * e / std::pow(r, 5);
    };
    return (g(eps, rho) - g(1.1 * eps, rho)) / (g(eps, 0.0) - g(1.1 * eps, 0.0));
}

// Piecewise classic RK4 for affine tools with falloff, independent of the ground truth.
glm::dvec3 affineRk4(const std::vector<ToolMotion>& tools, const glm::dvec3& x0, int steps) {
    std::vector<double> ends;
    for (const ToolMotion& t : tools)
        ends.push_back(smoothstepFalloff(glm::length(x0 - t.origin), t.innerRadius, t.outerRadius));
    std::vector<double> cuts = ends;
    cuts.push_back(0.0);
    std::sort(cuts.begin(), cuts.end());
    glm::dvec3 x = x0;
    for (size_t p = 0; p + 1 < cuts.size(); ++p) {
        const double s0 = cuts[p], s1 = cuts[p + 1];
        if (s1 <= s0) continue;
        auto v = [&](const glm::dvec3& y, double s) {
            glm::dvec3 sum(0.0);
            for (size_t i = 0; i < tools.size(); ++i) {
                if (ends[i] < s1) continue;
                const glm::dvec3 r = y - tools[i].tipAt(s);
                sum += tools[i].translation + glm::cross(tools[i].rotation, r) + tools[i].logScale * r;
            }
            return sum;
        };
        const double h = (s1 - s0) / steps;
        for (int i = 0; i < steps; ++i) {
            const double s = s0 + h * i;
            const glm::dvec3 k1 = v(x, s);
            const glm::dvec3 k2 = v(x + 0.5 * h * k1, s + 0.5 * h);
            const glm::dvec3 k3 = v(x + 0.5 * h * k2, s + 0.5 * h);
            const glm::dvec3 k4 = v(x + h * k3, s + h);
            x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        }
    }
    return x;
}

Matrix5 zero5() { return Matrix5{}; }

TEST(GroundTruth, MatrixExpMatchesRodriguesScalarAndShear) {
    for (const glm::dvec3 r : {glm::dvec3(0.3, -1.2, 2.5), glm::dvec3(-20.0, 13.0, 7.0)}) {
        Matrix5 m = zero5();
        m[0][1] = -r.z; m[0][2] = r.y;
        m[1][0] = r.z;  m[1][2] = -r.x;
        m[2][0] = -r.y; m[2][1] = r.x;
        m[3][3] = 0.7;  // a scalar block: e^{0.7}
        m[3][4] = 2.0;  // with a shear into the last coordinate
        const Matrix5 e = matrixExp(m);
        for (int c = 0; c < 3; ++c) {
            glm::dvec3 unit(0.0);
            unit[c] = 1.0;
            const glm::dvec3 expected = rotate(r, unit);
            for (int row = 0; row < 3; ++row) EXPECT_NEAR(e[row][c], expected[row], 1e-12);
        }
        // Each squaring can double the rounding error: allow some 100 ulps.
        EXPECT_NEAR(e[3][3], std::exp(0.7), 1e-13);
        EXPECT_NEAR(e[3][4], 2.0 * (std::exp(0.7) - 1.0) / 0.7, 1e-13);
        EXPECT_DOUBLE_EQ(e[4][4], 1.0);
        EXPECT_EQ(e[4][0], 0.0);
    }
}

TEST(GroundTruth, SingleAffineToolMatchesClosedForm) {
    const glm::dvec3 axis = glm::normalize(glm::dvec3(0.2, -0.7, 0.4));
    const glm::dvec3 origin(100.0, -50.0, 20.0);
    const glm::dvec3 translation(400.0, 30.0, -120.0);
    const std::vector<glm::vec3> start = spherePoints(origin, 60.0, 40);
    for (const double angle : {kPi - 1e-9, kPi, 1e-9, 1.7}) {
        for (const double logScale : {0.4, -0.3}) {
            Move move{{affine(origin, translation, angle * axis, logScale)}};
            const GroundTruth gt = groundTruth(move, start);
            for (size_t i = 0; i < start.size(); ++i) {
                const glm::dvec3 expected = affineClosedForm(move.tools[0], glm::dvec3(start[i]), 1.0);
                EXPECT_LT(dist(gt.positions[i], expected), 1e-9)
                    << "angle " << angle << " logScale " << logScale << " vertex " << i;
                EXPECT_EQ(gt.errorEstimate[i], 0.0);
                EXPECT_TRUE(gt.converged[i]);
            }
        }
    }
}

TEST(GroundTruth, FalloffStopsTheMotionAtSEnd) {
    const glm::dvec3 origin(10.0, 20.0, -5.0);
    const ToolMotion t = affine(origin, {50.0, 0.0, 10.0}, {0.0, 1.2, 0.3}, 0.2, 20.0, 80.0);
    const glm::dvec3 dir = glm::normalize(glm::dvec3(1.0, 2.0, -2.0));
    std::vector<glm::vec3> start;
    for (const double d : {0.0, 10.0, 19.5, 35.0, 50.0, 65.0, 79.9, 80.5, 200.0})
        start.emplace_back(origin + d * dir);
    const GroundTruth gt = groundTruth(Move{{t}}, start);
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 x0(start[i]);
        const double d = glm::length(x0 - origin);
        const double sEnd = smoothstepFalloff(d, 20.0, 80.0);
        EXPECT_LT(dist(gt.positions[i], affineClosedForm(t, x0, sEnd)), 1e-9) << "dist " << d;
        if (d < 20.0) {
            EXPECT_LT(dist(gt.positions[i], affineClosedForm(t, x0, 1.0)), 1e-9);
        }
        if (d > 80.0) {
            EXPECT_EQ(gt.positions[i], x0) << "beyond r_out must not move";
        }
    }
}

TEST(GroundTruth, EqualOrCrossedRadiiMakeAStep) {
    const glm::dvec3 origin(0.0);
    for (const double inner : {50.0, 70.0}) { // 70 > r_out is clamped to r_out
        const ToolMotion t = affine(origin, {30.0, -10.0, 0.0}, {0.5, 0.0, 0.0}, 0.1, inner, 50.0);
        const std::vector<glm::vec3> start{{40.0f, 0.0f, 0.0f}, {0.0f, 49.0f, 0.0f}, {0.0f, 0.0f, 51.0f}};
        const GroundTruth gt = groundTruth(Move{{t}}, start);
        EXPECT_LT(dist(gt.positions[0], affineClosedForm(t, glm::dvec3(start[0]), 1.0)), 1e-9);
        EXPECT_LT(dist(gt.positions[1], affineClosedForm(t, glm::dvec3(start[1]), 1.0)), 1e-9);
        EXPECT_EQ(gt.positions[2], glm::dvec3(start[2]));
    }
}

TEST(GroundTruth, TwoAffineToolsMatchPiecewiseRk4) {
    const std::vector<ToolMotion> tools{
        affine({0.0, 0.0, 0.0}, {120.0, 10.0, -30.0}, {0.0, 0.9, 0.3}, 0.15, 30.0, 150.0),
        affine({60.0, 20.0, 0.0}, {-40.0, 80.0, 5.0}, {-1.1, 0.2, 0.4}, -0.1, 10.0, 100.0)};
    std::vector<glm::vec3> start = spherePoints({30.0, 10.0, 0.0}, 70.0, 60);
    const std::vector<glm::vec3> inner = spherePoints({30.0, 10.0, 0.0}, 25.0, 20);
    start.insert(start.end(), inner.begin(), inner.end());
    const GroundTruth gt = groundTruth(Move{tools}, start);
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 expected = affineRk4(tools, glm::dvec3(start[i]), 4000);
        EXPECT_LT(dist(gt.positions[i], expected), 1e-7) << "vertex " << i;
    }
}

TEST(GroundTruth, TwoTranslationsAddUpToTheirFalloffs) {
    const glm::dvec3 d1(40.0, -10.0, 25.0), d2(-15.0, 60.0, 5.0);
    const ToolMotion t1 = affine({0.0, 0.0, 0.0}, d1, glm::dvec3(0.0), 0.0, 10.0, 90.0);
    const ToolMotion t2 = affine({50.0, 0.0, 0.0}, d2, glm::dvec3(0.0), 0.0, 5.0, 60.0);
    const std::vector<glm::vec3> start = spherePoints({25.0, 5.0, 0.0}, 30.0, 50);
    const GroundTruth gt = groundTruth(Move{{t1, t2}}, start);
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 x0(start[i]);
        const double s1 = smoothstepFalloff(glm::length(x0 - t1.origin), 10.0, 90.0);
        const double s2 = smoothstepFalloff(glm::length(x0 - t2.origin), 5.0, 60.0);
        EXPECT_LT(dist(gt.positions[i], x0 + s1 * d1 + s2 * d2), 1e-9) << "vertex " << i;
    }
}

// The calibration makes v(R = 0) = d exactly, and the grab term is even in R, so
// ∇v(0) = 0: the tip point R = 0 is an exact trajectory for a pure translation, and
// every RK4 stage lands on R = 0 as well. Only rounding (~1e-13 voxel) remains.
TEST(GroundTruth, KelvinletTipFollowsTranslation) {
    const glm::dvec3 origin(12.0, -7.0, 30.0), d(300.0, -150.0, 200.0);
    for (const double nu : {0.0, 0.25, 0.5}) {
        const Move move{{kelvinlet(origin, d, glm::dvec3(0.0), 0.0, 100.0, 1.0, nu)}};
        const GroundTruth gt = groundTruth(move, std::vector<glm::vec3>{glm::vec3(origin)});
        EXPECT_LT(dist(gt.positions[0], origin + d), 1e-8) << "nu " << nu;
        EXPECT_TRUE(gt.converged[0]);
    }
}

// The field is linear in a ∝ 1/μ (b ∝ a too) while the loads are fixed at μ = 1, so
// with μ = 2 the tip starts at half the tool's speed. It then lags behind the tool and
// the field decays away from R = 0. At ν = 0.5 the grab along f reduces to
// a·(1/r_ε − 1/r_ε₁), so the tip point stays on the line of d and its progress ξ obeys
// ξ' = |d|/μ · p(|d|·s − ξ), p(ρ) = (1/r_ε − 1/r_ε₁)/(1/ε − 1/ε₁): a scalar ODE.
TEST(GroundTruth, KelvinletStifferMaterialMovesLess) {
    const glm::dvec3 origin(5.0, 5.0, 5.0);
    const glm::dvec3 dir(0.6, 0.0, 0.8);
    const double eps = 100.0, mu = 2.0;
    auto profile = [&](double rho) {
        auto inv = [&](double e) { return 1.0 / std::sqrt(rho * rho + e * e); };
        return (inv(eps) - inv(1.1 * eps)) / (1.0 / eps - 1.0 / (1.1 * eps));
    };
    const std::vector<glm::vec3> tip{glm::vec3(origin)};
    for (const double length : {1.0, 400.0}) {
        const glm::dvec3 d = length * dir;
        const GroundTruth gt = groundTruth(Move{{kelvinlet(origin, d, glm::dvec3(0.0), 0.0, eps, mu)}}, tip);
        double xi = 0.0;
        const int steps = 4000;
        const double h = 1.0 / steps;
        auto rate = [&](double x, double s) { return length / mu * profile(length * s - x); };
        for (int k = 0; k < steps; ++k) {
            const double s = k * h;
            const double k1 = rate(xi, s), k2 = rate(xi + 0.5 * h * k1, s + 0.5 * h);
            const double k3 = rate(xi + 0.5 * h * k2, s + 0.5 * h), k4 = rate(xi + h * k3, s + h);
            xi += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        }
        EXPECT_LT(dist(gt.positions[0], origin + xi * dir), 1e-5) << "length " << length;
        EXPECT_LE(xi, 0.5 * length); // never more than half: the lag only slows it
        EXPECT_TRUE(gt.converged[0]);
        // A short move lags by at most 0.5 voxel, where p falls by ~3.4e-5: half the move.
        if (length == 1.0) {
            EXPECT_NEAR(xi, 0.5, 2e-5);
        }
    }
}

// A pure twist is v = c(|R|)·(r/μ) × R with the profile c(0) = 1: |R| is conserved,
// so each point rotates about the tip by c(|R0|)·r/μ exactly. Near the tip that is the
// tool's own rotation.
TEST(GroundTruth, KelvinletTwistRotatesWithTheToolNearTheTip) {
    const glm::dvec3 origin(-20.0, 8.0, 3.0);
    const glm::dvec3 r = (100.0 * kPi / 180.0) * glm::normalize(glm::dvec3(0.3, 1.0, -0.5));
    std::vector<glm::vec3> start;
    for (const double rho : {0.5, 5.0, 30.0, 100.0, 250.0})
        for (const glm::vec3& p : spherePoints(origin, rho, 6)) start.push_back(p);
    for (const double mu : {1.0, 2.0}) {
        const GroundTruth gt = groundTruth(Move{{kelvinlet(origin, glm::dvec3(0.0), r, 0.0, 100.0, mu)}}, start);
        for (size_t i = 0; i < start.size(); ++i) {
            const glm::dvec3 r0 = glm::dvec3(start[i]) - origin;
            const double c = radialProfile(glm::length(r0), 100.0);
            EXPECT_LT(dist(gt.positions[i], origin + rotate(c / mu * r, r0)), 1e-5) << "vertex " << i;
            EXPECT_TRUE(gt.converged[i]);
        }
    }
    // The tool's rate at the tip: within (ρ/ε)² of a rigid rotation.
    EXPECT_GT(radialProfile(0.5, 100.0), 1.0 - 1e-4);
    const GroundTruth nearTip = groundTruth(Move{{kelvinlet(origin, glm::dvec3(0.0), r, 0.0, 100.0)}},
                                            std::vector<glm::vec3>{glm::vec3(origin + glm::dvec3(0.5, 0.0, 0.0))});
    EXPECT_LT(dist(nearTip.positions[0], origin + rotate(r, glm::dvec3(0.5, 0.0, 0.0))), 1e-4);
}

// A pure scale is radial, v = c(|R|)·λ·R with the same profile as the twist, so each
// point stays on its ray and ρ' = c(ρ)·λ·ρ, integrated here as a scalar ODE.
TEST(GroundTruth, KelvinletScaleFollowsTheRadialProfile) {
    const glm::dvec3 origin(0.0, 0.0, 40.0);
    const double logScale = 0.3;
    std::vector<glm::vec3> start;
    for (const double rho : {0.5, 10.0, 60.0, 200.0})
        for (const glm::vec3& p : spherePoints(origin, rho, 4)) start.push_back(p);
    const GroundTruth gt =
        groundTruth(Move{{kelvinlet(origin, glm::dvec3(0.0), glm::dvec3(0.0), logScale, 100.0, 1.0, 0.3)}}, start);
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 r0 = glm::dvec3(start[i]) - origin;
        auto rate = [&](double rho) { return radialProfile(rho, 100.0) * logScale * rho; };
        double rho = glm::length(r0);
        const int steps = 2000;
        for (int k = 0; k < steps; ++k) {
            const double h = 1.0 / steps;
            const double k1 = rate(rho), k2 = rate(rho + 0.5 * h * k1);
            const double k3 = rate(rho + 0.5 * h * k2), k4 = rate(rho + h * k3);
            rho += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        }
        EXPECT_LT(dist(gt.positions[i], origin + rho / glm::length(r0) * r0), 1e-5) << "vertex " << i;
    }
    // Near the tip the point scales with the tool: e^λ.
    EXPECT_NEAR(glm::length(gt.positions[0] - origin), 0.5 * std::exp(logScale), 1e-4);
}

// An ordinary move: radius 100, a 400-voxel move with a 100° turn and a scale.
Move ordinaryKelvinletMove() {
    const glm::dvec3 r = (100.0 * kPi / 180.0) * glm::normalize(glm::dvec3(1.0, 0.4, -0.2));
    return Move{{kelvinlet({10.0, 20.0, 30.0}, {250.0, -200.0, 240.0}, r, 0.2, 100.0, 1.0, 0.4)}};
}

TEST(GroundTruth, KelvinletSelfCheckConverges) {
    const Move move = ordinaryKelvinletMove();
    const ToolMotion& t = move.tools[0];
    ASSERT_NEAR(glm::length(t.translation), 400.0, 1.0);
    std::vector<glm::vec3> start = spherePoints(t.origin, 50.0, 200);
    start.emplace_back(t.origin);
    const GroundTruth gt = groundTruth(move, start);
    for (size_t i = 0; i < start.size(); ++i) {
        EXPECT_TRUE(gt.converged[i]) << "vertex " << i;
        EXPECT_LE(gt.errorEstimate[i], GroundTruthOptions{}.tolerance) << "vertex " << i;
    }
    // With μ = 1 the tip follows the whole tool motion; rotation and scale vanish at R = 0.
    EXPECT_LT(dist(gt.positions.back(), t.origin + t.translation), 1e-6);

    // The estimate is honest: a 1000× stricter run lands within each vertex's estimate
    // (the extrapolated result is well inside it).
    const GroundTruth strict = groundTruth(move, start, {.tolerance = 1e-9});
    for (size_t i = 0; i < start.size(); ++i)
        EXPECT_LE(dist(gt.positions[i], strict.positions[i]), gt.errorEstimate[i] + 1e-9) << "vertex " << i;

    // Too few steps allowed: the hard vertices report it.
    const GroundTruth capped = groundTruth(move, start, {.maxSteps = 64});
    const auto failed = std::count(capped.converged.begin(), capped.converged.end(), false);
    EXPECT_GT(failed, 0);
    for (size_t i = 0; i < start.size(); ++i)
        if (!capped.converged[i]) {
            EXPECT_GT(capped.errorEstimate[i], GroundTruthOptions{}.tolerance);
        }
}

// An idle Kelvinlet forces the RK4 path; its phases must still honour the affine
// tool's breakpoint, giving the closed form at s_end.
TEST(GroundTruth, KelvinletPhasesStopAtAffineBreakpoints) {
    const ToolMotion idle = kelvinlet({0.0, 0.0, 0.0}, glm::dvec3(0.0), glm::dvec3(0.0), 0.0, 50.0);
    const ToolMotion t = affine({5.0, 0.0, 0.0}, {60.0, 20.0, -10.0}, {0.4, -0.8, 0.2}, 0.1, 15.0, 70.0);
    const std::vector<glm::vec3> start = spherePoints({5.0, 0.0, 0.0}, 40.0, 30);
    const GroundTruth gt = groundTruth(Move{{idle, t}}, start);
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 x0(start[i]);
        const double sEnd = smoothstepFalloff(glm::length(x0 - t.origin), 15.0, 70.0);
        EXPECT_LT(dist(gt.positions[i], affineClosedForm(t, x0, sEnd)), 1e-5) << "vertex " << i;
        EXPECT_TRUE(gt.converged[i]);
    }
}

TEST(GroundTruth, NonFiniteStartPassesThrough) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<glm::vec3> start{{nan, 0.0f, 0.0f}, {1.0f, inf, 2.0f}, {3.0f, 4.0f, 5.0f}};
    Move move = ordinaryKelvinletMove();
    move.tools.push_back(affine({0.0, 0.0, 0.0}, {10.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, 0.0));
    const GroundTruth gt = groundTruth(move, start);
    EXPECT_TRUE(std::isnan(gt.positions[0].x));
    EXPECT_EQ(gt.positions[0].y, 0.0);
    EXPECT_EQ(gt.positions[1], glm::dvec3(start[1]));
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_TRUE(gt.converged[i]);
        EXPECT_EQ(gt.errorEstimate[i], 0.0);
    }
    EXPECT_TRUE(std::isfinite(gt.positions[2].x));
    EXPECT_NE(gt.positions[2], glm::dvec3(start[2]));
}

TEST(GroundTruth, ResultsDoNotDependOnTheBatch) {
    Move move = ordinaryKelvinletMove();
    move.tools.push_back(affine({30.0, 0.0, 0.0}, {-20.0, 5.0, 0.0}, {0.0, 0.3, 0.0}, 0.05, 20.0, 90.0));
    const std::vector<glm::vec3> start = spherePoints(move.tools[0].origin, 70.0, 257);
    const GroundTruth all = groundTruth(move, start, {.tolerance = 1e-4});
    for (size_t i = 0; i < start.size(); i += 37) {
        const GroundTruth one = groundTruth(move, std::span(start).subspan(i, 1), {.tolerance = 1e-4});
        EXPECT_EQ(one.positions[0], all.positions[i]);
        EXPECT_EQ(one.errorEstimate[0], all.errorEstimate[i]);
    }
}

TEST(GroundTruth, InvalidKelvinletIsRejected) {
    const std::vector<glm::vec3> start{{0.0f, 0.0f, 0.0f}};
    EXPECT_THROW(groundTruth(Move{{kelvinlet({0, 0, 0}, {1, 0, 0}, glm::dvec3(0.0), 0.0, 0.0)}}, start), Error);
    EXPECT_THROW(groundTruth(Move{{kelvinlet({0, 0, 0}, {1, 0, 0}, glm::dvec3(0.0), 0.0, 10.0, 0.0)}}, start),
                 Error);
    EXPECT_THROW(groundTruth(Move{{kelvinlet({0, 0, 0}, {1, 0, 0}, glm::dvec3(0.0), 0.0, 10.0, 1.0, 0.7)}}, start),
                 Error);
}

TEST(GroundTruth, RecordedStrokeAsKelvinletConverges) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    const Stroke stroke = readStroke(path, StrokeReadOptions{.kindOverride = ToolKind::Kelvinlet});
    const Move move = moveToolMotion(stroke);
    ASSERT_EQ(move.tools.size(), 1u);
    const ToolMotion& t = move.tools[0];
    ASSERT_EQ(t.kind, ToolKind::Kelvinlet);
    std::vector<glm::vec3> start = spherePoints(t.origin, 0.5 * t.outerRadius, 300);
    const std::vector<glm::vec3> near = spherePoints(t.origin, 0.28 * t.outerRadius, 100);
    start.insert(start.end(), near.begin(), near.end());
    start.emplace_back(t.origin);
    const GroundTruth gt = groundTruth(move, start);
    for (size_t i = 0; i < start.size(); ++i) {
        EXPECT_TRUE(gt.converged[i]) << "vertex " << i;
        EXPECT_LE(gt.errorEstimate[i], GroundTruthOptions{}.tolerance) << "vertex " << i;
    }
    // The tip follows the tool when μ = 1 (the tip vertex is the float-rounded origin).
    if (t.stiffness == 1.0) {
        EXPECT_LT(dist(gt.positions.back(), t.origin + t.translation), 1e-3);
    }
}

} // namespace
} // namespace sculptflow
