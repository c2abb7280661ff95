// The tunables file of `sculptflow tune --params P.json`: solver options without a recompile.
#pragma once

#include <filesystem>

#include <sculptflow/solver_options.hpp>

namespace sculptflow::cli {

// Reads {"method", "tol", "fixed_steps", "h0", "h_min", "h_max", "safety", "shrink_min",
// "grow_max", "max_iterations", "max_tool_motion_per_step"}, each optional, over `base`.
// rk4 takes fixed steps: a file that ends on method rk4 must give fixed_steps when
// `stepsRequired` (the command line gave rk4 without --steps) or when it chose rk4
// itself, and fixed_steps with another method is refused. Without max_iterations,
// fixed_steps grows the attempt budget to fit its steps at every tool end.
// Throws sculptflow::Error naming the file and the key for anything invalid.
SolverOptions readTuningParams(const std::filesystem::path& path, SolverOptions base, bool stepsRequired = false);

} // namespace sculptflow::cli
