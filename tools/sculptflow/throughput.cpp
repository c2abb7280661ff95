// Solver throughput: vertices per second on the GPU and the CPU reference
// (one thread and every core), per method and vertex count.
#include "throughput.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <thread>

#include "cpu_solver.hpp"
#include "default_case.hpp"
#include "error.hpp"

namespace sculptflow::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr size_t kWarmUpVertices = 256;

int repeatsFor(const ThroughputOptions& options, size_t vertices) {
    if (options.repeats) return std::max(1, *options.repeats);
    return vertices >= 1'000'000 ? 1 : 3;
}

SolverOptions optionsFor(Method method) {
    SolverOptions options;
    options.method = method;
    return options;
}

// The best wall-clock time of `repeats` CPU runs, and the first run's solution.
double bestCpuSeconds(const Move& move, std::span<const glm::vec3> start, const SolverOptions& options,
                      unsigned threads, int repeats, CpuSolution* first) {
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r < repeats; ++r) {
        const auto begin = std::chrono::steady_clock::now();
        CpuSolution solution = solveOnCpu(move, start, options, threads);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        if (r == 0 && first) *first = std::move(solution);
    }
    return best;
}

double maxDifference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    double worst = 0.0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max(worst, double(glm::length(glm::dvec3(a[i]) - glm::dvec3(b[i]))));
    return worst;
}

std::string rateText(double rate) {
    char buffer[32];
    if (std::isnan(rate)) return "n/a";
    std::snprintf(buffer, sizeof buffer, "%.3f", rate * 1e-6);
    return buffer;
}

} // namespace


Throughput measureThroughput(const Move& move, GpuSolver* gpu, const ThroughputOptions& options) {
    if (move.tools.empty()) throw Error("bench: the move has no tools to place the workload around");
    Throughput result;
    result.allThreads = options.allThreads ? options.allThreads : std::max(1u, std::thread::hardware_concurrency());
    result.device = gpu ? gpu->context().deviceName() : "no GPU";
    const size_t largest = options.sizes.empty() ? 0 : *std::max_element(options.sizes.begin(), options.sizes.end());
    const std::vector<glm::vec3> ball = ballAroundTip(move.tools.front(), std::max(largest, kWarmUpVertices));

    if (gpu) { // the timed runs use the pipelines without statistics
        GpuMesh warmUp(gpu->context(), std::span(ball).first(kWarmUpVertices));
        for (Method method : options.methods) gpu->run(warmUp, move, optionsFor(method), false);
    }

    for (size_t size : options.sizes) {
        const std::span<const glm::vec3> start = std::span(ball).first(size);
        std::unique_ptr<GpuMesh> mesh = gpu ? std::make_unique<GpuMesh>(gpu->context(), start) : nullptr;
        for (Method method : options.methods) {
            const SolverOptions solver = optionsFor(method);
            ThroughputRow row;
            row.method = method;
            row.vertices = size;
            row.repeats = repeatsFor(options, size);

            CpuSolution reference;
            const double one = bestCpuSeconds(move, start, solver, 1, row.repeats, &reference);
            const double all = bestCpuSeconds(move, start, solver, result.allThreads, row.repeats, nullptr);
            row.cpuOneRate = double(size) / one;
            row.cpuAllRate = double(size) / all;
            row.evaluationsPerVertex = reference.report.meanEvaluations();

            row.gpuRate = kNaN;
            row.gpuCpuMaxDifference = kNaN;
            if (mesh) {
                double best = std::numeric_limits<double>::infinity();
                for (int r = 0; r < row.repeats; ++r)
                    best = std::min(best, gpu->run(*mesh, move, solver, false).gpuMilliseconds);
                if (std::isfinite(best) && best > 0.0) row.gpuRate = double(size) / (best * 1e-3);
                row.gpuCpuMaxDifference = maxDifference(mesh->readPositions(), reference.positions);
            }
            result.rows.push_back(row);
        }
    }
    // Sizes were the outer loop so that each size is uploaded once; report by method.
    std::stable_sort(result.rows.begin(), result.rows.end(), [&](const ThroughputRow& a, const ThroughputRow& b) {
        auto rank = [&](Method m) { return std::find(options.methods.begin(), options.methods.end(), m); };
        return rank(a.method) < rank(b.method);
    });
    return result;
}

std::string throughputTable(const Throughput& t) {
    std::string out;
    char line[200];
    std::snprintf(line, sizeof line,
                  "throughput: GPU %s (timestamps around the dispatch), CPU reference with 1 and %u threads "
                  "(wall clock); best of the runs\n",
                  t.device.c_str(), t.allThreads);
    out += line;
    std::snprintf(line, sizeof line, "%-7s %9s %8s %12s %12s %14s %10s %10s\n", "method", "vertices", "runs",
                  "GPU Mvert/s", "CPU-1 Mvert/s", "CPU-all Mvert/s", "GPU/CPU-1", "evals/vtx");
    out += line;
    for (const ThroughputRow& r : t.rows) {
        char ratio[32] = "n/a";
        if (!std::isnan(r.gpuRate)) std::snprintf(ratio, sizeof ratio, "%.2f", r.gpuRate / r.cpuOneRate);
        std::snprintf(line, sizeof line, "%-7s %9zu %8d %12s %13s %15s %10s %10.1f\n",
                      std::string(methodName(r.method)).c_str(), r.vertices, r.repeats, rateText(r.gpuRate).c_str(),
                      rateText(r.cpuOneRate).c_str(), rateText(r.cpuAllRate).c_str(), ratio, r.evaluationsPerVertex);
        out += line;
    }
    return out;
}

nlohmann::json throughputJson(const Throughput& t) {
    nlohmann::json rows = nlohmann::json::array();
    for (const ThroughputRow& r : t.rows) {
        rows.push_back({
            {"method", methodName(r.method)},
            {"vertices", r.vertices},
            {"runs", r.repeats},
            {"gpu_verts_per_s", r.gpuRate}, // NaN (no GPU) is written as null
            {"cpu_1_verts_per_s", r.cpuOneRate},
            {"cpu_all_verts_per_s", r.cpuAllRate},
            {"gpu_over_cpu_1", r.gpuRate / r.cpuOneRate},
            {"evaluations_per_vertex", r.evaluationsPerVertex},
            {"gpu_cpu_max_difference_voxels", r.gpuCpuMaxDifference},
        });
    }
    return {
        {"device", t.device},
        {"cpu_threads", t.allThreads},
        {"workload", "uniform in a ball of 2 outer radii around the first tool's tip at pose A, seed 12345"},
        {"solver_options", "defaults (tol 0.1 voxel, 64 attempts; rk4: 1 step per segment)"},
        {"gpu_timing", "timestamps around the dispatch (no upload or readback)"},
        {"cpu_timing", "wall clock of solveOnCpu (statistics included)"},
        {"rows", std::move(rows)},
    };
}

} // namespace sculptflow::cli
