// The solver's methods and tunables, as the public API takes them.
#pragma once

#include "export.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sculptflow {

// The rows of the method table (docs/solver.md), in its order:
// what each method is, its name and its calibrations are held there once.
enum class Method { Rk4, Rk4Double, Bs32, Dp45, Tsit5 };

// Defaults follow the spec: tolerance 0.1 voxel, h0 0.1, h_min 1e-3, h_max 1.
struct SolverOptions {
    Method method = Method::Bs32;
    double tolerance = 0.1;   // voxels, over the whole move (s ∈ [0, 1])
    double h0 = 0.1;          // first step, in normalised time, of a method without a per-vertex
                              // step limit (no adaptive one: each starts at a share of its own)
    double hMin = 1e-3;       // a step this small is accepted whatever its error
    double hMax = 1.0;
    double safety = 0.9;
    double shrinkMin = 0.2;   // h_new/h is kept within [shrinkMin, growMax]
    double growMax = 5.0;
    // Largest step, as the Kelvinlet tool's motion in one step: its travel in radii
    // plus the radians it turns plus its log-scale change.
    double maxToolMotionPerStep = 1.5;
    int maxIterations = 64;   // attempts per vertex's pass, at most 65536 (a push constant on the GPU)
    int fixedSteps = 1;       // Method::Rk4: steps per segment
    // A debug output: each vertex's volume change J = det(∂x/∂x0) of the end map,
    // integrated along its path (flag FOLDED where J ≤ 0). Costs three divergence
    // evaluations a step; the renderer's path never computes it. Not for a move that
    // mixes truncated affine tools with other kinds (an error names it).
    bool volumeChange = false;
    // Twice the error bound's margin, and an independent check where the bound
    // cannot give it: the default path aims the bound at half the tolerance, and a
    // vertex whose bound is still over that after the second pass (or that has
    // none) is solved again by a checking pass at an eighth of the tolerance and
    // half the step limits, whose position is the result; where the two end more
    // than half the tolerance apart, or the rounding they share is as large, it is
    // flagged UNVERIFIED. What the bound flags stays flagged. 1–1.8 times the
    // evaluations: for validation, tuning and headless solves, not the renderer's
    // frame (docs/accuracy-sweep.md).
    bool verify = false;
};

// Throws sculptflow::Error naming the first invalid parameter.
SCULPTFLOW_API void validateSolverOptions(const SolverOptions& options);

// Continuous mode holds a stroke of `segments` segments to `tolerance` voxels by
// solving each to an equal share. The one place this split is written.
constexpr double segmentTolerance(double tolerance, size_t segments) {
    return tolerance / double(segments > 1 ? segments : 1);
}

// options with the tolerance of each of `segments` segments.
SCULPTFLOW_API SolverOptions segmentOptions(const SolverOptions& options, size_t segments);

SCULPTFLOW_API std::string_view methodName(Method method); // "rk4", "rk4dbl", "bs32", "dp45", ...
SCULPTFLOW_API std::optional<Method> parseMethod(std::string_view name);

// Every method, in the table's order; adaptiveOnly leaves out the fixed-step ones.
SCULPTFLOW_API std::vector<Method> allMethods(bool adaptiveOnly = false);
// False for a fixed-step method (rk4): it takes SolverOptions::fixedSteps, not the tolerance.
SCULPTFLOW_API bool isAdaptive(Method method);
// Their names for messages: "rk4, rk4dbl, bs32 or dp45".
SCULPTFLOW_API std::string methodNameList(bool adaptiveOnly = false);

// The attempts a pass of `method` needs at `tolerance`, from `atDefault` at the
// default tolerance (0.1 voxel) and looser: the error a pass accepts on, per unit
// step, grows as h^q, so the steps a pass takes grow as (0.1/tol)^(1/q) (q: 4, and
// 3 for bs32, which accepts on its own error; bs32 at 0.01: 64 → 138). For
// SolverOptions::maxIterations.
SCULPTFLOW_API int plannedAttempts(Method method, double tolerance, int atDefault = 64);

struct Move;
// The attempts a pass needs on these moves (a stroke's segments, or its one move):
// plannedAttempts(options.method, options.tolerance) (under verify, at the half of
// it that verify's default path works to), plus 1/h where the moves' step
// limit (maxToolMotionPerStep) holds a step to h < 1. A pass whose steps are the
// shorter of what the tolerance and the limit allow takes ∫ds/min(h_tol, h) ≤
// ∫ds/h_tol + 1/h of them: a long drag needs its limit's steps on top of the
// tolerance's. The CLI, the sweep and sfSolve plan their budget with it.
SCULPTFLOW_API int plannedAttempts(const SolverOptions& options, std::span<const Move> moves);

// Worst-case right-hand-side evaluations per vertex:
// maxIterations × stages + 4 per segment, one segment per distinct tool end (bs32's
// stages count the one evaluation its error bound adds). On top: for a method with
// an error bound (every adaptive one), a second pass of twice the attempts where
// that bound is over tol; with verify, a checking pass of twice the attempts
// besides (without the bound's evaluation).
SCULPTFLOW_API long worstCaseEvaluations(const SolverOptions& options, int segments = 1);

} // namespace sculptflow
