// Seeded, deterministic generator of hard, realistic move-tool strokes and the
// meshes they act on, for the accuracy sweep (issue 29): evidence from strokes
// the solver was not tuned on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <sculptflow/mesh.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/stroke.hpp>
#include "src/kind_table.hpp"

namespace sculptflow::cli {

// What a seed's first tool is: a kind with one Kelvinlet profile or falloff. The
// seed picks the family (seed % kStrokeFamilies) so that any run of consecutive
// seeds covers every family evenly: a kind (the kind table's row) with one of its
// 4 profiles or falloffs.
inline constexpr int kShapesPerKind = 4;
inline constexpr int kStrokeFamilies = kernel::kToolKindCount * kShapesPerKind;

struct GeneratedCase {
    uint64_t seed = 0;
    Stroke stroke;                 // world units, voxel size 0.0013 m as the recordings
    Mesh mesh;                     // world units; mesh.mask set where the case carries a mask
    MoveMode mode = MoveMode::Move;
    std::string family;            // "kelvinlet/tri-scale", "affine-flow/smooth", …
    std::string description;       // the parameters drawn, one line
};

// The family of a seed, as GeneratedCase::family names it.
std::string strokeFamily(uint64_t seed);

// The case of a seed: the same on every platform and run (no std distributions).
// Draws: one or two hands (meeting or apart, the second with its own profile or
// falloff, sometimes its own kind), radii from 10 to 200 voxels and inner/outer
// ratios from 0 to beyond 1, pulls of up to 250 voxels along a bent path, turns
// up to 179.9°, scale ratios 0.55–1.8, μ and ν at and between their extremes,
// 2–7 poses spaced unevenly (fast and slow), mirror symmetry, masks, and spheres
// of vertices around and across the tools' reach. Odd families-rounds run in
// continuous mode.
GeneratedCase generateCase(uint64_t seed);

// Writes <dir>/seed-<seed>.json (the stroke) and <dir>/seed-<seed>.ply (the mesh,
// binary, with its mask), which `sculptflow validate --stroke … --mesh …` runs as
// is. Returns the stroke's path.
std::filesystem::path writeCase(const GeneratedCase& generated, const std::filesystem::path& dir);

// The `sculptflow validate` command line that reruns a written case.
std::string validateCommand(const GeneratedCase& generated, const std::filesystem::path& dir,
                            std::string_view method, double tolerance, bool verify);

} // namespace sculptflow::cli
