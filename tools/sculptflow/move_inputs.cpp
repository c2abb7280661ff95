// Loading a command's mesh and stroke, or the built-in defaults, and the run's
// mode, symmetry and mask.
#include "move_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/kind_table.hpp"
#include "number_checks.hpp"
#include "unit_checks.hpp"
#include "vector_option.hpp"

namespace sculptflow::cli {
namespace {

// The stroke's symmetry with --symmetry / --symmetry-origin applied over it.
Symmetry symmetryFromOptions(const Symmetry& stroke, const MoveInputArgs& args) {
    Symmetry symmetry = stroke;
    if (args.symmetryAxes) {
        std::string lower = *args.symmetryAxes;
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        const std::optional<uint32_t> axes =
            lower == "none" ? std::optional<uint32_t>(0u) : parseSymmetryAxes(lower);
        if (!axes)
            throw Error("--symmetry '" + *args.symmetryAxes +
                        "': expected a non-empty subset of xyz, each letter once (x, xz, xyz, ...), or none");
        symmetry.axes = *axes;
    }
    if (args.symmetryOrigin) {
        symmetry.origin = parseVector3("--symmetry-origin", *args.symmetryOrigin);
        if (symmetry.axes == 0)
            throw Error("--symmetry-origin '" + *args.symmetryOrigin +
                        "': the stroke has no symmetry to place; give --symmetry AXES too");
    }
    return symmetry;
}

// --mask, else the PLY mesh's own mask property, else none.
void loadMask(MoveInputs& in, const MoveInputArgs& args) {
    const size_t vertices = in.mesh.positions.size();
    if (!args.maskPath.empty()) {
        in.mask = readMask(args.maskPath, vertices);
        in.maskSource = args.maskPath;
    } else if (!in.mesh.mask.empty()) {
        in.maskSource = args.meshPath + " (vertex property mask)";
        validateMask(in.mesh.mask, vertices, in.maskSource);
        in.mask = in.mesh.mask;
    }
}

} // namespace

std::string describeSymmetry(const Symmetry& symmetry) {
    char origin[96];
    std::snprintf(origin, sizeof origin, "(%g, %g, %g)", symmetry.origin.x, symmetry.origin.y, symmetry.origin.z);
    return "symmetry " + symmetryAxesName(symmetry.axes) + " about " + origin;
}

void addMoveInputOptions(CLI::App& command, MoveInputArgs& args) {
    command.add_option("--mesh", args.meshPath,
                       "Mesh to deform (.obj, .ply, .gltf or .glb); default: the built-in icosphere around the tool tip")
        ->check(CLI::ExistingFile);
    command.add_option("--stroke", args.strokePath, "Stroke (.json or .bin); default: built-in stroke")
        ->check(CLI::ExistingFile);
    command.add_option("--voxel-size", args.voxelSize,
                       "World units per voxel (default: the stroke's; 0.0013 for .bin)")
        ->check(positiveNumber());
    command.add_option("--kind", args.kind, "Deformer for every tool (default: as recorded)")
        ->check(CLI::IsMember(toolKindChoices()));
    command.add_option("--profile", args.profile,
                       "Kelvinlet profile for every Kelvinlet tool: bi-scale, tri-scale, laplacian or bi-laplacian")
        ->check(CLI::IsMember({"bi-scale", "tri-scale", "laplacian", "bi-laplacian"}));
    command.add_option("--falloff", args.falloff,
                       "Falloff for every affine or affine-flow tool: smooth, smoother, linear or sharp")
        ->check(CLI::IsMember({"smooth", "smoother", "linear", "sharp"}));
    command.add_flag("--strict", args.strict,
                     "Unit warnings are errors (exit 1 before any work): a stroke without voxel_size, a tool "
                     "that never reaches the mesh, a mesh and a tool whose sizes differ by over 1000 times, a "
                     "tool radius under 0.5 or over 100,000 voxels");
    command.add_option("--max-attempts", args.maxAttempts,
                       "Attempts a vertex's pass may make (spec §4's max_iterations); default: 64 at --tol 0.1 "
                       "and looser, more for tighter ones as the steps they need grow")
        ->check(CLI::Range(1, 1 << 16));
    command.add_option("--pipeline-cache", args.pipelineCache,
                       "Keep the GPU's compiled pipelines in this file between runs (a bad or foreign file "
                       "is ignored with a warning)");
}

void addBuiltInMeshOption(CLI::App& command, MoveInputArgs& args) {
    command
        .add_option_function<std::string>(
            "--built-in",
            [&args](const std::string& name) {
                args.builtIn = name == "sculpt" ? BuiltInMesh::Sculpt : BuiltInMesh::Sphere;
            },
            "Mesh without --mesh: sphere (10,242 vertices around the tool tip) or sculpt (a 655,362-vertex lumpy "
            "blob whose surface the tool grabs)")
        ->check(CLI::IsMember({"sphere", "sculpt"}))
        ->default_str(args.builtIn == BuiltInMesh::Sculpt ? "sculpt" : "sphere")
        ->excludes(command.get_option("--mesh"));
    command.get_option("--mesh")->description("Mesh to deform (.obj, .ply, .gltf or .glb); default: --built-in's");
}

void addMoveModeOptions(CLI::App& command, MoveInputArgs& args) {
    command.add_option("--mode", args.mode,
                       "move: the stroke's first pose to its last, from the undeformed mesh; continuous: each "
                       "pair of consecutive poses in turn, each from the last one's output, at tol/(poses-1) "
                       "each")
        ->check(CLI::IsMember({"move", "continuous"}))
        ->capture_default_str();
    command.add_option("--mask", args.maskPath,
                       "Per-vertex mask, one value in [0, 1] a line in the mesh's vertex order (0 frozen, 1 "
                       "free); default: the PLY mesh's vertex property 'mask', if any");
    command.add_option("--symmetry", args.symmetryAxes,
                       "Mirror the tools across these axes' planes: x, y, z or any combination (xz, xyz; either "
                       "case); 'none' drops the stroke's symmetry (default: the stroke's)");
    command.add_option("--symmetry-origin", args.symmetryOrigin,
                       "A point X,Y,Z on every mirror plane, world units (default: the stroke's, else 0,0,0)");
}

ContextOptions gpuContextOptions(const MoveInputArgs& args) {
    ContextOptions options;
    options.hooks.pipelineCacheFile = args.pipelineCache;
    return options;
}

std::vector<std::string> toolKindChoices() {
    std::vector<std::string> names;
    for (ToolKind kind : allToolKinds()) names.emplace_back(toolKindName(kind));
    return names;
}

std::vector<std::string> methodChoices() {
    std::vector<std::string> names;
    for (Method m : allMethods()) names.emplace_back(methodName(m));
    return names;
}

void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, const std::string& note) {
    command.add_option("--method", method,
                       "Adaptive: " + methodNameList(true) + ", held to --tol; fixed-step: rk4" +
                           (note.empty() ? "" : " (" + note + ")"))
        ->check(CLI::IsMember(methodChoices()))
        ->capture_default_str();
    command.add_option("--tol", tolerance, "Tolerance in voxels (the adaptive methods')")
        ->check(positiveNumber())
        ->capture_default_str();
}

void addMethodOptions(CLI::App& command, std::string& method, double& tolerance, std::optional<int>& steps,
                      const std::string& note) {
    addMethodOptions(command, method, tolerance, note.empty() ? "rk4 needs --steps" : note + "; rk4 needs --steps");
    command.add_option("--steps", steps,
                       "--method rk4 only: fixed RK4 steps a vertex takes over the move (per tool end); "
                       "no error control, so --tol does not apply")
        ->check(CLI::Range(1, 4096));
}

SolverOptions methodOptions(const std::string& method, double tolerance, std::optional<int> steps,
                            const MoveInputs& in) {
    SolverOptions options;
    const std::optional<Method> parsed = parseMethod(method);
    if (!parsed) throw Error("--method " + method + ": expected " + methodNameList());
    options.method = *parsed;
    options.tolerance = tolerance;
    options.maxIterations = in.maxAttempts ? *in.maxAttempts : plannedAttempts(options, in.segments);
    if (options.method == Method::Rk4 && !steps)
        throw Error("--method rk4 takes fixed steps without error control, so --tol cannot hold it: give "
                    "--steps N (N fixed steps over the move), or use an adaptive method held to --tol: " +
                    methodNameList(true));
    if (options.method != Method::Rk4 && steps)
        throw Error("--steps " + std::to_string(*steps) + ": fixed steps are for --method rk4; " + method +
                    " chooses its own steps to meet --tol");
    if (steps) {
        options.fixedSteps = *steps;
        size_t tools = 1;
        for (const Move& move : in.segments) tools = std::max(tools, move.tools.size());
        // Each tool end starts a new integration segment of `steps` steps: room for all of them.
        options.maxIterations = int(std::min<long>(1L << 16, std::max<long>(options.maxIterations,
                                                                             long(*steps) * long(tools))));
    }
    validateSolverOptions(options);
    return options;
}

namespace {

// --profile and --falloff: each applies to the tools of the kinds that carry it,
// and is refused when no tool does (rather than ignored).
void applyShapeOptions(Stroke& stroke, const MoveInputArgs& args) {
    bool profiled = args.profile.empty(), falloffed = args.falloff.empty();
    for (ToolStroke& tool : stroke.tools) {
        if (!args.profile.empty() && kindTraits(tool.kind).profiled) {
            tool.profile = *parseKelvinletProfile(args.profile);
            profiled = true;
        }
        if (!args.falloff.empty() && !kindTraits(tool.kind).profiled) {
            tool.falloff = *parseFalloff(args.falloff);
            falloffed = true;
        }
    }
    if (!profiled) throw Error("--profile " + args.profile + ": a profile is for a kelvinlet, and no tool is one");
    if (!falloffed)
        throw Error("--falloff " + args.falloff + ": a falloff is for an affine or affine-flow tool, and no tool is one");
}

} // namespace

MoveInputs loadMoveInputs(const MoveInputArgs& args) {
    MoveInputs in;
    in.maxAttempts = args.maxAttempts;
    StrokeReadOptions readOptions;
    if (args.voxelSize) readOptions.binVoxelSize = *args.voxelSize;
    if (!args.kind.empty()) readOptions.kindOverride = parseToolKind(args.kind);
    readOptions.notes = &in.strokeNotes;

    if (args.strokePath.empty()) {
        in.stroke = defaultStroke();
        if (readOptions.kindOverride)
            for (ToolStroke& tool : in.stroke.tools) setToolKind(tool, *readOptions.kindOverride);
        in.description = "built-in stroke";
    } else {
        in.stroke = readStroke(args.strokePath, readOptions);
        in.description = "stroke " + args.strokePath;
    }
    if (args.voxelSize) in.stroke.voxelSize = *args.voxelSize;
    applyShapeOptions(in.stroke, args);
    in.stroke.symmetry = symmetryFromOptions(in.stroke.symmetry, args); // before the mesh: fail fast

    if (args.meshPath.empty() && args.builtIn == BuiltInMesh::Sculpt) {
        in.mesh = sculptMesh(in.stroke);
        in.description += ", built-in sculpt blob (" + std::to_string(in.mesh.positions.size()) + " vertices)";
    } else if (args.meshPath.empty()) {
        in.mesh = defaultMesh(in.stroke);
        in.description += ", built-in icosphere";
    } else {
        in.mesh = readMesh(args.meshPath);
        in.description += ", mesh " + args.meshPath;
    }

    if (in.stroke.symmetry.axes) in.description += ", " + describeSymmetry(in.stroke.symmetry);
    loadMask(in, args);
    if (!in.maskSource.empty()) {
        const auto frozen = std::count(in.mask.begin(), in.mask.end(), 0.0f);
        in.description += ", mask " + in.maskSource + " (" + std::to_string(frozen) + " frozen)";
    }

    in.move = moveToolMotion(in.stroke);
    const std::optional<MoveMode> mode = parseMoveMode(args.mode);
    if (!mode) throw Error("--mode '" + args.mode + "': expected move or continuous");
    in.mode = *mode;
    if (in.mode == MoveMode::Continuous) {
        in.segments = continuousMotions(in.stroke);
        in.description += ", continuous: " + std::to_string(in.segments.size()) + " segments";
    } else {
        in.segments = {in.move};
    }
    const double toVoxels = 1.0 / in.stroke.voxelSize;
    in.voxels.reserve(in.mesh.positions.size());
    for (const glm::vec3& p : in.mesh.positions) in.voxels.push_back(glm::vec3(glm::dvec3(p) * toVoxels));
    for (const std::string& w : in.strokeNotes.warnings) in.warnings.push_back({"quaternion_normalised", w});
    const std::vector<UnitWarning> units = unitWarnings(in, args.voxelSize.has_value());
    in.warnings.insert(in.warnings.end(), units.begin(), units.end());
    reportUnitWarnings(in.warnings, args.strict);
    return in;
}

} // namespace sculptflow::cli
