// The statistics JSON of a run, shared by `deform --stats` and `validate --json`.
#pragma once

#include <span>

#include <nlohmann/json.hpp>

#include "move_inputs.hpp"
#include "solve_report.hpp"

namespace sculptflow::cli {

// {"min_step_clamped", "iteration_cap", "non_finite", "culled"}: vertex counts,
// summed over the segments in continuous mode (a vertex flagged twice counts twice).
nlohmann::json flagsJson(const SolveReport& report);

// {"mean": per vertex over the whole run, "max": the most one vertex took in one
// segment, "total", "per_segment": [total of each segment]}.
nlohmann::json evaluationsJson(const SolveReport& whole, std::span<const SolveReport> segments);

// {"mode", "segments", "tools" (per move, mirrored copies included), "symmetry"
// ({"axes", "origin"} in world units, or null), "mask" ({"source", "frozen",
// "partial"} or null)}.
nlohmann::json runJson(const MoveInputs& in);

} // namespace sculptflow::cli
