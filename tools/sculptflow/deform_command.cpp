// `sculptflow deform`: runs one move over a mesh and writes the result and statistics.
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cpu_solver.hpp"
#include "error.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {
namespace {

struct DeformArgs {
    MoveInputArgs inputs;
    std::string method = "bs32";
    double tolerance = 0.1;
    int threads = 0;
    std::string outPath;
    std::string statsPath;
};

nlohmann::json statsJson(const SolveReport& r, size_t vertices, double seconds) {
    return {
        {"vertices", vertices},
        {"flags", {{"min_step_clamped", r.minStepClamped}, {"iteration_cap", r.iterationCap},
                   {"non_finite", r.nonFinite}, {"culled", r.culled}}},
        {"evaluations", {{"mean", r.meanEvaluations()}, {"max", r.maxEvaluations}}},
        {"steps", {{"accepted", r.acceptedSteps}, {"rejected", r.rejectedSteps}}},
        {"backend", "cpu"},
        {"cpu_ms", seconds * 1e3},
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

void runDeform(const DeformArgs& args) {
    checkMeshOutputPath(args.outPath);
    MoveInputs in = loadMoveInputs(args.inputs);
    SolverOptions options;
    options.method = *parseMethod(args.method);
    options.tolerance = args.tolerance;

    auto begin = std::chrono::steady_clock::now();
    CpuSolution solution = solveOnCpu(in.move, in.voxels, options, unsigned(args.threads));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

    const SolveReport& r = solution.report;
    std::printf("%s\n", in.description.c_str());
    std::printf("%zu vertices, %s at tol %.3g voxel (voxel size %.6g)\n", r.vertices,
                args.method.c_str(), options.tolerance, in.stroke.voxelSize);
    std::printf("evaluations per vertex: mean %.1f, max %u; steps accepted %llu, rejected %llu\n",
                r.meanEvaluations(), r.maxEvaluations, (unsigned long long)r.acceptedSteps,
                (unsigned long long)r.rejectedSteps);
    std::printf("flags: %zu min-step clamped, %zu iteration cap, %zu non-finite, %zu culled\n",
                r.minStepClamped, r.iterationCap, r.nonFinite, r.culled);
    std::printf("cpu reference: %.1f ms\n", seconds * 1e3);

    if (!args.outPath.empty()) {
        Mesh out = in.mesh;
        for (size_t i = 0; i < out.positions.size(); ++i)
            out.positions[i] = glm::vec3(glm::dvec3(solution.positions[i]) * in.stroke.voxelSize);
        writeMesh(out, args.outPath);
        std::printf("wrote %s\n", args.outPath.c_str());
    }
    if (!args.statsPath.empty()) {
        writeJson(statsJson(r, r.vertices, seconds), args.statsPath);
        std::printf("wrote %s\n", args.statsPath.c_str());
    }
}

} // namespace

void addDeformCommand(CLI::App& app) {
    auto args = std::make_shared<DeformArgs>();
    CLI::App* cmd = app.add_subcommand(
        "deform", "Deform a mesh by a stroke's move (built-in sphere and stroke by default)");
    addMoveInputOptions(*cmd, args->inputs);
    cmd->add_option("--method", args->method, "rk4, rk4dbl, bs32 or dp45")
        ->check(CLI::IsMember({"rk4", "rk4dbl", "bs32", "dp45"}))
        ->capture_default_str();
    cmd->add_option("--tol", args->tolerance, "Tolerance in voxels")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--threads", args->threads, "CPU threads (0: all cores)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--out", args->outPath, "Deformed mesh (.obj or .ply), in the input's units");
    cmd->add_option("--stats", args->statsPath, "Statistics as JSON");
    cmd->callback([args] { runDeform(*args); });
}

} // namespace sculptflow::cli
