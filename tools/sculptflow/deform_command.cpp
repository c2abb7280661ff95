// `sculptflow deform`: runs one move over a mesh on the GPU (or the CPU
// reference) and writes the result and statistics.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cpu_solver.hpp"
#include "error.hpp"
#include "gpu_solver.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {
namespace {

struct DeformArgs {
    MoveInputArgs inputs;
    std::string backend = "gpu";
    std::string method = "bs32";
    double tolerance = 0.1;
    int threads = 0;
    std::string outPath;
    std::string statsPath;
};

// What one backend produced, in voxels, with its time and the device's name.
struct DeformResult {
    std::vector<glm::vec3> positions;
    SolveReport report;
    double milliseconds = 0.0;
    std::string device;
};

DeformResult deformOnGpu(const MoveInputs& in, const SolverOptions& options, const MoveInputArgs& inputs) {
    Context context(gpuContextOptions(inputs));
    GpuSolver solver(context);
    GpuSolution solution = solveOnGpu(solver, in.move, in.voxels, options);
    return {std::move(solution.positions), solution.report, solution.gpuMilliseconds, context.deviceName()};
}

DeformResult deformOnCpu(const MoveInputs& in, const SolverOptions& options, int threads) {
    auto begin = std::chrono::steady_clock::now();
    CpuSolution solution = solveOnCpu(in.move, in.voxels, options, unsigned(threads));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    unsigned used = threads > 0 ? unsigned(threads) : std::max(1u, std::thread::hardware_concurrency());
    return {std::move(solution.positions), solution.report, ms,
            "cpu reference, " + std::to_string(used) + " thread(s)"};
}

nlohmann::json statsJson(const DeformResult& d, bool gpu) {
    const SolveReport& r = d.report;
    return {
        {"vertices", r.vertices},
        {"flags", {{"min_step_clamped", r.minStepClamped}, {"iteration_cap", r.iterationCap},
                   {"non_finite", r.nonFinite}, {"culled", r.culled}}},
        {"evaluations", {{"mean", r.meanEvaluations()}, {"max", r.maxEvaluations}}},
        {"steps", {{"accepted", r.acceptedSteps}, {"rejected", r.rejectedSteps}}},
        {gpu ? "gpu_ms" : "cpu_ms", d.milliseconds},
        {"device", d.device},
    };
}

void writeJson(const nlohmann::json& json, const std::string& path) {
    std::ofstream out(path);
    out << json.dump(2) << '\n';
    if (!out) throw Error(path + ": could not write statistics");
}

// Refuses an output path before the work, not after it.
void checkMeshOutputPath(const std::string& path) {
    if (path.empty()) return;
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".obj" && ext != ".ply")
        throw Error(path + ": unknown mesh extension '" + ext + "' (expected .obj or .ply)");
}

void printSummary(const MoveInputs& in, const DeformArgs& args, const DeformResult& result) {
    const SolveReport& r = result.report;
    std::printf("%s\n", in.description.c_str());
    std::printf("%zu vertices, %s at tol %.3g voxel (voxel size %.6g)\n", r.vertices, args.method.c_str(),
                args.tolerance, in.stroke.voxelSize);
    std::printf("evaluations per vertex: mean %.1f, max %u; steps accepted %llu, rejected %llu\n",
                r.meanEvaluations(), r.maxEvaluations, (unsigned long long)r.acceptedSteps,
                (unsigned long long)r.rejectedSteps);
    std::printf("flags: %zu min-step clamped, %zu iteration cap, %zu non-finite, %zu culled\n",
                r.minStepClamped, r.iterationCap, r.nonFinite, r.culled);
    std::printf("%s: %.1f ms (%s)\n", result.device.c_str(), result.milliseconds,
                args.backend == "gpu" ? "GPU timestamps" : "wall clock");
}

void runDeform(const DeformArgs& args) {
    checkMeshOutputPath(args.outPath);
    MoveInputs in = loadMoveInputs(args.inputs);
    SolverOptions options;
    options.method = *parseMethod(args.method);
    options.tolerance = args.tolerance;

    const bool gpu = args.backend == "gpu";
    DeformResult result = gpu ? deformOnGpu(in, options, args.inputs) : deformOnCpu(in, options, args.threads);
    printSummary(in, args, result);

    if (!args.outPath.empty()) {
        Mesh out = in.mesh;
        for (size_t i = 0; i < out.positions.size(); ++i)
            out.positions[i] = glm::vec3(glm::dvec3(result.positions[i]) * in.stroke.voxelSize);
        writeMesh(out, args.outPath);
        std::printf("wrote %s\n", args.outPath.c_str());
    }
    if (!args.statsPath.empty()) {
        writeJson(statsJson(result, gpu), args.statsPath);
        std::printf("wrote %s\n", args.statsPath.c_str());
    }
}

} // namespace

void addDeformCommand(CLI::App& app) {
    auto args = std::make_shared<DeformArgs>();
    CLI::App* cmd = app.add_subcommand(
        "deform", "Deform a mesh by a stroke's move (built-in sphere and stroke by default)");
    addMoveInputOptions(*cmd, args->inputs);
    cmd->add_option("--backend", args->backend, "gpu (Vulkan; SCULPTFLOW_DEVICE picks the device) or cpu")
        ->check(CLI::IsMember({"gpu", "cpu"}))
        ->capture_default_str();
    addMethodOptions(*cmd, args->method, args->tolerance);
    cmd->add_option("--threads", args->threads, "CPU reference threads (0: all cores)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--out", args->outPath, "Deformed mesh (.obj or .ply), in the input's units");
    cmd->add_option("--stats", args->statsPath, "Statistics as JSON");
    cmd->callback([args] { runDeform(*args); });
}

} // namespace sculptflow::cli
