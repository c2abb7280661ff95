// Builds the shared kernel's float parameters from a move computed in double.
#pragma once

#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>
#include "kernel.hpp"

namespace sculptflow {

// One tool's float parameters, with the Kelvinlet loads calibrated (spec §3.2).
kernel::Tool makeKernelTool(const ToolMotion& motion);

// The step limit that maxToolMotionPerStep sets for these tools (1 when none applies).
double toolStepLimit(const Move& move, const SolverOptions& options);

// The step controller's safety factor for a requested one: the method table's
// calibration (the tolerance's is the planner's, tolerance_plan.hpp).
double controllerSafety(const SolverOptions& options);

// The kernel state for one dispatch: tools, settings, method and attempt budget.
// Throws sculptflow::Error for invalid options or more than SF_MAX_TOOLS tools.
kernel::Kernel makeKernel(const Move& move, const SolverOptions& options);

// Segment `index` of a continuous solve of `count` segments held to
// options.tolerance (the stroke's): makeKernel at segmentOptions, and, for a method
// with an error bound, each vertex's bound carried in from the segments before
// (Kernel::carryBound) and held to the share of the stroke's tolerance that the
// segments so far may spend, (index + 1)/count of it (docs/error-bound.md).
kernel::Kernel makeSegmentKernel(const Move& segment, const SolverOptions& options, size_t index, size_t count);

} // namespace sculptflow
