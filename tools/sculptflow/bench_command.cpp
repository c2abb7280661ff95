// `sculptflow bench`: solver throughput (GPU and CPU reference) and a
// work–precision sweep against the double ground truth, as tables, JSON and SVG.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "error.hpp"
#include "move_inputs.hpp"
#include "throughput.hpp"
#include "work_precision.hpp"

namespace sculptflow::cli {
namespace {

// The sweep integrates the mesh's vertices against the ground truth, which is
// slow; a bigger mesh is thinned to this many by an even stride.
constexpr size_t kSweepMaxVertices = 20'000;

struct BenchArgs {
    MoveInputArgs inputs;
    std::vector<size_t> sizes;
    bool quick = false;
    std::vector<std::string> methods{"rk4", "rk4dbl", "bs32", "dp45"};
    std::optional<int> repeats;
    std::string jsonPath;
    std::string chartPath;
    bool noThroughput = false;
    bool noChart = false;
};

std::vector<glm::vec3> sweepVertices(const std::vector<glm::vec3>& voxels) {
    if (voxels.size() <= kSweepMaxVertices) return voxels;
    std::vector<glm::vec3> thinned;
    const double stride = double(voxels.size()) / double(kSweepMaxVertices);
    for (size_t i = 0; i < kSweepMaxVertices; ++i) thinned.push_back(voxels[size_t(double(i) * stride)]);
    return thinned;
}

// The GPU, or null with the reason in `device` when there is none: the CPU
// columns are still worth having.
std::unique_ptr<GpuSolver> openGpu(std::unique_ptr<Context>& context, std::string& device) {
    try {
        context = std::make_unique<Context>(); // SCULPTFLOW_DEVICE and SCULPTFLOW_VALIDATION apply
        auto solver = std::make_unique<GpuSolver>(*context);
        device = context->deviceName();
        return solver;
    } catch (const Error& e) {
        device = std::string("unavailable: ") + e.what();
        std::fprintf(stderr, "sculptflow bench: no GPU, CPU columns only (%s)\n", e.what());
        context.reset();
        return nullptr;
    }
}

nlohmann::json inputsJson(const BenchArgs& args, const MoveInputs& in, const ThroughputOptions& throughput) {
    nlohmann::json methods = args.methods;
    nlohmann::json repeats = args.repeats ? nlohmann::json(*args.repeats) : nlohmann::json("3 below 1M, 1 from 1M");
    return {
        {"description", in.description},
        {"stroke", args.inputs.strokePath.empty() ? "built-in" : args.inputs.strokePath},
        {"mesh", args.inputs.meshPath.empty() ? "built-in icosphere" : args.inputs.meshPath},
        {"mesh_vertices", in.voxels.size()},
        {"voxel_size", in.stroke.voxelSize},
        {"kind", args.inputs.kind.empty() ? "as recorded" : args.inputs.kind},
        {"methods", methods},
        {"sizes", throughput.sizes},
        {"repeats", repeats},
    };
}

void writeJson(const nlohmann::json& json, const std::string& path) {
    std::ofstream out(path);
    out << json.dump(2) << '\n';
    out.close();
    if (!out) throw Error(path + ": could not write the benchmark JSON");
}

void runBench(const BenchArgs& args) {
    const auto begin = std::chrono::steady_clock::now();
    const MoveInputs in = loadMoveInputs(args.inputs);
    std::vector<Method> methods;
    for (const std::string& name : args.methods) methods.push_back(*parseMethod(name));

    ThroughputOptions throughputOptions;
    throughputOptions.methods = methods;
    if (args.quick) throughputOptions.sizes = {10'000, 100'000};
    if (!args.sizes.empty()) throughputOptions.sizes = args.sizes;
    throughputOptions.repeats = args.repeats;

    nlohmann::json json = {{"inputs", inputsJson(args, in, throughputOptions)},
                           {"cpu_threads", std::max(1u, std::thread::hardware_concurrency())}};
    std::printf("%s\n\n", in.description.c_str());

    if (!args.noThroughput) {
        std::unique_ptr<Context> context;
        std::string device;
        std::unique_ptr<GpuSolver> gpu = openGpu(context, device);
        Throughput throughput = measureThroughput(in.move, gpu.get(), throughputOptions);
        throughput.device = device;
        std::printf("%s\n", throughputTable(throughput).c_str());
        json["device"] = device;
        json["throughput"] = throughputJson(throughput);
    }

    if (!args.noChart) {
        WorkPrecisionOptions sweepOptions;
        sweepOptions.methods = methods;
        const std::vector<glm::vec3> start = sweepVertices(in.voxels);
        const WorkPrecision sweep = sweepWorkPrecision(in.move, start, sweepOptions);
        std::printf("%s\n", workPrecisionTable(sweep).c_str());
        json["work_precision"] = workPrecisionJson(sweep);
        if (!args.chartPath.empty()) {
            const bool affine = !in.stroke.tools.empty() && in.stroke.tools.front().kind == ToolKind::Affine;
            char title[64];
            std::snprintf(title, sizeof title, " (%s, %zu vertices)", affine ? "affine" : "Kelvinlet",
                          start.size());
            writeSvg(workPrecisionChart(sweep, "Work–precision: " + in.description + title), args.chartPath);
            std::printf("wrote %s\n", args.chartPath.c_str());
        }
    }

    if (!args.jsonPath.empty()) {
        writeJson(json, args.jsonPath);
        std::printf("wrote %s\n", args.jsonPath.c_str());
    }
    std::printf("bench took %.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
}

} // namespace

void addBenchCommand(CLI::App& app) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand(
        "bench",
        "Throughput (vertices per second: GPU, CPU reference on 1 and all threads) and a work-precision sweep");
    cmd->footer(
        "Throughput workload: points uniform in a ball of 2x the first tool's outer radius around its tip at\n"
        "pose A (voxels, fixed seed), so the vertex count does not depend on --mesh; default solver options.\n"
        "GPU times are timestamps around the dispatch; CPU times are wall clock. Best of the runs.\n"
        "Work-precision: the mesh's vertices (default: the built-in icosphere; a mesh over 20,000 vertices\n"
        "is thinned to 20,000), integrated by the CPU reference, which runs the same kernel as the GPU, and\n"
        "compared with the double ground truth: rk4dbl, bs32 and dp45 at tol 1, 0.3, 0.1, 0.03, 0.01 and\n"
        "0.003 voxel, rk4 at 1 to 32 steps, with up to 512 attempts per vertex. Flagged vertices are left\n"
        "out of the error and counted.");
    addMoveInputOptions(*cmd, args->inputs);
    cmd->add_option("--sizes", args->sizes, "Vertex counts for throughput (default 10000,100000,1000000,2000000)")
        ->delimiter(',')
        ->check(CLI::Range(size_t(1), size_t(50'000'000)));
    cmd->add_flag("--quick", args->quick, "Throughput at 10000 and 100000 vertices only (--sizes wins)");
    cmd->add_option("--methods", args->methods, "Methods to measure, comma-separated")
        ->delimiter(',')
        ->check(CLI::IsMember({"rk4", "rk4dbl", "bs32", "dp45"}))
        ->capture_default_str();
    cmd->add_option("--repeats", args->repeats, "Runs per throughput measurement, the best kept "
                                                "(default: 3 below 1M vertices, 1 from 1M up)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--json", args->jsonPath, "Write both tables, the device, thread count and inputs as JSON");
    CLI::Option* chart = cmd->add_option("--chart", args->chartPath, "Write the work-precision chart (SVG)");
    cmd->add_flag("--no-throughput", args->noThroughput, "Skip the throughput table");
    CLI::Option* noChart = cmd->add_flag("--no-chart", args->noChart, "Skip the work-precision sweep and chart");
    noChart->excludes(chart);
    cmd->callback([args] { runBench(*args); });
}

} // namespace sculptflow::cli
