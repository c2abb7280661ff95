// Loading a command's mesh and stroke, or the built-in defaults, in voxel space,
// with the run's mode (move tool or continuous), mirror symmetry and mask.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <sculptflow/context.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>
#include <sculptflow/stroke.hpp>

namespace sculptflow::cli {

// The mesh a command deforms when it is given no --mesh.
enum class BuiltInMesh {
    Sphere, // defaultMesh: the 10,242-vertex icosphere around the tool tip (validate, render, bench)
    Sculpt, // sculptMesh: the 655,362-vertex lumpy blob the stroke grabs part of (deform, the viewer)
};

struct MoveInputArgs {
    std::string meshPath;   // empty: the built-in mesh below
    BuiltInMesh builtIn = BuiltInMesh::Sphere; // --built-in where a command offers it
    std::string strokePath; // empty: the built-in stroke
    std::optional<double> voxelSize;
    std::string kind;       // "" or one of toolKindChoices()
    std::string profile;    // "" or a Kelvinlet profile for every Kelvinlet tool
    std::string falloff;    // "" or a falloff for every affine-kind tool
    std::string pipelineCache; // empty: none

    // Set by addMoveModeOptions (spec §2, §3.4, §3.5); the defaults change nothing.
    std::string mode = "move";                 // "move" or "continuous"
    std::string maskPath;                      // empty: the PLY mesh's mask property, if any
    std::optional<std::string> symmetryAxes;   // "x", "xz", … or "none"; unset: the stroke's
    std::optional<std::string> symmetryOrigin; // "X,Y,Z", world units; unset: the stroke's

    bool strict = false; // --strict: unit warnings (unit_checks.hpp) and flagged vertices are errors
    std::optional<int> maxAttempts; // --max-attempts; unset: plannedAttempts for the method and --tol
};

// A likely unit mistake in the inputs (unit_checks.hpp).
struct UnitWarning {
    std::string code;    // stable, as in the JSON: no_voxel_size, out_of_reach, scale_mismatch, voxel_scale
    std::string message; // for people: what was found and what to check
};

// Adds --mesh, --stroke, --voxel-size, --kind, --profile, --falloff, --pipeline-cache
// and --strict to a subcommand.
void addMoveInputOptions(CLI::App& command, MoveInputArgs& args);

// Adds --built-in sphere|sculpt (the mesh used without --mesh), defaulting to args.builtIn.
void addBuiltInMeshOption(CLI::App& command, MoveInputArgs& args);

// "symmetry x about (X, Y, Z)", as the inputs' description says it.
std::string describeSymmetry(const Symmetry& symmetry);

// Adds --mode, --mask, --symmetry and --symmetry-origin (deform, validate, render).
void addMoveModeOptions(CLI::App& command, MoveInputArgs& args);

// The GPU context of a command: SCULPTFLOW_VALIDATION and SCULPTFLOW_DEVICE
// apply, and --pipeline-cache.
ContextOptions gpuContextOptions(const MoveInputArgs& args);

// The method table's names: --method's choices.
std::vector<std::string> toolKindChoices(); // the kind table's names, in row order
std::vector<std::string> methodChoices();

// Adds --method (one of methodChoices(); `note` is appended to its help), --tol and
// --steps (rk4's fixed step count).
void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, std::optional<int>& steps,
                      const std::string& note = "");
// The same without --steps, for a program that has no fixed-step mode (the viewer).
void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, const std::string& note = "");

// What one run solves: the moves in turn from `start` (one move in move-tool
// mode, one a segment in continuous mode), each vertex's displacement scaled by
// `mask` (empty: none). Views into MoveInputs or the caller's arrays.
struct MoveRun {
    MoveMode mode = MoveMode::Move;
    std::span<const Move> segments;
    std::span<const glm::vec3> start; // voxels
    std::span<const float> mask;
};

struct MoveInputs {
    Mesh mesh;                       // input units
    Stroke stroke;                   // with --symmetry / --symmetry-origin applied
    StrokeReadNotes strokeNotes;     // what the stroke's reader noticed (none for the built-in)
    Move move;                       // voxels: the move-tool motion, mirrored copies included
    std::vector<glm::vec3> voxels;   // mesh positions in voxels
    std::string description;         // what was loaded, for the summary

    MoveMode mode = MoveMode::Move;
    std::vector<Move> segments;      // what the mode solves: {move}, or continuousMotions(stroke)
    std::vector<float> mask;         // one value a vertex, or empty
    std::string maskSource;          // where the mask came from, for the summary; empty: none
    std::vector<UnitWarning> warnings; // printed to stderr as loaded (errors under --strict)
    std::optional<int> maxAttempts;  // --max-attempts

    MoveRun run() const { return {mode, segments, voxels, mask}; }
};

// The solver options of --method, --tol and --steps for these inputs. rk4 takes
// fixed steps without error control, so --tol cannot hold it: it is refused
// without --steps, and --steps is refused for the adaptive methods. Its attempt
// budget grows to fit the steps (one set a tool end); an adaptive method's is
// --max-attempts, or planned from --tol (plannedAttempts). Throws sculptflow::Error.
SolverOptions methodOptions(const std::string& method, double tolerance, std::optional<int> steps,
                            const MoveInputs& in);

// Throws sculptflow::Error for unreadable or invalid inputs, naming the option
// or file and the value, before any work is done. Unit warnings are printed to
// stderr and kept in `warnings`; under args.strict the first one throws.
MoveInputs loadMoveInputs(const MoveInputArgs& args);

} // namespace sculptflow::cli
