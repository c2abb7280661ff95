// What step control could reach on a stroke, whatever its error estimate: the
// evidence behind docs/solver.md's "Step control: what was tried". Double state,
// the solver's own field (the kernel, as the CPU reference runs it), error
// against the double ground truth, on the accuracy set (icospheres of 642
// vertices at 0.1 … 1.5 radii around the tip).
//
//   equal steps:   per vertex, the fewest equal DP45 (BS32) steps within tol of
//                  the truth. A controller would have to know that count.
//   exact local:   the spec's controller (accept when err ≤ tol·h, h·0.9·(tol·h/err)^(1/p),
//                  clamped to [0.2, 5]) fed the step's true local error instead of
//                  its embedded estimate, at internal tolerances ×1, ×0.5, ×0.35.
//   controllers:   the kept controller (the kernel's settings and step limits) and
//                  three controllers that plan against the final error (issue 21),
//                  with the spread of a propagated global error estimate against
//                  the true error, and how far the sum of n equal steps'
//                  estimates is from their final error. docs/solver.md,
//                  "Global error control".
//
// Usage: sculptflow_step_bounds [stroke.bin|.json] [tol] [--controllers]
//        (default: recorded test0, 0.1)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <sculptflow/default_case.hpp>
#include <sculptflow/stroke.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "src/kernel_tools.hpp"
#include "src/method_table.hpp"

namespace sculptflow {
namespace {

using glm::dvec3;

constexpr float kRings[] = {0.1f, 0.2f, 0.3f, 0.5f, 0.75f, 1.0f, 1.5f};
constexpr int kMaxEqualSteps = 24;
constexpr int kReferenceSubsteps = 16;

enum class Scheme { Dp45, Bs32 };

struct SchemeCost {
    int stagesPerStep; // with FSAL
    double order;      // of the solution it advances with
};
SchemeCost describe(Scheme s) { return s == Scheme::Dp45 ? SchemeCost{6, 5.0} : SchemeCost{3, 3.0}; }

class Flow {
public:
    explicit Flow(const Move& move, const SolverOptions& options = {}) : kernel_(makeKernel(move, options)) {}

    dvec3 velocity(const dvec3& x, double s) const {
        return dvec3(kernel_.velocity(glm::vec3(x), float(s), 0xffffffffu));
    }

    // One step of the higher-order solution (local extrapolation, as the solver advances).
    dvec3 step(Scheme scheme, const dvec3& x, double s, double h) const {
        const dvec3 k1 = velocity(x, s);
        if (scheme == Scheme::Bs32) {
            const dvec3 k2 = velocity(x + h * 0.5 * k1, s + 0.5 * h);
            const dvec3 k3 = velocity(x + h * 0.75 * k2, s + 0.75 * h);
            return x + h * (2.0 / 9 * k1 + 1.0 / 3 * k2 + 4.0 / 9 * k3);
        }
        return dp45(x, s, h, k1, false).y;
    }

    dvec3 equalSteps(Scheme scheme, dvec3 x, int n) const {
        for (int k = 0; k < n; ++k) x = step(scheme, x, double(k) / n, 1.0 / n);
        return x;
    }

    // The step's true local error: against the same step taken in fine DP45 substeps.
    double localError(Scheme scheme, const dvec3& x, double s, double h, dvec3& next) const {
        next = step(scheme, x, s, h);
        dvec3 fine = x;
        const double g = h / kReferenceSubsteps;
        for (int i = 0; i < kReferenceSubsteps; ++i) fine = step(Scheme::Dp45, fine, s + i * g, g);
        return glm::length(next - fine);
    }

    // One adaptive attempt of the kernel's method, with the error estimate as a vector
    // (higher- minus lower-order solution) so that it can be propagated.
    struct Attempt {
        dvec3 y, kEnd, error;
        int evaluations = 0; // k1 not included
        bool fsal = false;
    };
    Attempt attempt(Method method, const dvec3& x, double s, double h, const dvec3& k1) const {
        if (method == Method::Bs32) {
            const dvec3 k2 = velocity(x + h * 0.5 * k1, s + 0.5 * h);
            const dvec3 k3 = velocity(x + h * 0.75 * k2, s + 0.75 * h);
            const dvec3 y = x + h * (2.0 / 9 * k1 + 1.0 / 3 * k2 + 4.0 / 9 * k3);
            const dvec3 k4 = velocity(y, s + h);
            return {y, k4, h * (-5.0 / 72 * k1 + 1.0 / 12 * k2 + 1.0 / 9 * k3 - 0.125 * k4), 3, true};
        }
        if (method == Method::Rk4Double) {
            const dvec3 full = rk4Increment(x, s, h, k1);
            const dvec3 half = rk4Increment(x, s, 0.5 * h, k1);
            const dvec3 halves = half + rk4Increment(x + half, s + 0.5 * h, 0.5 * h, velocity(x + half, s + 0.5 * h));
            const dvec3 error = (halves - full) / 15.0;
            return {x + halves + error, dvec3(0.0), error, 10, false};
        }
        return dp45(x, s, h, k1, true);
    }

    // ∂v/∂x · w, analytic from each Kelvinlet's radial coefficients and their slopes
    // (run() makes every tool a Kelvinlet): the first variation, which carries an
    // error made earlier to the end of the move.
    dvec3 jacobianTimes(const dvec3& x, double s, const dvec3& w) const {
        dvec3 out(0.0);
        for (int i = 0; i < kernel_.toolCount; ++i) {
            const kernel::Tool& t = kernel_.tools[i];
            const glm::vec3 offset = kernel_.toolOffset(i, glm::vec3(x), float(s));
            glm::vec3 slopeF;
            const dvec3 c(kernel_.kelvinletCoefficients(i, glm::dot(offset, offset), slopeF));
            const dvec3 slope(slopeF), R(offset), f(t.grabLoad), twist(t.twistLoad);
            const double scale = double(t.kelvinScale) * t.scaleLoad, a = t.kelvinA;
            const double Rw = glm::dot(R, w), Rf = glm::dot(R, f);
            out += slope.x * Rw * f + slope.y * Rw * Rf * R + c.y * (glm::dot(w, f) * R + Rf * w) +
                   slope.z * Rw * (scale * R - a * glm::cross(twist, R)) + c.z * (scale * w - a * glm::cross(twist, w));
        }
        return out;
    }

    double stepLimit(const dvec3& x, double s, const dvec3& k1) const {
        // Every tool acts (the tools here are Kelvinlets, which act to the end).
        return kernel_.stepLimit(glm::vec3(x), float(s), glm::vec3(k1), ~0u, kernel_.firstPass(), 1.0f);
    }
    const kernel::SolverSettings& settings() const { return kernel_.settings; }

private:
    // Dormand–Prince 5(4); with `estimate`, also k7 and the fifth- minus the fourth-order solution.
    Attempt dp45(const dvec3& x, double s, double h, const dvec3& k1, bool estimate) const {
        const dvec3 k2 = velocity(x + h * (1.0 / 5 * k1), s + h / 5);
        const dvec3 k3 = velocity(x + h * (3.0 / 40 * k1 + 9.0 / 40 * k2), s + 3 * h / 10);
        const dvec3 k4 = velocity(x + h * (44.0 / 45 * k1 - 56.0 / 15 * k2 + 32.0 / 9 * k3), s + 4 * h / 5);
        const dvec3 k5 = velocity(x + h * (19372.0 / 6561 * k1 - 25360.0 / 2187 * k2 + 64448.0 / 6561 * k3 -
                                           212.0 / 729 * k4),
                                  s + 8 * h / 9);
        const dvec3 k6 = velocity(x + h * (9017.0 / 3168 * k1 - 355.0 / 33 * k2 + 46732.0 / 5247 * k3 +
                                           49.0 / 176 * k4 - 5103.0 / 18656 * k5),
                                  s + h);
        const dvec3 y = x + h * (35.0 / 384 * k1 + 500.0 / 1113 * k3 + 125.0 / 192 * k4 - 2187.0 / 6784 * k5 +
                                 11.0 / 84 * k6);
        if (!estimate) return {y, dvec3(0.0), dvec3(0.0), 6, false};
        const dvec3 k7 = velocity(y, s + h);
        const dvec3 error = h * (71.0 / 57600 * k1 - 71.0 / 16695 * k3 + 71.0 / 1920 * k4 -
                                 17253.0 / 339200 * k5 + 22.0 / 525 * k6 - 1.0 / 40 * k7);
        return {y, k7, error, 6, true};
    }

    dvec3 rk4Increment(const dvec3& y, double s, double h, const dvec3& k1) const {
        const dvec3 k2 = velocity(y + 0.5 * h * k1, s + 0.5 * h);
        const dvec3 k3 = velocity(y + 0.5 * h * k2, s + 0.5 * h);
        const dvec3 k4 = velocity(y + h * k3, s + h);
        return h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4);
    }

    mutable kernel::Kernel kernel_; // the shared GLSL functions are not const in C++
};

struct Outcome {
    double evaluations = 0; // per vertex, FSAL counted: 1 + stages × accepted-or-rejected steps
    double worst = 0;       // voxels, against the truth
};

// The spec's controller (defaults h0 0.1, h_min 1e-3, safety 0.9, [0.2, 5]) on exact local errors.
Outcome exactLocalControl(const Flow& flow, Scheme scheme, const dvec3& x0, const dvec3& truth, double tol) {
    const SchemeCost d = describe(scheme);
    dvec3 x = x0;
    double s = 0.0, h = 0.1;
    int evaluations = 1;
    for (int attempt = 0; attempt < 400 && s < 1.0; ++attempt) {
        h = std::min(h, 1.0 - s);
        dvec3 next;
        const double error = flow.localError(scheme, x, s, h, next);
        evaluations += d.stagesPerStep;
        const bool accepted = error <= tol * h || h <= 1e-3;
        const double factor = error > 0 ? 0.9 * std::pow(tol * h / error, 1.0 / d.order) : 5.0;
        if (accepted) {
            x = next;
            s += h;
        }
        h = std::max(1e-3, h * std::clamp(factor, 0.2, accepted ? 5.0 : 1.0));
    }
    return {double(evaluations), glm::length(x - truth)};
}

// The kept controller (integrate.glsl, in double) and three that plan against the final error.
enum class Control {
    Kept,       // the kernel's: err ≤ tol_int·h, first step half the vertex's limit
    EqualToEnd, // the rest of the move in equal steps, the first at the full limit
    Budget,     // equal steps to the end from the kept first step, accepting
                // err ≤ (tol_int − Σ accepted err)·h/(1 − s)
    Global,     // as Budget, accepting err ≤ (tol − |δ|)·h/(1 − s) with δ the propagated
                // global error; a vertex whose δ leaves < 5% of tol starts again under Kept
};

struct ControlOutcome {
    double evaluations = 0;
    double error = 0;    // against the truth
    double estimate = 0; // |δ|: the local estimates carried to the end by the first variation
    bool fellBack = false;
};

ControlOutcome control(const Flow& flow, Method method, Control rule, const dvec3& x0, const dvec3& truth, double tol) {
    const kernel::SolverSettings& k = flow.settings();
    const bool vertexLimit = methodTraits(method).vertexStepLimit;
    const double order = double(methodTraits(method).estimateOrder);
    ControlOutcome out;
    for (int pass = 0; pass < 2; ++pass) {
        const Control r = pass == 0 ? rule : Control::Kept;
        const bool planned = r != Control::Kept;
        auto limit = [&](const dvec3& x, double s, const dvec3& k1) {
            return vertexLimit ? flow.stepLimit(x, s, k1) : double(k.hMax);
        };
        dvec3 x = x0, k1 = flow.velocity(x0, 0.0), delta(0.0);
        double s = 0.0, spent = 0.0;
        out.evaluations += 1;
        double h = vertexLimit ? (r == Control::EqualToEnd ? 1.0 : 0.5) * limit(x, s, k1) : double(k.h0);
        bool restart = false;
        for (int attempt = 0; attempt < 64 && s < 1.0; ++attempt) {
            h = std::min(h, limit(x, s, k1));
            const double rest = 1.0 - s;
            const double step = planned ? rest / std::ceil(rest / h * 0.9999) : (h >= rest * 0.9999 ? rest : h);
            const Flow::Attempt a = flow.attempt(method, x, s, step, k1);
            out.evaluations += a.evaluations;
            // Every rule carries δ, so that Kept reports how well it tracks the true error.
            const dvec3 carried = delta + step * flow.jacobianTimes(x, s, delta);
            double allowed = k.tolerance * step;
            if (r == Control::Budget) allowed = std::max(0.0, k.tolerance - spent) * step / rest;
            if (r == Control::Global) {
                const double room = tol - glm::length(carried);
                if (room < 0.05 * tol) {
                    restart = true;
                    break;
                }
                allowed = room * step / rest;
            }
            const double error = glm::length(a.error);
            const bool accepted = error <= allowed || step <= k.hMin;
            if (accepted) {
                x = a.y;
                s = step >= rest * 0.9999 ? 1.0 : s + step;
                spent += error;
                delta = carried + a.error;
                k1 = a.fsal ? a.kEnd : flow.velocity(x, s);
                if (!a.fsal && s < 1.0) out.evaluations += 1;
            }
            const double factor = error > 0 ? k.safety * std::pow(allowed / error, 1.0 / order) : k.growMax;
            h = std::max(double(k.hMin), step * std::clamp(factor, double(k.shrinkMin), accepted ? double(k.growMax) : 1.0));
        }
        if (!restart) {
            out.error = glm::length(x - truth);
            out.estimate = glm::length(delta);
            return out;
        }
        out.fellBack = true;
    }
    return out;
}

// What the embedded estimates say about the final error on the key sphere's ring:
// per vertex, n equal DP45 steps' true error over the sum of their estimates, and
// the fewest steps after which every longer plan (up to 6) stays within tol (the
// oracle without lucky cancellations).
void estimateSpread(const Move& move, double tol) {
    const ToolMotion& tool = move.tools.front();
    const Flow flow(move, SolverOptions{.method = Method::Dp45});
    const Mesh sphere = icosphere(3, glm::vec3(tool.origin), 0.3f * float(tool.outerRadius));
    const GroundTruth truth = groundTruth(move, sphere.positions);
    constexpr int kLongest = 6;
    std::vector<double> ratios[kLongest + 1];
    double monotone = 0;
    int oracleCounts[kLongest + 2] = {};
    for (size_t i = 0; i < sphere.positions.size(); ++i) {
        int fewest = kLongest + 1, first = kLongest + 1;
        for (int n = kLongest; n >= 1; --n) {
            dvec3 x(sphere.positions[i]), k1 = flow.velocity(x, 0.0);
            double estimates = 0;
            for (int k = 0; k < n; ++k) {
                const Flow::Attempt a = flow.attempt(Method::Dp45, x, double(k) / n, 1.0 / n, k1);
                estimates += glm::length(a.error);
                x = a.y;
                k1 = a.kEnd;
            }
            const double error = glm::length(x - truth.positions[i]);
            ratios[n].push_back(error / estimates);
            if (error <= tol && fewest == n + 1) fewest = n;
            if (error <= tol) first = n;
        }
        ++oracleCounts[first];
        monotone += 1 + 6 * fewest;
    }
    std::printf("\ndp45 at 0.30 radii: n equal steps, true error / Σ estimates (min, 5%%, median, 95%%, max)\n");
    for (int n = 3; n <= 5; ++n) {
        std::vector<double>& r = ratios[n];
        std::sort(r.begin(), r.end());
        auto at = [&](double q) { return r[size_t(q * double(r.size() - 1))]; };
        std::printf("  n = %d: %.2f %.2f %.2f %.2f %.2f\n", n, at(0), at(0.05), at(0.5), at(0.95), at(1));
    }
    std::printf("  fewest equal steps within tol, share of vertices by count:");
    for (int n = 1; n <= kLongest + 1; ++n)
        std::printf(" %d: %.0f%%", n, 100.0 * oracleCounts[n] / double(sphere.positions.size()));
    std::printf("\n  fewest equal steps within tol for every longer plan: %.1f evaluations\n",
                monotone / double(sphere.positions.size()));
}

void compareControllers(const Move& move, double tol) {
    const ToolMotion& tool = move.tools.front();
    const Control rules[] = {Control::Kept, Control::EqualToEnd, Control::Budget, Control::Global};
    std::printf("\ncontrollers, evaluations per vertex / worst error (voxel); |δ|/error over vertices with error > tol/5\n");
    std::printf("%-7s %-6s %-15s %-16s %-16s %-16s %-16s %s\n", "method", "radii", "kept", "|δ|/error",
                "equal to end", "budget", "global", "fell back");
    struct Ring {
        float radius;
        Mesh sphere;
        GroundTruth truth;
    };
    std::vector<Ring> rings;
    for (float r : kRings) {
        Mesh sphere = icosphere(3, glm::vec3(tool.origin), r * float(tool.outerRadius));
        GroundTruth truth = groundTruth(move, sphere.positions);
        rings.push_back({r, std::move(sphere), std::move(truth)});
    }
    for (Method method : {Method::Dp45, Method::Bs32, Method::Rk4Double}) {
        SolverOptions options;
        options.method = method;
        options.tolerance = tol;
        const Flow flow(move, options);
        for (float ring : {0.3f, 0.0f}) { // the key sphere's radius, then the whole accuracy set
            double evaluations[4] = {}, worst[4] = {}, fellBack = 0, count = 0;
            double ratioLow = 1e30, ratioHigh = 0;
            for (const Ring& r : rings) {
                if (ring > 0.0f && r.radius != ring) continue;
                const Mesh& sphere = r.sphere;
                const GroundTruth& truth = r.truth;
                for (size_t i = 0; i < sphere.positions.size(); ++i) {
                    for (int c = 0; c < 4; ++c) {
                        const ControlOutcome o = control(flow, method, rules[c], dvec3(sphere.positions[i]),
                                                         truth.positions[i], tol);
                        evaluations[c] += o.evaluations;
                        worst[c] = std::max(worst[c], o.error);
                        if (c == 0 && o.error > 0.2 * tol) {
                            ratioLow = std::min(ratioLow, o.estimate / o.error);
                            ratioHigh = std::max(ratioHigh, o.estimate / o.error);
                        }
                        if (c == 3 && o.fellBack) fellBack += 1;
                    }
                    count += 1;
                }
            }
            char spread[32] = "no error > tol/5";
            if (ratioHigh > 0) std::snprintf(spread, sizeof spread, "%.2f–%.2f", ratioLow, ratioHigh);
            std::printf("%-7s %-6s %5.1f / %-6.3f %-16s", std::string(methodName(method)).c_str(),
                        ring > 0.0f ? "0.30" : "all", evaluations[0] / count, worst[0], spread);
            for (int c = 1; c < 4; ++c) std::printf(" %5.1f / %-7.3f", evaluations[c] / count, worst[c]);
            std::printf(" %.1f%%\n", 100.0 * fellBack / count);
        }
    }
}

void run(const std::filesystem::path& strokePath, double tol, bool controllers) {
    Stroke stroke = readStroke(strokePath);
    for (auto& tool : stroke.tools) tool.kind = ToolKind::Kelvinlet;
    const Move move = moveToolMotion(stroke);
    const Flow flow(move);
    const ToolMotion& tool = move.tools.front();
    const double scales[] = {1.0, 0.5, 0.35};

    std::printf("%s as a Kelvinlet, tol %.3g voxel; evaluations per vertex / worst error (voxel)\n",
                strokePath.string().c_str(), tol);
    std::printf("%-6s %-16s %-16s %-16s %-16s %-16s\n", "radii", "dp45 equal", "dp45 exact ×1", "×0.5", "×0.35",
                "bs32 equal");
    double meanEqual = 0, meanBsEqual = 0, meanExact[3] = {}, worstExact[3] = {};
    for (float ring : kRings) {
        const Mesh sphere = icosphere(3, glm::vec3(tool.origin), ring * float(tool.outerRadius));
        const GroundTruth truth = groundTruth(move, sphere.positions);
        const double count = double(sphere.positions.size());
        double equal = 0, bsEqual = 0, exact[3] = {}, worst[3] = {};
        for (size_t i = 0; i < sphere.positions.size(); ++i) {
            const dvec3 x0(sphere.positions[i]);
            for (Scheme scheme : {Scheme::Dp45, Scheme::Bs32}) {
                int n = 1;
                while (n < kMaxEqualSteps &&
                       glm::length(flow.equalSteps(scheme, x0, n) - truth.positions[i]) > tol)
                    ++n;
                (scheme == Scheme::Dp45 ? equal : bsEqual) += 1 + describe(scheme).stagesPerStep * n;
            }
            for (int k = 0; k < 3; ++k) {
                const Outcome o = exactLocalControl(flow, Scheme::Dp45, x0, truth.positions[i], tol * scales[k]);
                exact[k] += o.evaluations;
                worst[k] = std::max(worst[k], o.worst);
            }
        }
        std::printf("%-6.2f %-16.1f", ring, equal / count);
        for (int k = 0; k < 3; ++k) std::printf(" %5.1f / %-7.3f", exact[k] / count, worst[k]);
        std::printf(" %-16.1f\n", bsEqual / count);
        meanEqual += equal / count / std::size(kRings);
        meanBsEqual += bsEqual / count / std::size(kRings);
        for (int k = 0; k < 3; ++k) {
            meanExact[k] += exact[k] / count / std::size(kRings);
            worstExact[k] = std::max(worstExact[k], worst[k]);
        }
    }
    std::printf("%-6s %-16.1f", "all", meanEqual);
    for (int k = 0; k < 3; ++k) std::printf(" %5.1f / %-7.3f", meanExact[k], worstExact[k]);
    std::printf(" %-16.1f\n", meanBsEqual);
    if (controllers) {
        compareControllers(move, tol);
        estimateSpread(move, tol);
    }
}

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    const std::filesystem::path stroke =
        argc > 1 ? std::filesystem::path(argv[1])
                 : std::filesystem::path(SCULPTFLOW_DEFAULT_STROKES_DIR) / "test0_righthandstroke.bin";
    const double tol = argc > 2 ? std::atof(argv[2]) : 0.1;
    const bool controllers = argc > 3 && std::string(argv[3]) == "--controllers";
    if (argc > 4 || (argc > 3 && !controllers)) {
        std::fprintf(stderr, "usage: sculptflow_step_bounds [stroke.bin|.json] [tol] [--controllers]\n");
        return 2;
    }
    if (!(tol > 0.0)) {
        std::fprintf(stderr, "sculptflow_step_bounds: the tolerance must be a positive number of voxels\n");
        return 2;
    }
    if (!std::filesystem::is_regular_file(stroke)) {
        std::fprintf(stderr, "sculptflow_step_bounds: no stroke at %s (pass one: a .bin or .json)\n",
                     stroke.string().c_str());
        return 2;
    }
    try {
        sculptflow::run(stroke, tol, controllers);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sculptflow_step_bounds: %s\n", e.what());
        return 1;
    }
    return 0;
}
