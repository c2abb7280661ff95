// The solver's methods and tunables (spec §4), as the public API takes them.
#pragma once

#include "export.hpp"

#include <optional>
#include <string_view>

namespace sculptflow {

enum class Method { Rk4, Rk4Double, Bs32, Dp45 };

// Defaults follow the spec: tolerance 0.1 voxel, h0 0.1, h_min 1e-3, h_max 1.
struct SolverOptions {
    Method method = Method::Bs32;
    double tolerance = 0.1;   // voxels, over the whole move (s ∈ [0, 1])
    double h0 = 0.1;          // first step, in normalised time
    double hMin = 1e-3;       // a step this small is accepted whatever its error
    double hMax = 1.0;
    double safety = 0.9;
    double shrinkMin = 0.2;   // h_new/h is kept within [shrinkMin, growMax]
    double growMax = 5.0;
    // Largest step, as the Kelvinlet tool's motion in one step: its travel in radii
    // plus the radians it turns plus its log-scale change (see kernel_tools.cpp).
    double maxToolMotionPerStep = 1.5;
    int maxIterations = 64;   // attempts per vertex; fixed per pipeline on the GPU
    int fixedSteps = 1;       // Method::Rk4: steps per segment
    // A debug output: each vertex's volume change J = det(∂x/∂x0) of the end map,
    // integrated along its path (flag FOLDED where J ≤ 0). Costs three divergence
    // evaluations a step; the renderer's path never computes it. Not for a move that
    // mixes truncated affine tools with other kinds (an error names it).
    bool volumeChange = false;
};

// Throws sculptflow::Error naming the first invalid parameter.
SCULPTFLOW_API void validateSolverOptions(const SolverOptions& options);

// Continuous mode holds a stroke of `segments` segments to options.tolerance by
// solving each at options.tolerance / segments (spec §2).
SCULPTFLOW_API SolverOptions segmentOptions(const SolverOptions& options, size_t segments);

SCULPTFLOW_API std::string_view methodName(Method method); // "rk4", "rk4dbl", "bs32", "dp45"
SCULPTFLOW_API std::optional<Method> parseMethod(std::string_view name);

// Worst-case right-hand-side evaluations per vertex (spec §4, item 3):
// maxIterations × stages + 4 per segment, one segment per distinct tool end.
SCULPTFLOW_API long worstCaseEvaluations(const SolverOptions& options, int segments = 1);

} // namespace sculptflow
