// `sculptflow bench`: the benchmark suite in one run. Per method, vertices per
// second and evaluations per vertex on the GPU and the CPU reference (1 and all
// threads); a scaling curve at 100% and partly active; the key figure (bs32,
// tol 0.1, the recorded stroke test0 as a Kelvinlet, on a 1M-vertex sphere and
// on the random-order ball, GPU against CPU); the achieved FLOP rate against the device's peak; and the
// work-precision sweep. Every measurement is one JSON record (--json).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include <sculptflow/error.hpp>
#include "bench_suites.hpp"
#include "commands.hpp"
#include "gpu_clock.hpp"
#include "host_system.hpp"
#include "json_output.hpp"
#include "output_paths.hpp"
#include "throughput.hpp"

namespace sculptflow::cli {
namespace {

constexpr size_t kMostVertices = 64'000'000; // a size's cap: 2 GB of GPU memory, 4 GB on the host

// {"kelvinlet bi-scale": 97, ...}: flops_per_eval in the JSON header.
nlohmann::json flopsPerShapeJson() {
    nlohmann::json counts = nlohmann::json::object();
    for (const auto& [shape, flops] : flopsPerEvaluationByShape()) counts[shape] = flops;
    return counts;
}

// Software rasterisers run on the CPU: no clock to raise, nothing to warm.
bool isCpuDevice(const std::string& device) {
    return device.find("llvmpipe") != std::string::npos || device.find("lavapipe") != std::string::npos ||
           device.find("SwiftShader") != std::string::npos;
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

std::string formatSeconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", seconds);
    return text;
}

void runBench(const BenchArgs& args) {
    // Before the work, not after it: a typo must not cost the suite's minutes.
    checkOutputPath("--json", args.jsonPath);
    checkOutputPath("--chart", args.chartPath);
    checkOutputPath("--scaling-chart", args.scalingChartPath);
    const auto begin = std::chrono::steady_clock::now();
    const MoveInputs in = loadMoveInputs(args.inputs);
    std::vector<Method> methods;
    for (const std::string& name : args.methods) methods.push_back(*parseMethod(name));
    const unsigned allThreads = args.threads ? args.threads : std::max(1u, std::thread::hardware_concurrency());

    const std::vector<size_t> methodSizes =
        !args.methodSizes.empty() ? args.methodSizes : std::vector<size_t>{args.quick ? size_t(2000) : size_t(100'000)};
    const std::vector<size_t> sizes =
        !args.sizes.empty() ? args.sizes
        : args.quick        ? std::vector<size_t>{2000, 40'000}
                            : std::vector<size_t>{10'000, 100'000, 1'000'000, 2'000'000, 4'000'000};
    if (!args.scalingChartPath.empty() && std::set<size_t>(sizes.begin(), sizes.end()).size() < 2)
        throw Error("--scaling-chart " + args.scalingChartPath + ": a curve needs two sizes or more, --sizes gave one");
    const size_t keySize = args.keySize.value_or(args.quick ? 20'000 : 1'000'000);
    const size_t probeCount = args.probes.value_or(args.quick ? 64 : 1000);
    const size_t sweepMost = args.sweepVertices.value_or(args.quick ? 500 : 20'000);

    std::unique_ptr<Context> gpuContext;
    std::string device = "not used (--no-gpu)";
    std::unique_ptr<GpuSolver> gpu;
    if (!args.noGpu && !args.noThroughput) gpu = openGpu(gpuContext, device);
    const double clock = cpuClockGhz();
    PeakFlops peak = gpu ? devicePeakFlops(device, allThreads, clock) : PeakFlops{kNoValue, "no GPU"};
    if (args.peakGflops) peak = {*args.peakGflops, "--peak-gflops"};

    const std::string cpu = cpuModelName();
    std::printf("%s\n", in.description.c_str());
    std::printf("GPU: %s; FP32 peak %s (%s)\n", device.c_str(),
                std::isfinite(peak.gflops) ? (std::to_string(int(std::lround(peak.gflops))) + " GFLOP/s").c_str()
                                           : "unknown",
                peak.source.c_str());
    std::string flopCounts;
    for (const auto& [shape, flops] : flopsPerEvaluationByShape())
        flopCounts += (flopCounts.empty() ? "" : ", ") + shape + " " + std::to_string(std::lround(flops));
    std::printf("CPU reference: %s, 1 and %u threads\nFLOPs per evaluation, per tool (counted from the kinds' "
                "GLSL; see throughput.hpp): %s\n\n",
                cpu.c_str(), allThreads, flopCounts.c_str());

    GpuTimingOptions timing;
    timing.measurements = args.repeats.value_or(5);
    timing.minMeasureMs = args.minMeasureMs.value_or(args.quick ? 5.0 : 50.0);
    timing.warmupMs = args.warmupMs.value_or(args.quick || !gpu || isCpuDevice(device) ? 0.0 : 1000.0);
    std::unique_ptr<GpuClock> gpuClock = gpu ? openGpuClock(device) : noGpuClock("none: no GPU");
    std::printf("GPU timing: best of %d batches of >= %g ms of GPU work each, warm-up up to %g ms before each; "
                "SM clock: %s",
                timing.measurements, timing.minMeasureMs, timing.warmupMs, gpuClock->source().c_str());
    if (const std::optional<unsigned> mhz = gpuClock->smMhz()) std::printf(" (now %u MHz, max %u MHz)", *mhz,
                                                                        gpuClock->maxSmMhz().value_or(0));
    std::printf("\n");
    const std::string clockSource = gpuClock->source();
    const std::optional<unsigned> maxClock = gpuClock->maxSmMhz();
    Bench bench(gpu.get(), args.repeats, std::move(gpuClock), timing);
    if (args.budgetSeconds)
        bench.setDeadline(begin + std::chrono::milliseconds(int64_t(*args.budgetSeconds * 1e3)));
    BenchSession session{args, in, bench, {}, probeCount, allThreads};
    session.context.move = &in.move;
    session.context.stroke = strokeLabel(args.inputs);
    session.context.gpuDevice = device;
    session.context.gpuPeakGflops = peak.gflops;
    session.context.cpuDevice = cpu;
    session.context.allThreads = allThreads;

    TruthProbes probes;
    if (!args.noThroughput && !(args.noMethods && args.noScaling && args.noKey)) {
        if (probeCount) {
            probes = computeTruthProbes(in.move, probeCount);
            std::printf("ground truth of %zu probe vertices (this stroke): %.1f s\n", probeCount, probes.seconds);
            session.context.probes = &probes;
        }
        if (!args.noMethods) runMethods(session, methods, methodSizes);
        if (!args.noScaling) runScaling(session, sizes);
        if (!args.noKey) runKey(session, keySize);
    }
    nlohmann::json workPrecision;
    if (!args.noChart && !bench.outOfTime()) workPrecision = runWorkPrecision(session, methods, sweepMost);

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (!args.jsonPath.empty()) {
        nlohmann::json records = nlohmann::json::array();
        for (const BenchRecord& r : bench.records()) records.push_back(recordJson(r));
        nlohmann::json json = {
            {"format", "sculptflow-bench/2"},
            {"description", in.description},
            {"device", device},
            {"cpu", cpu},
            {"cpu_threads", allThreads},
            {"peak_gflops", peak.gflops},
            {"peak_source", peak.source},
            {"flops_per_eval", flopsPerShapeJson()},
            {"workload", "ball: uniform in 2 outer radii around the first tool's tip at pose A, seed 12345; "
                         "partly active: the ball's first points plus vertices out of reach; sphere (key): the "
                         "built-in mesh's icosphere subdivided, its first vertices in mesh order"},
            {"timing", "gpu: timestamps around the dispatches, no statistics, after a warm-up; the best of "
                       "gpu_timing.measurements batches of gpu_timing.batch_runs runs (each batch >= min_measure_ms "
                       "of GPU work), the SM clock read before and after each batch; cpu: wall clock of "
                       "solveOnCpu, best of runs"},
            {"gpu_clock", {{"source", clockSource},
                           {"max_sm_mhz", maxClock ? nlohmann::json(*maxClock) : nlohmann::json(nullptr)},
                           {"min_measure_ms", timing.minMeasureMs},
                           {"warmup_ms", timing.warmupMs},
                           {"measurements", timing.measurements}}},
            {"max_err_vox", "max over probes (the workload's first points) not flagged, against the double ground truth"},
            {"records", std::move(records)},
            {"summary", session.summary},
            {"seconds", seconds},
        };
        if (!workPrecision.is_null()) json["work_precision"] = workPrecision;
        writeJsonFile(json, args.jsonPath);
        std::printf("wrote %s\n", args.jsonPath.c_str());
    }
    std::printf("bench took %.1f s\n", seconds);
    // A chart asked for and not drawn is work that did not happen (after the JSON: it keeps what was measured).
    if (!args.chartPath.empty() && workPrecision.is_null())
        throw Error("--chart " + args.chartPath + ": not written: the --budget of " +
                    formatSeconds(args.budgetSeconds.value_or(0.0)) +
                    " was spent before the work-precision sweep (raise it, or drop --chart)");
}

} // namespace

void addBenchCommand(CLI::App& app) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand(
        "bench", "The benchmark suite: per-method throughput (GPU, CPU reference on 1 and all threads), a scaling "
                 "curve at 100% and 5% active, the key GPU/CPU figure, FLOP rate against peak, work-precision");
    cmd->footer(
        "Workload: points uniform in a ball of 2x the first tool's outer radius around its tip at pose A\n"
        "(voxels, seed 12345), all within reach. Partly active: the ball's first N*fraction points plus points\n"
        "in a shell around the tool's path that the kernel culls, scattered among them at random or clustered\n"
        "first. GPU times are timestamps around the dispatch (best of the runs, without statistics; one extra\n"
        "run with statistics gives the evaluations); CPU times are wall clock. max error: the probes (the\n"
        "ball's first points) against the double ground truth. Key figure: bs32, tol 0.1, the recorded stroke\n"
        "test0 as a Kelvinlet (the built-in stroke when absent), on the built-in mesh's sphere subdivided to\n"
        "1M vertices (mesh order) and on the 1M-point ball (random order). Work-precision: the mesh's\n"
        "vertices (thinned to --sweep-vertices), CPU reference against the ground truth over tolerances.");
    addMoveInputOptions(*cmd, args->inputs);
    cmd->add_flag("--quick", args->quick,
                  "Small sizes (methods 2000, scaling 2000 and 40000, key 20000, 64 probes, sweep 500 vertices)");
    cmd->add_option("--methods", args->methods, "Methods to measure, comma-separated")
        ->delimiter(',')
        ->check(CLI::IsMember(methodChoices()))
        ->capture_default_str();
    cmd->add_option("--method-sizes", args->methodSizes, "Vertex counts of the per-method table (default 100000)")
        ->delimiter(',')
        ->check(CLI::Range(size_t(1), kMostVertices));
    cmd->add_option("--sizes", args->sizes,
                    "Vertex counts of the scaling curve (default 10000,100000,1000000,2000000,4000000)")
        ->delimiter(',')
        ->check(CLI::Range(size_t(1), kMostVertices));
    cmd->add_option("--scaling-method", args->scalingMethod, "Method of the scaling curve")
        ->check(CLI::IsMember(methodChoices()))
        ->capture_default_str();
    cmd->add_option("--scaling-backends", args->scalingBackends, "Backends of the scaling curve: gpu, cpu1, cpuN")
        ->delimiter(',')
        ->check(CLI::IsMember({"gpu", "cpu1", "cpuN"}))
        ->capture_default_str();
    cmd->add_option("--active-fraction", args->activeFraction, "Active fraction of the partly active curve")
        ->check(CLI::Range(1e-6, 1.0))
        ->capture_default_str();
    cmd->add_option("--layouts", args->layouts, "Where the active vertices sit: scattered, clustered")
        ->delimiter(',')
        ->check(CLI::IsMember({"scattered", "clustered"}))
        ->capture_default_str();
    cmd->add_option("--key-size", args->keySize, "Vertices of the key figure (default 1000000)")
        ->check(CLI::Range(size_t(1), kMostVertices));
    cmd->add_option("--key-stroke", args->keyStroke, "Stroke of the key figure (default: recorded test0)");
    cmd->add_option("--probes", args->probes,
                    "Vertices compared with the double ground truth per measurement (default 1000; 0: none)");
    cmd->add_option("--sweep-vertices", args->sweepVertices,
                    "The work-precision sweep thins the mesh to this many vertices (default 20000)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--repeats", args->repeats,
                    "Timed measurements, the best kept (default: GPU 5 batches; CPU 3 runs below 1M active "
                    "vertices, 1 from 1M up)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--min-measure-ms", args->minMeasureMs,
                    "GPU work per timed batch, at least (ms; default 50, --quick 5): runs are batched to reach it")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--warmup-ms", args->warmupMs,
                    "Before each GPU measurement, run it until the SM clock is steady near its boost, at most this "
                    "long (ms; default 1000 on a GPU, 0 on a CPU device and with --quick)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--peak-gflops", args->peakGflops,
                    "The GPU's FP32 peak in GFLOP/s (default: lavapipe threads x lanes x 2 x clock from "
                    "/proc/cpuinfo; the README's figures for H100/H200)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--budget", args->budgetSeconds,
                    "Seconds: once spent, measure nothing more (the one under way finishes) and write what was "
                    "measured")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--threads", args->threads, "Threads of the cpuN backend (default: every core)");
    cmd->add_option("--json", args->jsonPath, "Write every measurement as a record, and the summary, as JSON");
    CLI::Option* chart = cmd->add_option("--chart", args->chartPath, "Write the work-precision chart (SVG)");
    CLI::Option* scalingChart =
        cmd->add_option("--scaling-chart", args->scalingChartPath, "Write the scaling chart (SVG)");
    CLI::Option* noThroughput = cmd->add_flag("--no-throughput", args->noThroughput,
                                              "Skip every throughput measurement (methods, scaling, key)");
    cmd->add_flag("--no-methods", args->noMethods, "Skip the per-method table");
    CLI::Option* noScaling = cmd->add_flag("--no-scaling", args->noScaling, "Skip the scaling curve");
    // A chart asked for must be drawn: refuse the flags that skip its data.
    scalingChart->excludes(noScaling)->excludes(noThroughput);
    cmd->add_flag("--no-key", args->noKey, "Skip the key GPU/CPU figure");
    cmd->add_flag("--no-gpu", args->noGpu, "CPU reference only");
    CLI::Option* noChart = cmd->add_flag("--no-chart", args->noChart, "Skip the work-precision sweep and chart");
    noChart->excludes(chart);
    cmd->callback([args] { runBench(*args); });
}

} // namespace sculptflow::cli
