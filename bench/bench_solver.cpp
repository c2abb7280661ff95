// Solver throughput benchmarks: vertices per second of the GPU path and the CPU
// reference (one thread, all cores), for every method, on the built-in move and
// on a recorded stroke; and the GPU's scaling curve (bs32, 10k to 4M vertices)
// fully active and 5% active (`sculptflow bench`'s workloads). GPU times are the
// solver's timestamps around the dispatch. Counters: verts_per_s, evals (per
// vertex, from a run with statistics) and active (the fraction not culled).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <benchmark/benchmark.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>
#include <sculptflow/stroke.hpp>
#include "src/demo_fixtures.hpp"
#include "src/kernel_tools.hpp"
#include "throughput.hpp"

namespace sculptflow {
namespace {

constexpr int64_t kSizes[] = {10'000, 100'000};
// The scaling curve (GPU, bs32): `sculptflow bench`'s default sizes.
constexpr int64_t kScalingSizes[] = {10'000, 100'000, 1'000'000, 2'000'000, 4'000'000};
constexpr double kActiveFraction = 0.05;
constexpr const char* kRecordedName = "test0_righthandstroke.bin";

// Which move a benchmark integrates.
enum class Workload { Builtin, Recorded };

std::filesystem::path strokesDir() {
    if (const char* env = std::getenv("SCULPTFLOW_STROKES")) return env;
    return SCULPTFLOW_DEFAULT_STROKES_DIR;
}

// The workload's move (voxels), or nullptr with `why` set when it cannot be had.
const Move* workloadMove(Workload workload, std::string& why) {
    if (workload == Workload::Builtin) {
        static const Move builtin = moveToolMotion(defaultStroke());
        return &builtin;
    }
    static const std::optional<Move> recorded = []() -> std::optional<Move> {
        const std::filesystem::path path = strokesDir() / kRecordedName;
        if (!std::filesystem::is_regular_file(path)) return std::nullopt;
        return moveToolMotion(readStroke(path, {.kindOverride = ToolKind::Kelvinlet}));
    }();
    if (!recorded)
        why = "recorded stroke " + (strokesDir() / kRecordedName).string() +
              " not found (set SCULPTFLOW_STROKES to its directory)";
    return recorded ? &*recorded : nullptr;
}


const std::vector<glm::vec3>& vertices(Workload workload, const Move& move, int64_t count) {
    static std::map<std::pair<Workload, int64_t>, std::vector<glm::vec3>> cache;
    auto [it, inserted] = cache.try_emplace({workload, count});
    if (inserted) it->second = ballAroundTip(move.tools.front(), size_t(count));
    return it->second;
}

SolverOptions optionsFor(Method method) {
    SolverOptions options;
    options.method = method;
    return options;
}

// One context (no validation: this is for timing) and one solver per process.
GpuSolver& gpuSolver() {
    static Context context(ContextOptions{.validation = false});
    static GpuSolver solver(context);
    return solver;
}

// One GpuMesh per workload and size, and per method the mean evaluations per
// vertex from a warm-up run with statistics; a second warm-up builds the
// pipeline without statistics that the timed runs use.
struct GpuCase {
    GpuMesh* mesh = nullptr;
    double evaluationsPerVertex = 0.0;
    bool timestamps = true;
};

GpuCase prepareGpu(Workload workload, const Move& move, Method method, int64_t count) {
    GpuSolver& solver = gpuSolver(); // first, so the statics below are destroyed before it
    static std::map<std::pair<Workload, int64_t>, std::unique_ptr<GpuMesh>> meshes;
    static std::map<std::tuple<Workload, Method, int64_t>, GpuCase> cases;
    if (auto found = cases.find({workload, method, count}); found != cases.end()) return found->second;

    std::unique_ptr<GpuMesh>& mesh = meshes[{workload, count}];
    if (!mesh) mesh = std::make_unique<GpuMesh>(solver.context(), vertices(workload, move, count));
    const SolverOptions options = optionsFor(method);
    GpuCase prepared;
    prepared.mesh = mesh.get();
    prepared.evaluationsPerVertex = solver.run(*mesh, move, options, true).report.meanEvaluations();
    prepared.timestamps = !std::isnan(solver.run(*mesh, move, options, false).gpuMilliseconds);
    cases.emplace(std::tuple{workload, method, count}, prepared);
    return prepared;
}

void setCounters(benchmark::State& state, int64_t count, double evaluationsPerVertex, double active = 1.0) {
    state.counters["verts_per_s"] = benchmark::Counter(double(count), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["evals"] = evaluationsPerVertex;
    state.counters["active"] = active;
}

// The scaling curve's workload: the ball, or 5% of it among culled vertices.
enum class Activity { Full, Scattered, Clustered };

// One workload at a time on the GPU (4M vertices are 96 MB with the output), with
// its evaluations per vertex and active fraction from a run with statistics.
struct ScalingCase {
    std::unique_ptr<GpuMesh> mesh;
    Activity activity = Activity::Full;
    int64_t count = 0;
    double evaluationsPerVertex = 0.0;
    double active = 0.0;
};

ScalingCase& prepareScaling(const Move& move, Activity activity, int64_t count, const SolverOptions& options) {
    GpuSolver& solver = gpuSolver();
    static ScalingCase current;
    if (current.mesh && current.activity == activity && current.count == count) return current;
    current.mesh.reset();
    static bool warmed = false;
    if (!warmed) { // both pipeline variants, on a small mesh
        GpuMesh small(solver.context(), ballAroundTip(move.tools.front(), 256));
        solver.run(small, move, options, true);
        solver.run(small, move, options, false);
        warmed = true;
    }
    std::vector<glm::vec3> vertices;
    if (activity == Activity::Full) {
        vertices = ballAroundTip(move.tools.front(), size_t(count));
    } else {
        const std::vector<double> tolerances = cli::everyMethodsInternalTolerance(move, options);
        vertices = cli::partlyActiveWorkload(move, size_t(count), kActiveFraction,
                                             activity == Activity::Scattered ? cli::Layout::Scattered
                                                                             : cli::Layout::Clustered,
                                             0, tolerances)
                       .vertices;
    }
    current.mesh = std::make_unique<GpuMesh>(solver.context(), vertices);
    current.activity = activity;
    current.count = count;
    const SolveReport report = solver.run(*current.mesh, move, options, true).report;
    current.evaluationsPerVertex = report.meanEvaluations();
    current.active = double(report.vertices - report.culled) / double(std::max<size_t>(report.vertices, 1));
    return current;
}

void gpuScalingBenchmark(benchmark::State& state, Activity activity) {
    std::string why;
    const Move* move = workloadMove(Workload::Builtin, why);
    const int64_t count = state.range(0);
    const SolverOptions options = optionsFor(Method::Bs32);
    ScalingCase* prepared = nullptr;
    try {
        prepared = &prepareScaling(*move, activity, count, options);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
        return;
    }
    GpuSolver& solver = gpuSolver();
    for (auto _ : state) {
        GpuRun run = solver.run(*prepared->mesh, *move, options, /*statistics=*/false);
        if (std::isnan(run.gpuMilliseconds)) {
            state.SkipWithError("the device has no compute timestamps");
            return;
        }
        state.SetIterationTime(run.gpuMilliseconds * 1e-3);
    }
    setCounters(state, count, prepared->evaluationsPerVertex, prepared->active);
}

void gpuBenchmark(benchmark::State& state, Workload workload, Method method) {
    std::string why;
    const Move* move = workloadMove(workload, why);
    if (!move) {
        state.SkipWithError(why.c_str());
        return;
    }
    const int64_t count = state.range(0);
    GpuCase prepared;
    try {
        prepared = prepareGpu(workload, *move, method, count);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
        return;
    }
    if (!prepared.timestamps) {
        state.SkipWithError("the device has no compute timestamps");
        return;
    }

    GpuSolver& solver = gpuSolver();
    const SolverOptions options = optionsFor(method);
    for (auto _ : state) {
        GpuRun run = solver.run(*prepared.mesh, *move, options, /*statistics=*/false);
        state.SetIterationTime(run.gpuMilliseconds * 1e-3);
    }
    setCounters(state, count, prepared.evaluationsPerVertex);
}

// threads = 0: every core.
void cpuBenchmark(benchmark::State& state, Workload workload, Method method, unsigned threads) {
    std::string why;
    const Move* move = workloadMove(workload, why);
    if (!move) {
        state.SkipWithError(why.c_str());
        return;
    }
    const int64_t count = state.range(0);
    const std::vector<glm::vec3>& start = vertices(workload, *move, count);
    const SolverOptions options = optionsFor(method);
    double evaluationsPerVertex = 0.0;
    for (auto _ : state) {
        CpuSolution out = solveOnCpu(*move, start, options, threads);
        benchmark::DoNotOptimize(out.positions.data());
        evaluationsPerVertex = out.report.meanEvaluations();
    }
    setCounters(state, count, evaluationsPerVertex);
}

// Each runs for the library's default minimum of 0.5 s (--benchmark_min_time):
// a per-benchmark MinTime() would put "min_time:0.500" into every name.
void registerAll() {
    for (Workload workload : {Workload::Builtin, Workload::Recorded}) {
        const std::string prefix = workload == Workload::Builtin ? "" : "recorded/";
        for (Method method : allMethods()) {
            const std::string suffix = prefix + std::string(methodName(method));
            auto* gpu = benchmark::RegisterBenchmark(("gpu/" + suffix).c_str(), gpuBenchmark, workload, method);
            gpu->UseManualTime();
            auto* single = benchmark::RegisterBenchmark(("cpu-single/" + suffix).c_str(), cpuBenchmark,
                                                        workload, method, 1u);
            auto* all = benchmark::RegisterBenchmark(("cpu-all/" + suffix).c_str(), cpuBenchmark,
                                                     workload, method, 0u);
            for (benchmark::internal::Benchmark* b : {gpu, single, all}) {
                for (int64_t size : kSizes) b->Arg(size);
                b->Unit(benchmark::kMillisecond);
            }
            single->UseRealTime();
            all->UseRealTime();
        }
    }
    // The scaling curve. From 1M vertices one iteration takes longer than the
    // minimum time on lavapipe, so each size runs once (plus one run with statistics).
    for (auto [name, activity] : {std::pair{"gpu/scaling/bs32", Activity::Full},
                                  std::pair{"gpu/scaling-5pct-scattered/bs32", Activity::Scattered},
                                  std::pair{"gpu/scaling-5pct-clustered/bs32", Activity::Clustered}}) {
        auto* b = benchmark::RegisterBenchmark(name, gpuScalingBenchmark, activity);
        for (int64_t size : kScalingSizes) b->Arg(size);
        b->UseManualTime();
        b->Unit(benchmark::kMillisecond);
    }
}

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    std::string device;
    try {
        device = sculptflow::gpuSolver().context().deviceName();
    } catch (const std::exception& e) {
        device = std::string("unavailable: ") + e.what(); // GPU benchmarks then skip
    }
    benchmark::AddCustomContext("device", device);
    benchmark::AddCustomContext("cpu threads (cpu-all)", std::to_string(std::thread::hardware_concurrency()));
    sculptflow::registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
