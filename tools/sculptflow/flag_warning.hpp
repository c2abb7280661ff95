// What a run did not deliver: more than a small share of the vertices in reach
// flagged (spec §4), said on stderr with what to change, and an error under --strict.
#pragma once

#include <cstddef>
#include <string>

#include <sculptflow/solve_report.hpp>
#include <sculptflow/solver_options.hpp>

namespace sculptflow::cli {

// The share of the vertices in reach that may be flagged before a run says so.
inline constexpr double kFlaggedShareWarning = 0.01;

// `flagged` of the `inReach` vertices (those integrated) carry a flag other than
// CULLED; `report` tells which. Over kFlaggedShareWarning, prints a warning naming
// the flags and what to change (--max-attempts, --tol, --method); under `strict`
// throws sculptflow::Error instead. `device` is the name of what solved it: on
// llvmpipe the cap's advice names that driver's own loop budget too.
void reportFlaggedShare(const SolveReport& report, size_t flagged, size_t inReach, const SolverOptions& options,
                        const std::string& device, bool strict);

} // namespace sculptflow::cli
