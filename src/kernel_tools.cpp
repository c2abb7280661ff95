// Move (double) → shared kernel parameters (float), including the Kelvinlet
// load calibration of spec §3.2, computed once on the host in double.
#include "kernel_tools.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <sculptflow/error.hpp>
#include "finite.hpp"
#include "kind_table.hpp"
#include "method_table.hpp"
#include "tolerance_plan.hpp"

namespace sculptflow {
namespace {

glm::vec3 toFloat(const glm::dvec3& v) { return glm::vec3(v); }


// The kernel survives bad parameters (NON_FINITE), but the host refuses them by name.
void validateToolMotion(const ToolMotion& m, size_t index) {
    auto require = [&](bool ok, const char* field, const char* what) {
        if (!ok) throw Error("move: tools[" + std::to_string(index) + "]." + field + ": " + what);
    };
    require(isFinite(m.origin), "origin", "must be finite");
    require(isFinite(m.translation), "translation", "must be finite");
    require(isFinite(m.rotation), "rotation", "must be finite");
    require(std::isfinite(m.logScale), "logScale", "must be finite");
    require(std::isfinite(m.outerRadius) && m.outerRadius > 0.0, "outerRadius", "must be positive");
    require(std::isfinite(m.innerRadius) && m.innerRadius >= 0.0, "innerRadius", "must be ≥ 0");
    // Compared in float, as the kernel holds the radii.
    require(!kindTraits(m.kind).needsShell || float(m.innerRadius) < float(m.outerRadius), "innerRadius",
            "must be below outerRadius for an affine-flow tool: its field must be Lipschitz (spec §3.6), "
            "and with no falloff shell it jumps at the outer radius (an affine tool takes a hard edge)");
    require(std::isfinite(m.stiffness) && m.stiffness > 0.0, "stiffness", "must be positive");
    require(m.compressibility >= 0.0 && m.compressibility <= 0.5, "compressibility",
            "must be in [0, 0.5]");
}

// The method table's first-step rule (methods.glsl says why): a method with a
// per-vertex limit starts at a share of it in the kernel, so h0 does not cap it;
// the others start at h0.
double firstStep(const kernel::MethodTraits& method, const SolverOptions& options, double hMax) {
    return method.vertexStepLimit ? hMax : std::min(options.h0, hMax);
}

int kernelShape(const ToolMotion& m) {
    if (kindTraits(m.kind).profiled) {
        switch (m.profile) {
        case KelvinletProfile::BiScale: return kernel::kProfileBiScale;
        case KelvinletProfile::TriScale: return kernel::kProfileTriScale;
        case KelvinletProfile::Laplacian: return kernel::kProfileLaplacian;
        case KelvinletProfile::BiLaplacian: return kernel::kProfileBiLaplacian;
        }
    }
    switch (m.falloff) {
    case Falloff::Smooth: return kernel::kFalloffSmooth;
    case Falloff::Smoother: return kernel::kFalloffSmoother;
    case Falloff::Linear: return kernel::kFalloffLinear;
    case Falloff::Sharp: return kernel::kFalloffSharp;
    }
    throw Error("unknown falloff");
}

// A Kelvinlet's radial coefficients A and φ at the tip (R = 0, u = ε²) for its
// profile (kinds/kelvinlet.glsl): the grab's value there is A·f and the twist's and scale's
// gradients φ·(−aF) and φ·(2b₀ − a)·G, so the loads that make the tip follow the tool
// are f = d/A, F = −W/(aφ), G = λ/((2b₀ − a)φ) (spec §3.2, §3.7).
struct TipCoefficients {
    double grab = 0.0; // A(0)
    double phi = 0.0;  // φ(0)
};

TipCoefficients kelvinletTip(KelvinletProfile profile, double a, double b, double eps) {
    const double e2 = eps * eps;
    switch (profile) {
    case KelvinletProfile::Laplacian: return {(5.0 * b - 7.5 * a) / (e2 * eps), -52.5 / (e2 * e2 * eps)};
    case KelvinletProfile::BiLaplacian:
        return {(157.5 * a - 105.0 * b) / (e2 * e2 * eps), 2362.5 / (e2 * e2 * e2 * eps)};
    case KelvinletProfile::BiScale:
    case KelvinletProfile::TriScale: break;
    }
    // Σ wₖ X_εₖ with A(0) = (3a − 2b)/(2ε) and φ(0) = 5/(2ε³) for each regularized term.
    const bool tri = profile == KelvinletProfile::TriScale;
    const double radii[3] = {1.0, double(kernel::kKelvinletSecondRadius), double(kernel::kKelvinletThirdRadius)};
    const double weights[3] = {1.0, tri ? -2.21 / 1.21 : -1.0, tri ? 1.0 / 1.21 : 0.0};
    double inv1 = 0.0, inv3 = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double r = radii[k] * eps;
        inv1 += weights[k] / r;
        inv3 += weights[k] / (r * r * r);
    }
    return {(3.0 * a - 2.0 * b) / 2.0 * inv1, 2.5 * inv3};
}

// The length over which a tool's field changes, for toolStepLimit. A Kelvinlet's is
// ε; the bi-Laplacian's core is half as wide (its φ falls to half by |R| ≈ 0.4ε), and
// on the recordings dp45 and rk4dbl kept 0.1 voxel only at half the steps. An
// affine flow changes across its falloff shell, r_out − r_in: a smooth falloff
// (C¹, C²) needs a quarter of the shell a step for the embedded estimates to hold,
// a kinked one (linear at both radii, sharp at r_in) a sixth (docs/field-shapes.md).
double fieldLength(const ToolMotion& m) {
    if (kindTraits(m.kind).profiled)
        return m.profile == KelvinletProfile::BiLaplacian ? kernel::kBiLaplacianFieldLength * m.outerRadius
                                                           : m.outerRadius;
    return kernel::shellFieldLength(m.innerRadius, m.outerRadius, kernelShape(m));
}

// Loads calibrated at μ = 1 so that the tip follows the tool; the field is then
// evaluated with the material's μ, so a stiffer material moves less.
void setKelvinletLoads(kernel::Tool& t, const ToolMotion& m) {
    const double a1 = 1.0 / (4.0 * std::numbers::pi);
    const double b1 = a1 / (4.0 * (1.0 - m.compressibility));
    const double b01 = a1 / 4.0;
    const TipCoefficients tip = kelvinletTip(m.profile, a1, b1, m.outerRadius);
    t.grabLoad = toFloat(m.translation / tip.grab);
    t.twistLoad = toFloat(m.rotation * (-1.0 / (a1 * tip.phi)));
    t.scaleLoad = float(m.logScale / ((2.0 * b01 - a1) * tip.phi));

    const double a = a1 / m.stiffness;
    const double b = a / (4.0 * (1.0 - m.compressibility));
    t.kelvinA = float(a);
    t.kelvinB = float(b);
    t.kelvinScale = float(2.0 * (a / 4.0) - a); // 2b₀ − a, b₀ = b at ν = 0
}

} // namespace

kernel::Tool makeKernelTool(const ToolMotion& m) {
    kernel::Tool t{};
    t.origin = toFloat(m.origin);
    t.translation = toFloat(m.translation);
    t.rotation = toFloat(m.rotation);
    t.logScale = float(m.logScale);
    t.innerRadius = float(std::min(m.innerRadius, m.outerRadius));
    t.outerRadius = float(m.outerRadius);
    t.kind = int(m.kind); // the kind table's row
    t.shape = kernelShape(m);
    switch (m.kind) {
    case ToolKind::Kelvinlet: setKelvinletLoads(t, m); break;
    case ToolKind::Affine:
    case ToolKind::AffineFlow: break; // the motion alone
    }
    return t;
}

// Embedded error estimates are asymptotic: they hold once a step is small against
// the time the field takes to change. A Kelvinlet's field at a vertex changes as
// the tool moves by about one radius ε or turns by about one radian, so a step
// larger than that can pass over the change with a small estimate and a large
// error (spec §6: DP45 reached 2.2 voxels at tol 0.1 on test0). One unit of s moves
// the tool by N = |d|/ℓ + |r| + |λ|; a step of h moves it by h·N, with ℓ the length
// over which the field changes (fieldLength).
//
// An affine flow's field changes across its shell, which its scaling moves by
// r_out·|λ| a unit of s, not ε·|λ|: r_out/ℓ ≥ 4 field lengths per unit of λ. Its
// turning moves no shell (a sphere), but a step that turns the tool by φ bends the
// path off the stages' straight predictions by up to r_out·φ²/2, so φ is held to
// where that is within the limit's field lengths: seed 20888 (a 143° turn in a
// smooth 10.6-voxel shell) turned 0.64 rad a step, 2.1 field lengths off, and
// dp45's estimate was 6–11× below each step's error.
double toolStepLimit(const Move& move, const SolverOptions& options) {
    double limit = 1.0;
    double flows = 0.0; // affine flows' motions add: where they overlap, their changes do
    const double maxMotion = options.maxToolMotionPerStep;
    for (const ToolMotion& m : move.tools) {
        const double length = fieldLength(m);
        const double turn = glm::length(m.rotation);
        const double travel = glm::length(m.translation) / length + turn;
        switch (m.kind) {
        case ToolKind::Kelvinlet:
            if (const double motion = travel + std::abs(m.logScale); motion > 0.0)
                limit = std::min(limit, maxMotion / motion);
            break;
        case ToolKind::Affine: break; // truncated affine flows are smooth in s
        case ToolKind::AffineFlow:
            flows += travel + std::abs(m.logScale) * m.outerRadius / length;
            if (turn > 0.0) limit = std::min(limit, std::sqrt(2.0 * maxMotion * length / m.outerRadius) / turn);
            break;
        }
    }
    if (flows > 0.0) limit = std::min(limit, maxMotion / flows);
    return limit;
}

double controllerSafety(const SolverOptions& options) {
    return options.safety * methodTraits(options.method).safetyFactor;
}

kernel::Kernel makeKernel(const Move& move, const SolverOptions& options) {
    validateSolverOptions(options);
    if (move.tools.empty()) throw Error("move: no tools");
    if (move.tools.size() > SF_MAX_TOOLS)
        throw Error("move: " + std::to_string(move.tools.size()) + " tools, at most " +
                    std::to_string(SF_MAX_TOOLS) + " are supported");
    kernel::Kernel k;
    for (size_t i = 0; i < move.tools.size(); ++i) {
        validateToolMotion(move.tools[i], i);
        k.tools[i] = makeKernelTool(move.tools[i]);
    }
    k.toolCount = int(move.tools.size());
    const kernel::MethodTraits method = methodTraits(options.method);
    // Only methods with a per-vertex limit (usesVertexStepLimit) may step past the move's.
    const double floor = std::max(options.hMin, std::min(options.hMax, toolStepLimit(move, options)));
    const double hMax = method.vertexStepLimit ? std::max(options.hMin, options.hMax) : floor;
    k.settings.tolerance = float(internalTolerance(move, options));
    k.settings.h0 = float(firstStep(method, options, hMax));
    k.settings.hMin = float(options.hMin);
    k.settings.hMax = float(hMax);
    k.settings.stepLimitFloor = float(floor);
    k.settings.stepLimitScale =
        float(kernel::kVertexStepLimit * options.maxToolMotionPerStep / kernel::kDefaultToolMotionPerStep);
    k.settings.stepLimitTravel = float(options.maxToolMotionPerStep);
    k.settings.safety = float(controllerSafety(options));
    k.settings.shrinkMin = float(options.shrinkMin);
    k.settings.growMax = float(options.growMax);
    k.settings.fixedSteps = options.fixedSteps;
    k.solverMethod = int(options.method); // the table's row
    k.settings.maxAttempts = options.maxIterations;
    k.computeVolumeChange = options.volumeChange;
    k.solverVerify = options.verify;
    k.settings.requestedTolerance = float(options.tolerance);
    if (options.volumeChange) {
        const auto isTruncated = [](const ToolMotion& m) { return kindTraits(m.kind).truncated; };
        const bool truncated = std::any_of(move.tools.begin(), move.tools.end(), isTruncated);
        const bool other = !std::all_of(move.tools.begin(), move.tools.end(), isTruncated);
        if (truncated && other)
            throw Error("volume change: a move that mixes affine tools with kelvinlet or affine-flow tools is not "
                        "supported (the jump where an affine tool ends needs the other fields' Jacobian matrix)");
    }
    return k;
}

kernel::Kernel makeSegmentKernel(const Move& segment, const SolverOptions& options, size_t index, size_t count) {
    kernel::Kernel k = makeKernel(segment, segmentOptions(options, count));
    k.carryBound = count > 1 && methodTraits(options.method).errorBound;
    if (k.carryBound) k.settings.requestedTolerance = float(options.tolerance * double(index + 1) / double(count));
    return k;
}

} // namespace sculptflow
