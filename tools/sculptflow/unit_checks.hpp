// Unit sanity for a command's inputs: a mesh and a stroke in different units, or a
// voxel size in the wrong unit, solve "fine" and change nothing (or the wrong
// thing), so they are named as warnings, or errors under --strict.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <sculptflow/solve_report.hpp>
#include "move_inputs.hpp"

namespace sculptflow::cli {

// Mesh extent against the tool's reach: past this factor either way they are
// taken for different units (cm against m is 100; a detail brush on a whole
// sculpt stays well under it).
inline constexpr double kScaleMismatchFactor = 1000.0;
// A tool's outer radius in voxels outside this range means a voxel size in other units.
inline constexpr double kMinRadiusVoxels = 0.5;
inline constexpr double kMaxRadiusVoxels = 1e5;

// The unit warnings for loaded inputs, before any solve; voxelSizeOption: --voxel-size was given.
std::vector<UnitWarning> unitWarnings(const MoveInputs& in, bool voxelSizeOption);

// Vertices the solver integrated (not culled) in at least one segment.
size_t integratedVertices(std::span<const VertexStatistics> statistics);

// After a solve: adds an out_of_reach warning to in.warnings (unless one is there)
// when the solver integrated no vertex, and reports it (throws under `strict`).
void warnIfAllCulled(MoveInputs& in, size_t integrated, bool strict);

// Prints each warning to stderr as "sculptflow: warning: ..."; under `strict`
// throws sculptflow::Error naming the first one instead.
void reportUnitWarnings(const std::vector<UnitWarning>& warnings, bool strict);

// [{"code", "message"}, ...]
nlohmann::json warningsJson(const std::vector<UnitWarning>& warnings);

} // namespace sculptflow::cli
