// `sculptflow deform`: runs a stroke's move (or its segments in continuous mode)
// over a mesh on the GPU (or the CPU reference) and writes the result and statistics.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include <sculptflow/error.hpp>
#include "host/deform_pipeline.hpp"
#include "commands.hpp"
#include "conversion_losses.hpp"
#include "flag_warning.hpp"
#include "json_output.hpp"
#include "move_inputs.hpp"
#include "number_checks.hpp"
#include "output_paths.hpp"
#include "progress_bar.hpp"
#include "run_solver.hpp"
#include "run_stats.hpp"
#include "unit_checks.hpp"

namespace sculptflow::cli {
namespace {

struct DeformArgs {
    MoveInputArgs inputs;
    std::string backend = "gpu";
    std::string method = "bs32";
    double tolerance = 0.1;
    std::optional<int> steps; // --method rk4's fixed steps
    int threads = 0;
    std::string outPath;
    std::string statsPath;
    bool volumeChange = false;
    bool verify = false;
    bool verbose = false;
    bool plyAscii = false;
};

// What one backend produced, in voxels, with its time and the device's name and,
// on the GPU, how the library set itself up for that device.
struct DeformResult {
    RunSolution solution;
    std::string device;
    nlohmann::json gpuSetup; // null on the CPU
};

// The choices the library made for this device: where its buffers live and the
// deform shader's workgroup sizing.
nlohmann::json gpuSetupJson(const Context& context) {
    const DeformSizing sizing = deformSizing(context);
    return {{"driver", context.driverName()},
            {"buffers", bufferPlacementName(context.bufferPlacement())},
            {"device_heap_available_bytes", context.deviceHeapAvailable()},
            {"subgroup_size", sizing.subgroupSize},
            {"workgroup_size", sizing.workgroupSize},
            {"vertices_per_lane", sizing.verticesPerLane},
            {"block_vertices", sizing.blockVertices()}};
}

DeformResult deformOnGpu(const MoveInputs& in, const SolverOptions& options, const MoveInputArgs& inputs) {
    Context context(gpuContextOptions(inputs));
    GpuSolver solver(context);
    return {solveRunOnGpu(solver, in.run(), options), context.deviceName(), gpuSetupJson(context)};
}

DeformResult deformOnCpu(const MoveInputs& in, const SolverOptions& options, int threads) {
    unsigned used = threads > 0 ? unsigned(threads) : std::max(1u, std::thread::hardware_concurrency());
    return {solveRunOnCpu(in.run(), options, unsigned(threads)),
            "cpu reference, " + std::to_string(used) + " thread(s)"};
}

// `internal` is what the kernel's step control worked to in each segment (the
// method's calibration of `segment`).
nlohmann::json toleranceJson(const TolerancePlan& plan) {
    return {{"stroke", plan.stroke}, {"segment", plan.segment}, {"internal", plan.internal}};
}

nlohmann::json statsJson(const MoveInputs& in, const SolverOptions& options, const DeformResult& d, bool gpu) {
    const SolveReport& r = d.solution.report;
    nlohmann::json json = {
        {"vertices", r.vertices},
        {"flags", flagsJson(r)},
        {"evaluations", evaluationsJson(r, d.solution.segments, maxRunEvaluations(d.solution.statistics))},
        {"steps", {{"accepted", r.acceptedSteps}, {"rejected", r.rejectedSteps}}},
        {gpu ? "gpu_ms" : "cpu_ms", d.solution.milliseconds},
        {"device", d.device},
        {"method", std::string(methodName(options.method))},
        {"tolerance", toleranceJson(tolerancePlan(in.run(), options))},
        {"volume_change", nullptr}, // null: not asked for
        {"gpu_setup", d.gpuSetup},  // null on the CPU
    };
    if (options.volumeChange)
        json["volume_change"] = volumeChangeJson(summarizeVolumeChanges(d.solution.volumeChanges));
    json.update(runJson(in));
    return json;
}

// Refuses an output path before the work, not after it.
void checkMeshOutputPath(const std::string& path, bool plyAscii) {
    if (plyAscii && path.empty()) throw Error("--ply-ascii: no --out to write");
    if (path.empty()) return;
    checkOutputPath("--out", path);
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".obj" && ext != ".ply" && ext != ".gltf" && ext != ".glb")
        throw Error(path + ": unknown mesh extension '" + ext + "' (expected .obj, .ply, .gltf or .glb)");
    if (plyAscii && ext != ".ply") throw Error("--ply-ascii: --out " + path + " is not a .ply");
}

// A conversion the other format cannot hold all of: said before the work, and an
// error under --strict, so that a sculpt's UVs or colours are never lost unseen.
void reportConversionLosses(MoveInputs& in, const DeformArgs& args) {
    const std::vector<std::string> lost = droppedByConversion(in.mesh, args.outPath);
    if (lost.empty()) return;
    std::string what;
    for (const std::string& item : lost) what += (what.empty() ? "" : ", ") + item;
    const std::string from = std::filesystem::path(args.inputs.meshPath).extension().string();
    const UnitWarning warning{"dropped_attributes", "--out " + args.outPath + ": the " + from +
                                                        " input's " + what + " cannot be written to a " +
                                                        std::filesystem::path(args.outPath).extension().string() +
                                                        " and will be dropped (write " + from + " to keep them)"};
    in.warnings.push_back(warning);
    reportUnitWarnings({warning}, args.inputs.strict);
}

void printSummary(const MoveInputs& in, const DeformArgs& args, const DeformResult& result) {
    const SolveReport& r = result.solution.report;
    std::printf("%s\n", in.description.c_str());
    std::printf("%zu vertices, %s at tol %.3g voxel (voxel size %.6g)\n", r.vertices, args.method.c_str(),
                args.tolerance, in.stroke.voxelSize);
    if (in.mode == MoveMode::Continuous)
        std::printf("continuous mode: %zu segments at tol %.3g voxel each\n", in.segments.size(),
                    segmentTolerance(args.tolerance, in.segments.size()));
    std::printf("evaluations per vertex%s: mean %.1f, max %u; steps accepted %llu, rejected %llu\n",
                in.segments.size() > 1 ? " (whole run, summed over segments)" : "", r.meanEvaluations(),
                maxRunEvaluations(result.solution.statistics), (unsigned long long)r.acceptedSteps,
                (unsigned long long)r.rejectedSteps);
    std::printf("flags%s: %zu min-step clamped, %zu iteration cap, %zu non-finite, %zu culled\n",
                in.segments.size() > 1 ? " (summed over segments)" : "", r.minStepClamped, r.iterationCap,
                r.nonFinite, r.culled);
    if (args.verify)
        std::printf("checking pass: %zu vertices unverified (a first pass and the checking pass differ by more than tol/2)\n",
                    r.unverified);
    if (args.volumeChange) {
        const VolumeChangeSummary v = summarizeVolumeChanges(result.solution.volumeChanges);
        std::printf("volume change J: min %.6g, max %.6g, mean %.6g; %zu folded (J <= 0)\n", v.min, v.max, v.mean,
                    v.folded);
    }
    std::printf("%s: %.1f ms (%s)\n", result.device.c_str(), result.solution.milliseconds,
                args.backend == "gpu" ? "GPU timestamps" : "wall clock");
}

void runDeform(const DeformArgs& args) {
    checkMeshOutputPath(args.outPath, args.plyAscii);
    checkOutputPath("--stats", args.statsPath);
    MoveInputs in = loadMoveInputs(args.inputs);
    reportConversionLosses(in, args);
    SolverOptions options = methodOptions(args.method, args.tolerance, args.steps, in);
    options.volumeChange = args.volumeChange; // a move mixing affine with other kinds throws in the solve
    options.verify = args.verify;
    validateSolverOptions(options);

    const bool gpu = args.backend == "gpu";
    ProgressTicker ticker(stderr, ProgressTicker::isTerminal(stderr)); // the main job takes seconds on lavapipe
    ticker.stage(gpu ? "solving on the GPU" : "solving on the CPU reference");
    DeformResult result = gpu ? deformOnGpu(in, options, args.inputs) : deformOnCpu(in, options, args.threads);
    ticker.stop(); // the line is erased before any warning or the summary
    // Before any output: under --strict an unchanged mesh is not written.
    const size_t integrated = integratedVertices(result.solution.statistics);
    warnIfAllCulled(in, integrated, args.inputs.strict);
    size_t flagged = 0;
    for (const VertexStatistics& st : result.solution.statistics) flagged += (st.flags & ~kVertexCulled) != 0;
    reportFlaggedShare(result.solution.report, flagged, integrated, options, result.device, args.inputs.strict);
    printSummary(in, args, result);
    if (args.verbose && gpu) {
        const nlohmann::json& g = result.gpuSetup;
        std::printf("driver: %s\n", g["driver"].get<std::string>().c_str());
        std::printf("gpu setup: buffers %s (%llu bytes available in the device-local heap); deform workgroups of "
                    "%u (subgroup %u), %u vertices a lane in the cull passes, blocks of %u vertices\n",
                    g["buffers"].get<std::string>().c_str(), g["device_heap_available_bytes"].get<unsigned long long>(),
                    g["workgroup_size"].get<unsigned>(), g["subgroup_size"].get<unsigned>(),
                    g["vertices_per_lane"].get<unsigned>(), g["block_vertices"].get<unsigned>());
    }

    // Written only now, after every check and the solve: a bad input leaves files as they were.
    if (!args.outPath.empty()) {
        Mesh out = in.mesh;
        out.mask = in.mask; // this run's: --mask's, else the PLY's own property, else none
        // This run's J, or none: a volume_change read from the input describes another map.
        out.volumeChange = result.solution.volumeChanges;
        // A vertex the solve left in place (mask 0, culled) is written exactly as read:
        // converting it to voxels and back could move it by a rounding.
        for (size_t i = 0; i < out.positions.size(); ++i)
            if (result.solution.positions[i] != in.voxels[i])
                out.positions[i] = glm::vec3(glm::dvec3(result.solution.positions[i]) * in.stroke.voxelSize);
        if (args.plyAscii)
            writeMesh(out, args.outPath, MeshFormat::PlyAscii);
        else
            writeMesh(out, args.outPath);
        std::printf("wrote %s\n", args.outPath.c_str());
    }
    if (!args.statsPath.empty()) {
        writeJsonFile(statsJson(in, options, result, gpu), args.statsPath);
        std::printf("wrote %s\n", args.statsPath.c_str());
    }
}

} // namespace

void addDeformCommand(CLI::App& app) {
    auto args = std::make_shared<DeformArgs>();
    CLI::App* cmd = app.add_subcommand(
        "deform", "Deform a mesh by a stroke's move (built-in sculpt blob and stroke by default)");
    addMoveInputOptions(*cmd, args->inputs);
    args->inputs.builtIn = BuiltInMesh::Sculpt; // the sculpt-scale case; --built-in sphere for the small one
    addBuiltInMeshOption(*cmd, args->inputs);
    addMoveModeOptions(*cmd, args->inputs);
    cmd->add_option("--backend", args->backend, "gpu (Vulkan; SCULPTFLOW_DEVICE picks the device) or cpu")
        ->check(CLI::IsMember({"gpu", "cpu"}))
        ->capture_default_str();
    addMethodOptions(*cmd, args->method, args->tolerance, args->steps);
    cmd->add_option("--threads", args->threads, "CPU reference threads (0: all cores)")
        ->check(nonNegativeNumber());
    cmd->add_option("--out", args->outPath,
                    "Deformed mesh (.obj, .ply, .gltf or .glb), in the input's units. Of an input in the same "
                    "format it keeps what the input held (an OBJ's vt, vn, groups and materials; a PLY's every "
                    "property and element; a glTF's every attribute, primitive, node, material and extension, "
                    "positions written back in each node's space; .gltf and .glb count as one format); a .ply "
                    "carries the vertex properties mask (--mask's, or the input's) and "
                    "volume_change (with --volume-change). A conversion that drops what the input held "
                    "(OBJ to PLY: vt, vn, groups, materials, colours; PLY to OBJ: every property but x y z; glTF to "
                    "OBJ or PLY: every attribute but POSITION, materials, nodes; OBJ or PLY to glTF: as to PLY, "
                    "and larger faces split into triangles) "
                    "says so first, and is refused under --strict");
    cmd->add_flag("--ply-ascii", args->plyAscii, "Write the .ply --out as ASCII (default: binary little-endian)");
    cmd->add_option("--stats", args->statsPath, "Statistics as JSON");
    cmd->add_flag("--verify", args->verify,
                  "Aim the error bound at half of --tol, and check a vertex it leaves over that: a checking pass at "
                  "tol/8 and half the step limits, whose positions are written; a vertex whose passes differ by "
                  "more than half of --tol is flagged unverified (summary and --stats). 1-1.8 times the "
                  "evaluations");
    cmd->add_flag("--volume-change", args->volumeChange,
                  "Compute each vertex's volume change J = det(dx/dx0) of the end map (a debug output): "
                  "min, max, mean and the folded count (J <= 0) in the summary and in --stats "
                  "(\"volume_change\"), and a float vertex property volume_change in a .ply --out (an .obj "
                  "has no place for it). Refused for a move that mixes affine tools with kelvinlet or "
                  "affine-flow ones");
    cmd->add_flag("--verbose", args->verbose,
                  "Also print how the library set itself up for the GPU: where its buffers live (mapped or "
                  "staged) and the deform shader's workgroup size and per-lane work, chosen from the device");
    cmd->callback([args] { runDeform(*args); });
}

} // namespace sculptflow::cli
