// Solver throughput benchmarks: vertices per second of the GPU path and the CPU
// reference (one thread, all cores), for every method, on the built-in move and
// on a recorded stroke. GPU times are the solver's timestamps around the dispatch.
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

#include "cpu_solver.hpp"
#include "default_case.hpp"
#include "gpu_solver.hpp"
#include "motion.hpp"
#include "solver_options.hpp"
#include "stroke.hpp"

namespace sculptflow {
namespace {

constexpr Method kMethods[] = {Method::Rk4, Method::Rk4Double, Method::Bs32, Method::Dp45};
constexpr int64_t kSizes[] = {10'000, 100'000};
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

void setCounters(benchmark::State& state, int64_t count, double evaluationsPerVertex) {
    state.counters["verts/s"] = benchmark::Counter(double(count), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["evals/vertex"] = evaluationsPerVertex;
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
        for (Method method : kMethods) {
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
