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
//
// Usage: sculptflow_step_bounds [stroke.bin|.json] [tol]   (default: recorded test0, 0.1)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "default_case.hpp"
#include "ground_truth.hpp"
#include "kernel.hpp"
#include "kernel_tools.hpp"
#include "stroke.hpp"

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
    explicit Flow(const Move& move) : kernel_(makeKernel(move, SolverOptions{})) {}

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
        const dvec3 k2 = velocity(x + h * (1.0 / 5 * k1), s + h / 5);
        const dvec3 k3 = velocity(x + h * (3.0 / 40 * k1 + 9.0 / 40 * k2), s + 3 * h / 10);
        const dvec3 k4 = velocity(x + h * (44.0 / 45 * k1 - 56.0 / 15 * k2 + 32.0 / 9 * k3), s + 4 * h / 5);
        const dvec3 k5 = velocity(x + h * (19372.0 / 6561 * k1 - 25360.0 / 2187 * k2 + 64448.0 / 6561 * k3 -
                                           212.0 / 729 * k4),
                                  s + 8 * h / 9);
        const dvec3 k6 = velocity(x + h * (9017.0 / 3168 * k1 - 355.0 / 33 * k2 + 46732.0 / 5247 * k3 +
                                           49.0 / 176 * k4 - 5103.0 / 18656 * k5),
                                  s + h);
        return x + h * (35.0 / 384 * k1 + 500.0 / 1113 * k3 + 125.0 / 192 * k4 - 2187.0 / 6784 * k5 +
                        11.0 / 84 * k6);
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

private:
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

void run(const std::filesystem::path& strokePath, double tol) {
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
}

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    const std::filesystem::path stroke =
        argc > 1 ? std::filesystem::path(argv[1])
                 : std::filesystem::path(SCULPTFLOW_DEFAULT_STROKES_DIR) / "test0_righthandstroke.bin";
    const double tol = argc > 2 ? std::atof(argv[2]) : 0.1;
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
        sculptflow::run(stroke, tol);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sculptflow_step_bounds: %s\n", e.what());
        return 1;
    }
    return 0;
}
