// The tunables file of `sculptflow tune --params P.json`: solver options without a recompile.
#pragma once

#include <filesystem>

#include "solver_options.hpp"

namespace sculptflow::cli {

// Reads {"method", "tol", "h0", "h_min", "h_max", "safety", "shrink_min", "grow_max",
// "max_iterations", "max_tool_motion_per_step"}, each optional, over `base`.
// Throws sculptflow::Error naming the file and the key for anything invalid.
SolverOptions readTuningParams(const std::filesystem::path& path, SolverOptions base);

} // namespace sculptflow::cli
