// Loading a command's mesh and stroke, or the built-in defaults, in voxel space.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "context.hpp"
#include "mesh.hpp"
#include "motion.hpp"
#include "stroke.hpp"

namespace sculptflow::cli {

struct MoveInputArgs {
    std::string meshPath;   // empty: the built-in icosphere
    std::string strokePath; // empty: the built-in stroke
    std::optional<double> voxelSize;
    std::string kind;       // "", "kelvinlet" or "affine"
    std::string pipelineCache; // empty: none
};

// Adds --mesh, --stroke, --voxel-size and --kind to a subcommand.
void addMoveInputOptions(CLI::App& command, MoveInputArgs& args);

// The GPU context of a command: SCULPTFLOW_VALIDATION and SCULPTFLOW_DEVICE
// apply, and --pipeline-cache.
ContextOptions gpuContextOptions(const MoveInputArgs& args);

// Adds --method (rk4|rk4dbl|bs32|dp45; `note` is appended to its help) and --tol.
void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, const std::string& note = "");

struct MoveInputs {
    Mesh mesh;                       // input units
    Stroke stroke;
    Move move;                       // voxels
    std::vector<glm::vec3> voxels;   // mesh positions in voxels
    std::string description;         // what was loaded, for the summary
};

// Throws sculptflow::Error for unreadable or invalid inputs.
MoveInputs loadMoveInputs(const MoveInputArgs& args);

} // namespace sculptflow::cli
