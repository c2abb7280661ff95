// The statistics JSON of a run, shared by `deform --stats` and `validate --json`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <nlohmann/json.hpp>

#include <sculptflow/solve_report.hpp>
#include "move_inputs.hpp"

namespace sculptflow::cli {

// {"min_step_clamped", "iteration_cap", "non_finite", "culled", "folded"}: vertex
// counts, summed over the segments in continuous mode (a vertex flagged twice
// counts twice; "folded" is 0 unless the volume change was computed).
nlohmann::json flagsJson(const SolveReport& report);

// The volume change J of a run's end map over every vertex (culled and frozen
// ones at 1): min, max and mean over the finite values, and the folded count,
// J ≤ 0 or NaN (the FOLDED flag's rule, applied to the end map itself, so that
// in continuous mode it counts vertices, not segments).
struct VolumeChangeSummary {
    double min = 1.0, max = 1.0, mean = 1.0; // NaN when no value is finite
    size_t folded = 0;
};
VolumeChangeSummary summarizeVolumeChanges(std::span<const float> volumeChanges);

// {"min", "max", "mean", "folded"} (min, max and mean null when none is finite).
nlohmann::json volumeChangeJson(const VolumeChangeSummary& summary);

// The most evaluations one vertex took over the whole run (statistics summed over
// the segments, as RunSolution has them).
uint32_t maxRunEvaluations(std::span<const VertexStatistics> statistics);

// One convention, per vertex over the whole run (summed over the segments in
// continuous mode), and said in "per": {"per", "mean", "max" (maxRunEvaluations),
// "max_in_one_segment", "total", "per_segment": [total of each segment]}.
nlohmann::json evaluationsJson(const SolveReport& whole, std::span<const SolveReport> segments,
                               uint32_t maxPerVertex);

// {"mode", "segments", "tools" (per move, mirrored copies included), "symmetry"
// ({"axes", "origin"} in world units, or null), "mask" ({"source", "frozen",
// "partial"} or null), "warnings" ([{"code", "message"}], unit_checks.hpp)}.
nlohmann::json runJson(const MoveInputs& in);

} // namespace sculptflow::cli
