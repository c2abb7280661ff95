// Field shapes (spec §3.6, §3.7): the Kelvinlet profiles against a numerical
// Laplacian and the double reference, their tip calibration and culling radii;
// the affine falloffs; the fold-free affine flow against a converged double
// integration on the recorded strokes, CPU and GPU; bad shapes refused by name.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kelvinlet_reference.hpp"
#include "src/kernel_tools.hpp"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

constexpr KelvinletProfile kProfiles[] = {KelvinletProfile::BiScale, KelvinletProfile::TriScale,
                                          KelvinletProfile::Laplacian, KelvinletProfile::BiLaplacian};
constexpr Falloff kFalloffs[] = {Falloff::Smooth, Falloff::Smoother, Falloff::Linear, Falloff::Sharp};
// Under the sanitizers one method covers the shared code (test_support.hpp, kSanitized).
const std::vector<Method> kProfileMethods = test::kSanitized ? std::vector<Method>{Method::Dp45}
                                                             : std::vector<Method>{Method::Bs32, Method::Dp45, Method::Rk4Double};

std::string name(KelvinletProfile p) { return std::string(kelvinletProfileName(p)); }
std::string name(Falloff f) { return std::string(falloffName(f)); }

// The Laplacian of a field by central differences of step h in each axis,
// Richardson-extrapolated from h and h/2 so that the truncation error is O(h⁴).
template <typename Field>
glm::dvec3 numericalLaplacian(Field field, const glm::dvec3& x, double h) {
    auto at = [&](double step) {
        glm::dvec3 sum(0.0);
        for (int axis = 0; axis < 3; ++axis) {
            glm::dvec3 e(0.0);
            e[axis] = step;
            sum += field(x + e) - 2.0 * field(x) + field(x - e);
        }
        return sum / (step * step);
    };
    return (4.0 * at(0.5 * h) - at(h)) / 3.0;
}

KelvinletLoads randomLoads(std::mt19937& rng, double a, double b0) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    KelvinletLoads loads;
    loads.force = {u(rng), u(rng), u(rng)};
    loads.twist = {u(rng), u(rng), u(rng)};
    loads.a = a;
    loads.scaleFactor = (2.0 * b0 - a) * u(rng);
    return loads;
}

// de Goes & James 2019: the sharp kernels are the Laplacian (once, twice) of the
// regularized ones. The series the ground truth builds are checked against central
// differences of the kernel they come from, within 1e-6 relative.
TEST(KelvinletProfiles, SharpKernelsAreTheNumericalLaplacianOfTheRegularizedOnes) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double eps = 40.0;
    for (double nu : {0.0, 0.3, 0.5}) {
        const double a = 1.0 / (4.0 * std::numbers::pi * 2.0); // μ = 2
        const double b = a / (4.0 * (1.0 - nu));
        const KelvinletKernel regular = regularizedKernel(a, b, eps);
        const KelvinletKernel once = laplacian(regular);
        const KelvinletKernel twice = laplacian(once);
        const KelvinletLoads loads = randomLoads(rng, a, a / 4.0);
        double worst = 0.0;
        for (int sample = 0; sample < 40; ++sample) {
            const glm::dvec3 dir = glm::normalize(glm::dvec3(unit(rng), unit(rng), unit(rng)));
            const glm::dvec3 R = dir * eps * (0.05 + 3.0 * (sample / 40.0));
            const double h = 0.02 * eps;
            const auto pairs = {std::pair{&regular, &once}, std::pair{&once, &twice}};
            for (auto [from, to] : pairs) {
                const glm::dvec3 numeric = numericalLaplacian(
                    [&](const glm::dvec3& x) { return kernelVelocity(*from, loads, x); }, R, h);
                const glm::dvec3 closed = kernelVelocity(*to, loads, R);
                const double relative = glm::length(closed - numeric) / glm::length(closed);
                worst = std::max(worst, relative);
                EXPECT_LE(relative, 1e-6) << "nu " << nu << " |R| " << glm::length(R) << (to == &twice ? " Δ²" : " Δ");
            }
        }
        std::printf("[ profiles ] ν %.1f: sharp kernels vs numerical Laplacian, worst relative %.2g\n", nu, worst);
    }
}

// The shader's closed forms (kinds/kelvinlet.glsl) against the double series of the ground
// truth, with the kernel's own float loads, for every profile. Tri-scale summed
// term by term was 1.2e-5 of the tip speed off here: a field error shared by
// every pass, which a flow that stretches its start 300× turns into 0.05 voxel.
// As a divided difference it keeps float precision (3.2e-7). Bi-scale's plain
// difference was 2.8e-6 off, enough for seed 28620's 230-voxel pull to end 1.45×
// tol 0.01 off unflagged; as a divided difference too, it is within 1e-6.
TEST(KelvinletProfiles, ShaderClosedFormsMatchTheDoubleReference) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double eps = 60.0;
    for (KelvinletProfile profile : kProfiles) {
        ToolMotion m = test::kelvinletMotion(eps, {120.0, -40.0, 30.0}, {0.3, 0.9, -0.2}, 0.25, 1.5, 0.35);
        m.profile = profile;
        kernel::Kernel k = makeKernel(Move{{m}}, SolverOptions{});
        const kernel::Tool& t = k.tools[0];
        KelvinletLoads loads;
        loads.force = glm::dvec3(t.grabLoad);
        loads.twist = glm::dvec3(t.twistLoad);
        loads.a = t.kelvinA;
        loads.scaleFactor = double(t.kelvinScale) * t.scaleLoad;
        const auto kernels = profileKernels(profile, t.kelvinA, t.kelvinB, eps);
        const double tipSpeed = glm::length(k.velocity(glm::vec3(0.0f), 0.0f, 1u));
        double worst = 0.0;
        for (int sample = 0; sample < 60; ++sample) {
            const glm::dvec3 R = glm::normalize(glm::dvec3(unit(rng), unit(rng), unit(rng))) * eps * (4.0 * sample / 60.0);
            glm::dvec3 expected(0.0);
            for (const WeightedKernel& w : kernels) expected += w.weight * kernelVelocity(w.kernel, loads, R);
            const glm::dvec3 v(k.velocity(glm::vec3(R), 0.0f, 1u));
            worst = std::max(worst, glm::length(v - expected) / tipSpeed);
        }
        EXPECT_LE(worst, 1e-6) << name(profile) << ": relative to the tip speed";
        std::printf("[ profiles ] %s: float kernel vs double series, worst %.2g of the tip speed\n",
                    name(profile).c_str(), worst);
    }
}

// Calibration (spec §3.7): at μ = 1 the vertex at the tool tip follows the tool,
// on the CPU reference and in the double reference, within 0.5%.
TEST(KelvinletProfiles, TipFollowsTheToolAtUnitStiffness) {
    const glm::dvec3 d(260.0, -90.0, 40.0);
    for (KelvinletProfile profile : kProfiles) {
        for (double nu : {0.0, 0.5}) {
            ToolMotion m = test::kelvinletMotion(50.0, d, {0.2, 1.1, 0.4}, 0.3, 1.0, nu);
            m.profile = profile;
            const Move move{{m}};
            const std::vector<glm::vec3> tip{glm::vec3(m.origin)};
            const glm::dvec3 cpu(solveOnCpu(move, tip, SolverOptions{}).positions[0]);
            const glm::dvec3 truth = groundTruth(move, tip).positions[0];
            EXPECT_LE(glm::length(cpu - m.tipAt(1.0)), 0.005 * glm::length(d)) << name(profile) << " ν " << nu;
            EXPECT_LE(glm::length(truth - m.tipAt(1.0)), 0.005 * glm::length(d)) << name(profile) << " ν " << nu;
        }
    }
}

// The distance from the tool's path beyond which outOfReach culls, found by
// bisection along `direction` from the tool's start.
double cullingRadius(kernel::Kernel& k, const glm::vec3& direction, float tolerance) {
    double inside = 0.0, outside = 1.0e6;
    for (int step = 0; step < 60; ++step) {
        const double mid = 0.5 * (inside + outside);
        (k.outOfReach(k.tools[0].origin + float(mid) * direction, tolerance) ? outside : inside) = mid;
    }
    return outside;
}

// Each profile's culling bound (spec §4 item 5): vertices just beyond its radius
// move less than tol/10 in the double reference. Prints the radii at test0's radii.
TEST(KelvinletProfiles, VerticesJustOutsideTheCullingRadiusMoveLessThanATenthOfTheTolerance) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    const Move base = moveToolMotion(readStroke(path, {.kindOverride = ToolKind::Kelvinlet}));
    const double eps = base.tools[0].outerRadius;
    // Perpendicular to the path, where the tip passes closest.
    const glm::vec3 side = glm::normalize(glm::cross(glm::vec3(base.tools[0].translation), glm::vec3(0, 0, 1)));
    std::map<KelvinletProfile, double> radius01;
    for (KelvinletProfile profile : kProfiles) {
        Move move = base;
        move.tools[0].profile = profile;
        for (double tolerance : {0.1, 0.01}) {
            SolverOptions options;
            options.tolerance = tolerance;
            kernel::Kernel k = makeKernel(move, options);
            const float internal = k.settings.tolerance;
            const double radius = cullingRadius(k, side, internal);
            std::vector<glm::vec3> start;
            std::mt19937 rng(3);
            std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
            for (int i = 0; i < 24; ++i) {
                // Just beyond the radius from the start, the end, or the middle of the path.
                const glm::vec3 at = glm::vec3(move.tools[0].origin) + float(i % 3) * 0.5f * glm::vec3(move.tools[0].translation);
                glm::vec3 dir = glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)));
                dir = glm::normalize(dir - glm::dot(dir, glm::normalize(glm::vec3(move.tools[0].translation))) *
                                               glm::normalize(glm::vec3(move.tools[0].translation)));
                start.push_back(at + float(1.01 * radius) * dir);
            }
            const GroundTruth truth = groundTruth(move, start);
            double moved = 0.0;
            for (size_t i = 0; i < start.size(); ++i) {
                ASSERT_TRUE(k.outOfReach(start[i], internal)) << name(profile) << " vertex " << i;
                moved = std::max(moved, glm::length(truth.positions[i] - glm::dvec3(start[i])));
            }
            EXPECT_LT(moved, 0.1 * internal) << name(profile) << " tol " << tolerance;
            if (tolerance == 0.1) radius01[profile] = radius;
            std::printf("[ profiles ] %s at tol %.2g: culling radius %.0f voxel (%.2f ε), just outside moved %.2g voxel\n",
                        name(profile).c_str(), tolerance, radius, radius / eps, moved);
        }
    }
    // Faster decay culls nearer (spec §3.7).
    EXPECT_LT(radius01[KelvinletProfile::TriScale], radius01[KelvinletProfile::BiScale]);
    EXPECT_LT(radius01[KelvinletProfile::BiLaplacian], radius01[KelvinletProfile::BiScale]);
}

TEST(Falloffs, ProfilesAreTheSpecsPolynomials) {
    ToolMotion m = test::affineMotion({}, {10.0, 0.0, 0.0}, {}, 0.0, 20.0, 60.0);
    for (Falloff falloff : kFalloffs) {
        m.falloff = falloff;
        kernel::Kernel k = makeKernel(Move{{m}}, SolverOptions{});
        for (double dist : {0.0, 20.0, 30.0, 45.0, 59.0, 60.0, 80.0}) {
            const double p = 1.0 - std::clamp((dist - 20.0) / 40.0, 0.0, 1.0);
            const double expected = falloff == Falloff::Smooth     ? p * p * (3.0 - 2.0 * p)
                                    : falloff == Falloff::Smoother ? p * p * p * (p * (6.0 * p - 15.0) + 10.0)
                                    : falloff == Falloff::Linear   ? p
                                                                   : p * p;
            EXPECT_NEAR(k.affineFalloff(0, glm::vec3(float(dist), 0.0f, 0.0f)), expected, 1e-6) << name(falloff) << " " << dist;
        }
    }
}

// A shell of vertices around each tool's start, at fractions of its outer radius.
std::vector<glm::vec3> shells(const Move& move, std::initializer_list<float> fractions, int subdivisions = 2) {
    std::vector<glm::vec3> start;
    for (const ToolMotion& tool : move.tools) {
        const std::vector<glm::vec3> around = test::spheresAroundTip(tool, fractions, subdivisions);
        start.insert(start.end(), around.begin(), around.end());
    }
    return start;
}

// Max error over unflagged vertices, CPU and GPU, every adaptive method, against
// the double reference (whose own self-check must pass). A falloff with a kink
// jumps the field's slope, which bs32's estimate can meet only below h_min: there
// the clamped vertices are flagged, as spec §4 has it, and must still be within tol.
class FieldShapesGpu : public test::GpuTest {
protected:
    void expectWithinTolerance(const Move& move, const std::vector<glm::vec3>& start, const std::string& what,
                               bool kinked = false) {
        const GroundTruth truth = groundTruth(move, start);
        for (size_t i = 0; i < start.size(); ++i) ASSERT_TRUE(truth.converged[i]) << what << " vertex " << i;
        for (Method method : kProfileMethods) {
            SolverOptions options;
            options.method = method;
            const CpuSolution cpu = solveOnCpu(move, start, options);
            const GpuSolution gpu = solveOnGpu(solver(), move, start, options);
            double cpuError = 0.0, gpuError = 0.0, moved = 0.0;
            size_t flagged = 0;
            const bool clampsAllowed = kinked && method == Method::Bs32;
            for (size_t i = 0; i < start.size(); ++i) {
                moved = std::max(moved, glm::length(truth.positions[i] - glm::dvec3(start[i])));
                const uint32_t flags = (cpu.statistics[i].flags | gpu.statistics[i].flags) & ~kernel::kFlagCulled;
                if (flags && !(clampsAllowed && flags == kernel::kFlagMinStepClamped)) {
                    ++flagged;
                    continue;
                }
                cpuError = std::max(cpuError, glm::length(glm::dvec3(cpu.positions[i]) - truth.positions[i]));
                gpuError = std::max(gpuError, glm::length(glm::dvec3(gpu.positions[i]) - truth.positions[i]));
            }
            const std::string label = what + " " + std::string(methodName(method));
            EXPECT_LE(cpuError, options.tolerance) << label;
            EXPECT_LE(gpuError, options.tolerance) << label;
            // What the error bound cannot certify is flagged: at most 1% (issue 44).
            EXPECT_LE(100 * flagged, start.size()) << label;
            EXPECT_GT(moved, 10.0) << label << ": the stroke must move the vertices";
            std::printf("[ shapes ] %-40s max error CPU %.3g GPU %.3g voxel, %.1f evaluations a vertex, %zu flagged\n",
                        label.c_str(), cpuError, gpuError, cpu.report.meanEvaluations(), flagged);
        }
    }
};

TEST_F(FieldShapesGpu, KelvinletProfilesOnTheRecordedStrokes) {
    SF_REQUIRE_RECORDING(test0, "test0_righthandstroke.bin");
    SF_REQUIRE_RECORDING(left, "test1_lefthandstroke.bin");
    SF_REQUIRE_RECORDING(right, "test1_righthandstroke.bin");
    Stroke two = readStroke(left, {.kindOverride = ToolKind::Kelvinlet});
    two.tools.push_back(readStroke(right, {.kindOverride = ToolKind::Kelvinlet}).tools[0]);
    for (KelvinletProfile profile : {KelvinletProfile::TriScale, KelvinletProfile::Laplacian, KelvinletProfile::BiLaplacian}) {
        Stroke one = readStroke(test0, {.kindOverride = ToolKind::Kelvinlet});
        one.tools[0].profile = profile;
        expectWithinTolerance(moveToolMotion(one), shells(moveToolMotion(one), {0.3f, 0.8f}), "test0 " + name(profile));
        if (test::kSanitized) continue;
        Stroke both = two;
        for (ToolStroke& tool : both.tools) tool.profile = profile;
        expectWithinTolerance(moveToolMotion(both), shells(moveToolMotion(both), {0.5f}), "test1 two hands " + name(profile));
    }
}

TEST_F(FieldShapesGpu, AffineFlowAndFalloffsOnTheRecordedStrokes) {
    SF_REQUIRE_RECORDING(test0, "test0_righthandstroke.bin");
    SF_REQUIRE_RECORDING(left, "test1_lefthandstroke.bin");
    SF_REQUIRE_RECORDING(right, "test1_righthandstroke.bin");
    for (ToolKind kind : {ToolKind::AffineFlow, ToolKind::Affine}) {
        for (Falloff falloff : kFalloffs) {
            if (kind == ToolKind::Affine && falloff == Falloff::Smooth) continue; // test_accuracy's
            if (test::kSanitized && (kind == ToolKind::Affine || falloff == Falloff::Smoother)) continue;
            const std::string what = std::string(toolKindName(kind)) + " " + name(falloff);
            Stroke one = readStroke(test0, {.kindOverride = kind});
            one.tools[0].falloff = falloff;
            const bool kinked = falloff == Falloff::Linear || falloff == Falloff::Sharp;
            expectWithinTolerance(moveToolMotion(one), shells(moveToolMotion(one), {0.2f, 0.6f, 0.9f}), "test0 " + what,
                                  kinked);
            if (falloff != Falloff::Smooth) continue;
            Stroke both = readStroke(left, {.kindOverride = kind});
            both.tools.push_back(readStroke(right, {.kindOverride = kind}).tools[0]);
            expectWithinTolerance(moveToolMotion(both), shells(moveToolMotion(both), {0.3f, 0.8f}), "test1 two hands " + what);
        }
    }
}

// The affine flow in the other modes (spec §2, §3.4, §3.5): test0 in continuous
// mode against the double reference chained segment by segment, the move mirrored
// across a plane through the sphere, and half the sphere masked at m = 0.5.
TEST_F(FieldShapesGpu, AffineFlowInContinuousModeMirroredAndMasked) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    const Stroke stroke = readStroke(path, {.kindOverride = ToolKind::AffineFlow});
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> start = shells(move, {0.5f}, test::kSanitized ? 1 : 2);
    SolverOptions options;
    options.method = Method::Dp45;

    const std::vector<Move> segments = continuousMotions(stroke);
    std::vector<glm::dvec3> chained(start.begin(), start.end());
    for (const Move& segment : segments) {
        const GroundTruth truth = groundTruth(segment, chained);
        for (size_t i = 0; i < start.size(); ++i) ASSERT_TRUE(truth.converged[i]);
        chained = truth.positions;
    }
    const CpuSolution cpuContinuous = solveContinuousOnCpu(segments, start, {}, options);
    const GpuSolution gpuContinuous = solveContinuousOnGpu(solver(), segments, start, options);

    Stroke mirroredStroke = stroke;
    mirroredStroke.symmetry = {kSymmetryX, (move.tools[0].origin + glm::dvec3(0.3 * move.tools[0].outerRadius, 0, 0)) *
                                               stroke.voxelSize};
    const Move mirrored = moveToolMotion(mirroredStroke);
    const GroundTruth mirroredTruth = groundTruth(mirrored, start);
    const CpuSolution cpuMirrored = solveOnCpu(mirrored, start, options);
    const GpuSolution gpuMirrored = solveOnGpu(solver(), mirrored, start, options);

    std::vector<float> mask(start.size(), 1.0f);
    for (size_t i = 0; i < start.size(); i += 2) mask[i] = 0.5f;
    const GroundTruth truth = groundTruth(move, start);
    const CpuSolution cpuMasked = solveOnCpu(move, start, mask, options);
    const GpuSolution gpuMasked = solveOnGpu(solver(), move, start, options, mask);

    double continuous = 0.0, mirror = 0.0, masked = 0.0, mirrorMoved = 0.0;
    for (size_t i = 0; i < start.size(); ++i) {
        for (const glm::vec3& p : {cpuContinuous.positions[i], gpuContinuous.positions[i]})
            continuous = std::max(continuous, glm::length(glm::dvec3(p) - chained[i]));
        for (const glm::vec3& p : {cpuMirrored.positions[i], gpuMirrored.positions[i]})
            mirror = std::max(mirror, glm::length(glm::dvec3(p) - mirroredTruth.positions[i]));
        const glm::dvec3 expected = glm::dvec3(start[i]) + double(mask[i]) * (truth.positions[i] - glm::dvec3(start[i]));
        for (const glm::vec3& p : {cpuMasked.positions[i], gpuMasked.positions[i]})
            masked = std::max(masked, glm::length(glm::dvec3(p) - expected));
        mirrorMoved = std::max(mirrorMoved, glm::length(mirroredTruth.positions[i] - truth.positions[i]));
    }
    for (const SolveReport* r : {&cpuContinuous.report, &gpuContinuous.report, &cpuMirrored.report,
                                 &gpuMirrored.report, &cpuMasked.report, &gpuMasked.report})
        EXPECT_EQ(r->minStepClamped + r->iterationCap + r->nonFinite, 0u);
    EXPECT_LE(continuous, options.tolerance);
    EXPECT_LE(mirror, options.tolerance);
    EXPECT_LE(masked, options.tolerance);
    EXPECT_GT(mirrorMoved, 1.0) << "the mirrored copy must reach the sphere";
    std::printf("[ shapes ] affine-flow dp45, CPU and GPU: continuous (%zu segments) %.3g, mirrored %.3g, "
                "masked %.3g voxel from the double reference\n",
                segments.size(), continuous, mirror, masked);
}

// Inside r_in of the moving tip the flow is §3.1's rigid motion with scale, so the
// core moves as the closed form x(1) = p_B + e^λ·Rot(r)·(x0 − p_A) (spec §3.6).
TEST(AffineFlow, TheCoreMovesAsTheAffineCoreDoes) {
    ToolMotion m = test::affineMotion({5.0, -3.0, 2.0}, {180.0, 60.0, -40.0}, {0.0, 0.7, 1.2}, 0.15, 40.0, 100.0);
    m.kind = ToolKind::AffineFlow;
    const Move move{{m}};
    // |R| grows by e^λ, so start inside r_in·e^−λ to stay in the core throughout.
    const std::vector<glm::vec3> start = icosphere(2, glm::vec3(m.origin), float(0.8 * 40.0 * std::exp(-0.15))).positions;
    const GroundTruth truth = groundTruth(move, start);
    const CpuSolution cpu = solveOnCpu(move, start, SolverOptions{});
    const double angle = glm::length(m.rotation);
    const glm::dvec3 axis = m.rotation / angle;
    double truthError = 0.0, cpuError = 0.0;
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::dvec3 rel = glm::dvec3(start[i]) - m.origin;
        const glm::dvec3 rotated = rel * std::cos(angle) + glm::cross(axis, rel) * std::sin(angle) +
                                   axis * glm::dot(axis, rel) * (1.0 - std::cos(angle));
        const glm::dvec3 exact = m.tipAt(1.0) + std::exp(m.logScale) * rotated;
        truthError = std::max(truthError, glm::length(truth.positions[i] - exact));
        cpuError = std::max(cpuError, glm::length(glm::dvec3(cpu.positions[i]) - exact));
    }
    EXPECT_LE(truthError, 1e-6);
    EXPECT_LE(cpuError, 0.1);
    std::printf("[ shapes ] affine-flow core vs closed form: reference %.2g, CPU %.2g voxel\n", truthError, cpuError);
}

// The flow of one Lipschitz field never folds; §3.1's truncation does (spec §3.6).
// The end map's Jacobian by central differences of the double reference, in the
// falloff shell of test0's stroke: affine has cells with det J ≤ 0, the flow none.
TEST(AffineFlow, TheFlowDoesNotFoldWhereTheTruncatedAffineDoes) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    std::map<ToolKind, std::pair<int, double>> folds; // count, min det J
    for (ToolKind kind : {ToolKind::Affine, ToolKind::AffineFlow}) {
        const Move move = moveToolMotion(readStroke(path, {.kindOverride = kind}));
        const ToolMotion& tool = move.tools[0];
        const double h = 0.5;
        std::vector<glm::vec3> start;
        const int n = 9;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                for (int k = 0; k < n; ++k) {
                    const glm::dvec3 c = tool.origin + (glm::dvec3(i, j, k) / double(n - 1) * 2.0 - 1.0) * tool.outerRadius;
                    for (int axis = 0; axis < 3; ++axis)
                        for (double sign : {-1.0, 1.0}) {
                            glm::dvec3 p = c;
                            p[axis] += sign * h;
                            start.push_back(glm::vec3(p));
                        }
                }
        const GroundTruth truth = groundTruth(move, start);
        int folded = 0;
        double minDet = 1e300;
        for (size_t cell = 0; cell < start.size() / 6; ++cell) {
            glm::dmat3 jacobian;
            for (int axis = 0; axis < 3; ++axis) {
                const glm::dvec3 lo = truth.positions[6 * cell + 2 * axis], hi = truth.positions[6 * cell + 2 * axis + 1];
                const double spacing = double(start[6 * cell + 2 * axis + 1][axis]) - double(start[6 * cell + 2 * axis][axis]);
                jacobian[axis] = (hi - lo) / spacing;
            }
            const double det = glm::determinant(jacobian);
            minDet = std::min(minDet, det);
            folded += det <= 0.0 ? 1 : 0;
        }
        folds[kind] = {folded, minDet};
        std::printf("[ shapes ] %s on test0: %d of %d cells folded, min det J %.3g\n",
                    std::string(toolKindName(kind)).c_str(), folded, n * n * n, minDet);
    }
    EXPECT_GT(folds[ToolKind::Affine].first, 0) << "the truncated affine should fold on test0";
    EXPECT_EQ(folds[ToolKind::AffineFlow].first, 0);
    EXPECT_GT(folds[ToolKind::AffineFlow].second, 0.0);
}

TEST(FieldShapes, StrokeJsonCarriesProfilesAndFalloffs) {
    test::ScratchDir dir;
    Stroke stroke = defaultStroke();
    stroke.tools.push_back(stroke.tools[0]);
    stroke.tools[0].profile = KelvinletProfile::BiLaplacian;
    setToolKind(stroke.tools[1], ToolKind::AffineFlow);
    stroke.tools[1].falloff = Falloff::Sharp;
    writeStrokeJson(stroke, dir / "shapes.json");
    const Stroke back = readStrokeJson(dir / "shapes.json");
    EXPECT_EQ(back.tools[0].profile, KelvinletProfile::BiLaplacian);
    EXPECT_EQ(back.tools[1].kind, ToolKind::AffineFlow);
    EXPECT_EQ(back.tools[1].falloff, Falloff::Sharp);
    const Move move = moveToolMotion(back);
    EXPECT_EQ(move.tools[0].profile, KelvinletProfile::BiLaplacian);
    EXPECT_EQ(move.tools[1].falloff, Falloff::Sharp);
}

TEST(FieldShapes, BadShapesAreRefusedByName) {
    const std::string pose = R"({"position": [0, 0, 0], "orientation": [1, 0, 0, 0], "time": 0},
                                {"position": [1, 0, 0], "orientation": [1, 0, 0, 0], "time": 1})";
    auto strokeWith = [&](const std::string& fields) {
        return R"({"tools": [{)" + fields + R"(, "inner_radius": 1, "outer_radius": 2, "poses": [)" + pose + "]}]}";
    };
    auto parse = [&](const std::string& fields) { return [=] { parseStrokeJson(strokeWith(fields), "s.json"); }; };
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "elastic")"),
                                {"s.json", "tools[0].kind", "\"elastic\"", "\"kelvinlet\", \"affine\" or \"affine-flow\""}));
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "kelvinlet", "profile": "sharp")"),
                                {"tools[0].profile", "\"sharp\"", "\"bi-scale\", \"tri-scale\", \"laplacian\" or \"bi-laplacian\""}));
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "affine-flow", "falloff": "cubic")"),
                                {"tools[0].falloff", "\"cubic\"", "\"smooth\", \"smoother\", \"linear\" or \"sharp\""}));
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "kelvinlet", "falloff": "linear")"),
                                {"tools[0].falloff", "not a kelvinlet"}));
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "affine", "profile": "tri-scale")"),
                                {"tools[0].profile", "not an affine tool"}));
    EXPECT_TRUE(test::failsWith(parse(R"("kind": "affine-flow", "profile": 3)"), {"tools[0].profile"}));
    EXPECT_NO_THROW(parseStrokeJson(strokeWith(R"("kind": "affine-flow", "falloff": "linear")"), "s.json"));

    Stroke stroke = defaultStroke();
    stroke.tools[0].falloff = Falloff::Linear; // on a Kelvinlet
    EXPECT_TRUE(test::failsWith([&] { validateStroke(stroke, "built"); }, {"built", "tools[0].falloff", "linear"}));
    stroke.tools[0].falloff = Falloff::Smooth;
    setToolKind(stroke.tools[0], ToolKind::Affine);
    stroke.tools[0].profile = KelvinletProfile::Laplacian;
    EXPECT_TRUE(test::failsWith([&] { validateStroke(stroke, "built"); }, {"tools[0].profile", "laplacian"}));
}

} // namespace
} // namespace sculptflow
