// Independent double-precision ground truth for a move (spec §3), written from the
// spec's formulas alone so that it can catch mistakes in the shared solver.
//
// Each vertex integrates dx/ds = Σ v_i(x, s) piecewise between the breakpoints where
// an affine tool's falloff ends (spec §3.3). Affine-only phases are linear ODEs with
// an exact solution through the exponential of a 5×5 augmented matrix (scaling and
// squaring, see matrix_exp.hpp). Phases with a regularized Kelvinlet (de Goes & James,
// "Regularized Kelvinlets", SIGGRAPH 2017; its profiles from kelvinlet_reference.hpp)
// or an affine flow (spec §3.6) use classic RK4 in double, doubling the step count
// until two successive results agree (Richardson estimate).
#include "ground_truth.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <thread>

#include <sculptflow/error.hpp>
#include "finite.hpp"
#include "kelvinlet_reference.hpp"
#include "matrix_exp.hpp"

namespace sculptflow {
namespace {

constexpr int kFirstSteps = 32;             // first RK4 step count of a phase

// One Kelvinlet tool: its motion, its profile's kernels at the tool's μ, and loads
// calibrated at μ = 1 so that the tip follows the tool (spec §3.2, §3.7).
struct KelvinletTool {
    ToolMotion motion;
    std::vector<WeightedKernel> kernels;
    KelvinletLoads loads;
};

// The tools of a move, split by kind and checked once.
struct PreparedMove {
    std::vector<ToolMotion> affine;
    std::vector<ToolMotion> flows;
    std::vector<KelvinletTool> kelvinlets;
};

struct VertexResult {
    glm::dvec3 position{0.0};
    double errorEstimate = 0.0;
    bool converged = true;
};


void checkTool(const ToolMotion& tool, size_t index) {
    const std::string name = "groundTruth: tool " + std::to_string(index);
    const bool finite = isFinite(tool.origin) && isFinite(tool.translation) &&
                        isFinite(tool.rotation) && std::isfinite(tool.logScale) &&
                        std::isfinite(tool.innerRadius) && std::isfinite(tool.outerRadius) &&
                        std::isfinite(tool.stiffness) && std::isfinite(tool.compressibility);
    if (!finite) throw Error(name + ": non-finite motion or parameter");
}

void checkKelvinlet(const ToolMotion& tool, size_t index) {
    const std::string name = "groundTruth: tool " + std::to_string(index);
    if (tool.outerRadius <= 0.0) throw Error(name + ": Kelvinlet radius must be > 0");
    if (tool.stiffness <= 0.0) throw Error(name + ": stiffness must be > 0");
    if (tool.compressibility < 0.0 || tool.compressibility > 0.5)
        throw Error(name + ": compressibility must be in [0, 0.5]");
}

double kelvinletA(double mu) { return 1.0 / (4.0 * std::numbers::pi * mu); }
double kelvinletB(double mu, double nu) { return kelvinletA(mu) / (4.0 * (1.0 - nu)); }

// Σ wₖ X_k(u = εₖ²): a coefficient of the profile at the tip.
template <typename Coefficient>
double atTip(const std::vector<WeightedKernel>& kernels, Coefficient coefficient) {
    double value = 0.0;
    for (const WeightedKernel& k : kernels) value += k.weight * coefficient(k.kernel)(k.kernel.eps * k.kernel.eps);
    return value;
}

KelvinletTool makeKelvinlet(const ToolMotion& tool) {
    KelvinletTool k;
    k.motion = tool;
    const double a = kelvinletA(tool.stiffness);
    k.kernels = profileKernels(tool.profile, a, kelvinletB(tool.stiffness, tool.compressibility), tool.outerRadius);

    // Calibration at μ = 1: at R = 0 the field's value is A(0)·f = d and its gradient
    // −aφ(0)·W_F + (2b₀ − a)φ(0)·G = W + λI.
    const double a1 = kelvinletA(1.0);
    const auto tipKernels = profileKernels(tool.profile, a1, kelvinletB(1.0, tool.compressibility), tool.outerRadius);
    const double grab = atTip(tipKernels, [](const KelvinletKernel& x) -> const RadialSeries& { return x.A; });
    const double phi = atTip(tipKernels, [](const KelvinletKernel& x) -> const RadialSeries& { return x.phi; });
    k.loads.force = tool.translation / grab;
    k.loads.twist = tool.rotation * (-1.0 / (a1 * phi));
    k.loads.a = a;
    const double scaleLoad = tool.logScale / ((2.0 * kelvinletB(1.0, 0.0) - a1) * phi);
    k.loads.scaleFactor = (2.0 * kelvinletB(tool.stiffness, 0.0) - a) * scaleLoad;
    return k;
}

PreparedMove prepare(const Move& move) {
    PreparedMove prepared;
    for (size_t i = 0; i < move.tools.size(); ++i) {
        const ToolMotion& tool = move.tools[i];
        checkTool(tool, i);
        switch (tool.kind) {
        case ToolKind::Kelvinlet:
            checkKelvinlet(tool, i);
            prepared.kelvinlets.push_back(makeKelvinlet(tool));
            break;
        case ToolKind::Affine: prepared.affine.push_back(tool); break;
        case ToolKind::AffineFlow: prepared.flows.push_back(tool); break;
        }
    }
    return prepared;
}

// The falloff w of an affine kind at distance dist from its centre (spec §3.1, §3.6).
double falloff(const ToolMotion& tool, double dist) {
    const double outer = tool.outerRadius;
    const double inner = std::min(tool.innerRadius, outer);
    if (inner == outer) return dist <= outer ? 1.0 : 0.0; // degenerate ramp: a step
    const double p = 1.0 - std::clamp((dist - inner) / (outer - inner), 0.0, 1.0);
    switch (tool.falloff) {
    case Falloff::Smooth: return 3.0 * p * p - 2.0 * p * p * p;
    case Falloff::Smoother: return p * p * p * (6.0 * p * p - 15.0 * p + 10.0);
    case Falloff::Linear: return p;
    case Falloff::Sharp: return p * p;
    }
    return 0.0;
}

// s_end of an affine tool for a vertex starting at x0 (spec §3.1).
double falloffEnd(const ToolMotion& tool, const glm::dvec3& x0) {
    return falloff(tool, glm::length(x0 - tool.origin));
}

glm::dvec3 affineVelocity(const ToolMotion& tool, const glm::dvec3& x, double s) {
    const glm::dvec3 r = x - tool.tipAt(s);
    return tool.translation + glm::cross(tool.rotation, r) + tool.logScale * r;
}

// The fold-free affine flow (spec §3.6): the affine field times the falloff about the tip.
glm::dvec3 affineFlowVelocity(const ToolMotion& tool, const glm::dvec3& x, double s) {
    return falloff(tool, glm::length(x - tool.tipAt(s))) * affineVelocity(tool, x, s);
}

glm::dvec3 kelvinletVelocity(const KelvinletTool& k, const glm::dvec3& x, double s) {
    const glm::dvec3 r = x - k.motion.tipAt(s);
    glm::dvec3 v(0.0);
    for (const WeightedKernel& w : k.kernels) v += w.weight * kernelVelocity(w.kernel, k.loads, r);
    return v;
}

// The right-hand side of one phase: the active affine tools plus every Kelvinlet.
struct PhaseField {
    const PreparedMove& move;
    const std::vector<size_t>& activeAffine;

    glm::dvec3 operator()(const glm::dvec3& x, double s) const {
        glm::dvec3 v(0.0);
        for (size_t i : activeAffine) v += affineVelocity(move.affine[i], x, s);
        for (const ToolMotion& flow : move.flows) v += affineFlowVelocity(flow, x, s);
        for (const KelvinletTool& k : move.kelvinlets) v += kelvinletVelocity(k, x, s);
        return v;
    }
};

// Exact flow of dx/ds = A·x + b0 + b1·s over [s0, s1]. With y = x − x(s0) and
// σ = s − s0 it reads dy/dσ = A·y + c + b1·σ, where c is the velocity at the start.
// The state z = (y, κσ, κ) obeys dz/dσ = M·z; κ scales the inhomogeneous columns
// to the size of A so that scaling and squaring needs few squarings.
glm::dvec3 affinePhase(const PreparedMove& move, const std::vector<size_t>& active,
                       const glm::dvec3& x, double s0, double s1) {
    glm::dmat3 a(0.0);
    glm::dvec3 slope(0.0);
    glm::dvec3 start(0.0);
    for (size_t i : active) {
        const ToolMotion& tool = move.affine[i];
        const double w[3] = {tool.rotation.x, tool.rotation.y, tool.rotation.z};
        // glm is column-major: skew(r)[column][row].
        const glm::dmat3 skew(0.0, w[2], -w[1], -w[2], 0.0, w[0], w[1], -w[0], 0.0);
        const glm::dmat3 ai = skew + glm::dmat3(tool.logScale);
        a += ai;
        slope -= ai * tool.translation; // d/ds of −A_i·o_i(s)
        start += affineVelocity(tool, x, s0);
    }
    const double kappa = std::max({glm::length(slope), glm::length(start), 0.0});
    if (kappa == 0.0) return x; // y stays 0: nothing drives it

    const double h = s1 - s0;
    Matrix5 m{};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) m[r][c] = a[c][r] * h;
        m[r][3] = slope[r] / kappa * h;
        m[r][4] = start[r] / kappa * h;
    }
    m[3][4] = h;
    const Matrix5 e = matrixExp(m);
    // z(0) = (0, 0, 0, 0, κ), so y(h) = κ·(column 4 of e^{Mh}).
    return x + kappa * glm::dvec3(e[0][4], e[1][4], e[2][4]);
}

glm::dvec3 rk4Fixed(const PhaseField& field, glm::dvec3 x, double s0, double s1, int steps) {
    const double h = (s1 - s0) / steps;
    for (int i = 0; i < steps; ++i) {
        const double s = s0 + (s1 - s0) * i / steps; // from the index: no drift
        const glm::dvec3 k1 = field(x, s);
        const glm::dvec3 k2 = field(x + 0.5 * h * k1, s + 0.5 * h);
        const glm::dvec3 k3 = field(x + 0.5 * h * k2, s + 0.5 * h);
        const glm::dvec3 k4 = field(x + h * k3, s + h);
        x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    return x;
}

// RK4 with N, 2N, 4N... steps until |x_2N − x_N|/15 ≤ tolerance. RK4's error shrinks
// 16× per halving, so that is the error left in x_2N (Richardson); the result is the
// extrapolation x_2N + (x_2N − x_N)/15, whose error is of higher order, which makes
// the estimate a conservative one.
VertexResult rk4Phase(const PhaseField& field, const glm::dvec3& x, double s0, double s1,
                      double tolerance, int maxSteps) {
    int steps = std::max(1, std::min(kFirstSteps, maxSteps / 2));
    glm::dvec3 coarse = rk4Fixed(field, x, s0, s1, steps);
    VertexResult result{coarse, std::numeric_limits<double>::infinity(), false};
    while (steps <= maxSteps / 2) {
        steps *= 2;
        const glm::dvec3 finer = rk4Fixed(field, x, s0, s1, steps);
        const glm::dvec3 correction = (finer - coarse) / 15.0;
        coarse = finer;
        result.errorEstimate = glm::length(correction);
        result.position = finer;
        if (!isFinite(finer)) break;
        if (result.errorEstimate <= tolerance) {
            result.position = finer + correction;
            result.converged = true;
            break;
        }
    }
    return result;
}

VertexResult solveVertex(const PreparedMove& move, const glm::dvec3& x0,
                         const GroundTruthOptions& options) {
    VertexResult result{x0, 0.0, true};
    if (!isFinite(x0)) return result; // passed through; the solver flags these

    std::vector<double> sEnd(move.affine.size());
    std::vector<double> breakpoints{0.0};
    for (size_t i = 0; i < move.affine.size(); ++i) {
        sEnd[i] = falloffEnd(move.affine[i], x0);
        if (sEnd[i] > 0.0) breakpoints.push_back(sEnd[i]);
    }
    const bool wholeMove = !move.kelvinlets.empty() || !move.flows.empty();
    if (wholeMove) breakpoints.push_back(1.0); // Kelvinlets and affine flows act over [0, 1]
    std::sort(breakpoints.begin(), breakpoints.end());
    breakpoints.erase(std::unique(breakpoints.begin(), breakpoints.end()), breakpoints.end());

    // Each RK4 phase gets an equal share, so the summed estimate stays ≤ tolerance.
    const size_t phases = breakpoints.size() - 1;
    const double phaseTolerance = options.tolerance / static_cast<double>(std::max<size_t>(phases, 1));
    std::vector<size_t> active;
    for (size_t p = 0; p < phases; ++p) {
        const double s0 = breakpoints[p];
        const double s1 = breakpoints[p + 1];
        active.clear();
        for (size_t i = 0; i < sEnd.size(); ++i)
            if (sEnd[i] >= s1) active.push_back(i);
        if (!wholeMove) {
            result.position = affinePhase(move, active, result.position, s0, s1);
            continue;
        }
        const VertexResult phase = rk4Phase(PhaseField{move, active}, result.position, s0, s1,
                                            phaseTolerance, options.maxSteps);
        result.position = phase.position;
        result.errorEstimate += phase.errorEstimate;
        result.converged = result.converged && phase.converged;
    }
    return result;
}

} // namespace

GroundTruth groundTruth(const Move& move, std::span<const glm::dvec3> start,
                        const GroundTruthOptions& options) {
    const PreparedMove prepared = prepare(move);
    const size_t count = start.size();
    GroundTruth out;
    out.positions.resize(count);
    out.errorEstimate.resize(count);
    // std::vector<bool> packs bits, so threads write bytes and it is filled after.
    std::vector<char> converged(count, 1);

    auto solveRange = [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const VertexResult r = solveVertex(prepared, start[i], options);
            out.positions[i] = r.position;
            out.errorEstimate[i] = r.errorEstimate;
            converged[i] = r.converged ? 1 : 0;
        }
    };

    // Vertices are independent, so the split changes nothing in the results.
    const size_t threads =
        std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(count, 1));
    const size_t chunk = (count + threads - 1) / threads;
    {
        std::vector<std::jthread> pool;
        for (size_t begin = chunk; begin < count; begin += chunk)
            pool.emplace_back(solveRange, begin, std::min(begin + chunk, count));
        solveRange(0, std::min(chunk, count));
    } // jthreads join here

    out.converged.assign(converged.begin(), converged.end());
    return out;
}

GroundTruth groundTruth(const Move& move, std::span<const glm::vec3> start,
                        const GroundTruthOptions& options) {
    const std::vector<glm::dvec3> exact(start.begin(), start.end());
    return groundTruth(move, exact, options);
}

} // namespace sculptflow
