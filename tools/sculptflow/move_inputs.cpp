// Loading a command's mesh and stroke, or the built-in defaults.
#include "move_inputs.hpp"

#include "default_case.hpp"
#include "error.hpp"

namespace sculptflow::cli {

void addMoveInputOptions(CLI::App& command, MoveInputArgs& args) {
    command.add_option("--mesh", args.meshPath, "Mesh to deform (.obj or .ply); default: built-in icosphere")
        ->check(CLI::ExistingFile);
    command.add_option("--stroke", args.strokePath, "Stroke (.json or .bin); default: built-in stroke")
        ->check(CLI::ExistingFile);
    command.add_option("--voxel-size", args.voxelSize,
                       "World units per voxel (default: the stroke's; 0.0013 for .bin)")
        ->check(CLI::PositiveNumber);
    command.add_option("--kind", args.kind, "Deformer for a .bin stroke (default: as recorded)")
        ->check(CLI::IsMember({"kelvinlet", "affine"}));
    command.add_option("--pipeline-cache", args.pipelineCache,
                       "Keep the GPU's compiled pipelines in this file between runs (a bad or foreign file "
                       "is ignored with a warning)");
}

ContextOptions gpuContextOptions(const MoveInputArgs& args) {
    ContextOptions options;
    options.hooks.pipelineCacheFile = args.pipelineCache;
    return options;
}

void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, const std::string& note) {
    command.add_option("--method", method, "rk4, rk4dbl, bs32 or dp45" + (note.empty() ? "" : " (" + note + ")"))
        ->check(CLI::IsMember({"rk4", "rk4dbl", "bs32", "dp45"}))
        ->capture_default_str();
    command.add_option("--tol", tolerance, "Tolerance in voxels")->check(CLI::PositiveNumber)->capture_default_str();
}

MoveInputs loadMoveInputs(const MoveInputArgs& args) {
    MoveInputs in;
    StrokeReadOptions readOptions;
    if (args.voxelSize) readOptions.binVoxelSize = *args.voxelSize;
    if (!args.kind.empty())
        readOptions.kindOverride = args.kind == "affine" ? ToolKind::Affine : ToolKind::Kelvinlet;

    if (args.strokePath.empty()) {
        in.stroke = defaultStroke();
        if (readOptions.kindOverride)
            for (ToolStroke& tool : in.stroke.tools) tool.kind = *readOptions.kindOverride;
        in.description = "built-in stroke";
    } else {
        in.stroke = readStroke(args.strokePath, readOptions);
        in.description = "stroke " + args.strokePath;
    }
    if (args.voxelSize) in.stroke.voxelSize = *args.voxelSize;

    if (args.meshPath.empty()) {
        in.mesh = defaultMesh(in.stroke);
        in.description += ", built-in icosphere";
    } else {
        in.mesh = readMesh(args.meshPath);
        in.description += ", mesh " + args.meshPath;
    }

    in.move = moveToolMotion(in.stroke);
    const double toVoxels = 1.0 / in.stroke.voxelSize;
    in.voxels.reserve(in.mesh.positions.size());
    for (const glm::vec3& p : in.mesh.positions) in.voxels.push_back(glm::vec3(glm::dvec3(p) * toVoxels));
    return in;
}

} // namespace sculptflow::cli
