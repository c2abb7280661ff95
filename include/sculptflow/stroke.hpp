// A recorded or scripted stroke: the poses of one or more tools.
#pragma once

#include "export.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace sculptflow {

// In the order of the kind table's rows (its values are SfToolKind's).
enum class ToolKind {
    Kelvinlet,  // regularized Kelvinlet, shaped by a KelvinletProfile
    Affine,     // affine deformer, each vertex's time truncated by its falloff
    AffineFlow, // the fold-free affine flow: the falloff is part of the field
};

// How a Kelvinlet decays: the faster, the smaller its reach.
enum class KelvinletProfile { BiScale, TriScale, Laplacian, BiLaplacian };

// The falloff profile w(u) of the affine kinds, u = 1 at r_in and 0 at r_out.
enum class Falloff { Smooth, Smoother, Linear, Sharp };

// The spec's names ("kelvinlet", "affine", "affine-flow"; "bi-scale", ...; "smooth", ...)
// and their inverses (nullopt for an unknown name). The *Choices strings list the
// valid names for error messages.
SCULPTFLOW_API std::vector<ToolKind> allToolKinds(); // every kind, in enum order
SCULPTFLOW_API std::string_view toolKindName(ToolKind kind);
SCULPTFLOW_API std::optional<ToolKind> parseToolKind(std::string_view name);
SCULPTFLOW_API std::string_view kelvinletProfileName(KelvinletProfile profile);
SCULPTFLOW_API std::optional<KelvinletProfile> parseKelvinletProfile(std::string_view name);
SCULPTFLOW_API std::string_view falloffName(Falloff falloff);
SCULPTFLOW_API std::optional<Falloff> parseFalloff(std::string_view name);
inline constexpr std::string_view kToolKindChoices = "\"kelvinlet\", \"affine\" or \"affine-flow\"";
inline constexpr std::string_view kKelvinletProfileChoices =
    "\"bi-scale\", \"tri-scale\", \"laplacian\" or \"bi-laplacian\"";
inline constexpr std::string_view kFalloffChoices = "\"smooth\", \"smoother\", \"linear\" or \"sharp\"";

// One tool pose, in world units. orientation is a unit quaternion (glm stores w, x, y, z).
struct Pose {
    glm::dvec3 position{0.0};
    glm::dquat orientation{1.0, 0.0, 0.0, 0.0};
    double scale = 1.0;
    double time = 0.0; // seconds; strictly increasing along a stroke
};

// One tool (one hand) over a stroke. Radii in world units.
struct ToolStroke {
    ToolKind kind = ToolKind::Kelvinlet;
    double innerRadius = 0.0;
    double outerRadius = 0.0;
    double stiffness = 1.0;       // μ
    double compressibility = 0.5; // ν, Poisson ratio in [0, 0.5]
    std::vector<Pose> poses;      // at least two
    KelvinletProfile profile = KelvinletProfile::BiScale; // Kelvinlet only: another kind refuses a non-default one
    Falloff falloff = Falloff::Smooth;                    // affine kinds only: a Kelvinlet refuses a non-default one
};

// Gives `tool` another kind, resetting the profile or falloff the new kind cannot carry.
SCULPTFLOW_API void setToolKind(ToolStroke& tool, ToolKind kind);

// Mirror symmetry: each subset of the axes, the empty one included,
// gives a reflected copy of every tool, so x gives 2 copies, xy 4 and xyz 8.
enum SymmetryAxis : uint32_t { kSymmetryX = 1u, kSymmetryY = 2u, kSymmetryZ = 4u };
struct Symmetry {
    uint32_t axes = 0;      // SymmetryAxis bits; 0: no symmetry
    glm::dvec3 origin{0.0}; // a point on every mirror plane, world units
};

struct Stroke {
    double voxelSize = 1.0; // world units per voxel
    std::vector<ToolStroke> tools;
    Symmetry symmetry;
};

// Tools one move may hold, mirrored copies included (two hands, xyz symmetry).
inline constexpr size_t kMaxTools = 16;

// "xz" (or "XZ") → kSymmetryX | kSymmetryZ: a non-empty subset of "xyz" in either case, each letter once;
// nullopt otherwise. symmetryAxesName is its inverse ("" for 0).
SCULPTFLOW_API std::optional<uint32_t> parseSymmetryAxes(std::string_view axes);
SCULPTFLOW_API std::string symmetryAxesName(uint32_t axes);

// The voxel size the recording app used for the .bin strokes.
inline constexpr double kRecordedVoxelSize = 0.0013;

// What a reader noticed but did not refuse, for the caller to show.
struct StrokeReadNotes {
    // The file gave no voxel_size, so voxelSize is the default of 1 world unit: a
    // tolerance in voxels then means world units, which callers may warn about.
    bool voxelSizeDefaulted = false;
    // What a reader fixed rather than refused (a quaternion off unit length by up to
    // 1e-2, normalised), naming the file and field.
    std::vector<std::string> warnings;
};

struct StrokeReadOptions {
    double binVoxelSize = kRecordedVoxelSize;  // .bin files carry no voxel size
    std::optional<ToolKind> kindOverride;      // replaces the recorded kind of every tool when set
    StrokeReadNotes* notes = nullptr;          // when set, the reader fills it in
};

// Reads a stroke as the spec's JSON (.json) or the recorded binary format (.bin),
// chosen by extension. Throws sculptflow::Error naming the file and the problem;
// a malformed file never yields a partial stroke.
SCULPTFLOW_API Stroke readStroke(const std::filesystem::path& path, const StrokeReadOptions& options = {});
SCULPTFLOW_API Stroke readStrokeJson(const std::filesystem::path& path, const StrokeReadOptions& options = {});
SCULPTFLOW_API Stroke readStrokeBin(const std::filesystem::path& path, const StrokeReadOptions& options = {});

// The same from bytes in memory (an archive, a network message, a fuzzer);
// `name` only names the source in errors.
SCULPTFLOW_API Stroke parseStrokeJson(const std::string& text, const std::filesystem::path& name,
                                      const StrokeReadOptions& options = {});
SCULPTFLOW_API Stroke parseStrokeBin(const std::string& bytes, const std::filesystem::path& name,
                      const StrokeReadOptions& options = {});

// Writes the spec's JSON form (round-trips through readStrokeJson).
SCULPTFLOW_API void writeStrokeJson(const Stroke& stroke, const std::filesystem::path& path);
// One tool as the recorded .bin (f32; no voxel size); refuses what it cannot hold.
SCULPTFLOW_API void writeStrokeBin(const Stroke& stroke, const std::filesystem::path& path);

// Checks the invariants every reader enforces (but inner_radius > outer_radius, which
// only files refuse, except for an affine flow, whose field needs a falloff shell);
// throws sculptflow::Error naming `source` and the offending field.
SCULPTFLOW_API void validateStroke(const Stroke& stroke, const std::string& source);

} // namespace sculptflow
