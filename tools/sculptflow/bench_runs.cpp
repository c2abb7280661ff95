// The measurements of one `sculptflow bench` run.
#include "bench_runs.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace sculptflow::cli {
namespace {

// ", 5 x 12 runs, SM 1980-1980 MHz": the batches, and the clock's range over them.
std::string timingSummary(const GpuTiming& t) {
    unsigned lo = ~0u, hi = 0;
    for (const ClockSample& c : t.clocks)
        for (const std::optional<unsigned>& mhz : {c.beforeMhz, c.afterMhz})
            if (mhz) lo = std::min(lo, *mhz), hi = std::max(hi, *mhz);
    char text[96];
    if (hi) std::snprintf(text, sizeof text, ", %d x %d runs, SM %u-%u MHz", t.measurements, t.batchRuns, lo, hi);
    else std::snprintf(text, sizeof text, ", %d x %d runs", t.measurements, t.batchRuns);
    return text;
}

} // namespace

void Bench::warmUp(const Move& move, Method method) {
    if (!gpu_ || warmed_.count(method)) return;
    const Workload small = ballWorkload(move, 256, 0);
    GpuMesh mesh(gpu_->context(), small.vertices);
    SolverOptions options;
    options.method = method;
    gpu_->run(mesh, move, options, true);
    gpu_->run(mesh, move, options, false);
    warmed_.insert(method);
}

std::vector<size_t> Bench::measure(const std::string& suite, const MeasureContext& context, const Workload& workload,
                                   const SolverOptions& options, const std::vector<Backend>& backends) {
    std::vector<size_t> indices;
    if (outOfTime()) {
        if (!toldOutOfTime_) std::printf("  (the time budget is spent: no more measurements)\n");
        toldOutOfTime_ = true;
        return indices;
    }
    std::unique_ptr<GpuMesh> mesh;
    const int runs = repeats_ ? std::max(1, *repeats_) : (workload.activeVertices >= 1'000'000 ? 1 : 3);
    for (Backend backend : backends) {
        char key[400];
        std::snprintf(key, sizeof key, "%s|%s|%zu|%s|%g|%d|%s", context.stroke.c_str(), workload.name.c_str(),
                      workload.vertices.size(), std::string(methodName(options.method)).c_str(),
                      options.tolerance, options.fixedSteps, std::string(backendName(backend)).c_str());
        if (auto found = index_.find(key); found != index_.end()) {
            indices.push_back(found->second);
            continue;
        }
        BenchRecord record;
        if (backend == Backend::Gpu) {
            if (!gpu_) continue;
            warmUp(*context.move, options.method);
            if (!mesh) mesh = std::make_unique<GpuMesh>(gpu_->context(), workload.vertices);
            record = measureGpu(context, workload, *gpu_, *mesh, options, *clock_, gpuTiming_);
        } else {
            record = measureCpu(context, workload, options, backend, runs);
        }
        record.suite = suite;
        std::printf("  %-7s %-5s %-28s %9zu vertices: %9.4f Mverts/s, %5.1f evals/vertex, active %5.1f%%%s\n",
                    std::string(methodName(record.method)).c_str(), std::string(backendName(backend)).c_str(),
                    record.workload.c_str(), record.vertices, record.vertsPerSecond * 1e-6, record.evalsMean,
                    100.0 * record.active, record.gpuTiming ? timingSummary(*record.gpuTiming).c_str() : "");
        std::fflush(stdout);
        index_[key] = records_.size();
        indices.push_back(records_.size());
        records_.push_back(std::move(record));
    }
    return indices;
}

std::vector<BenchRecord> select(const Bench& bench, const std::vector<size_t>& indices) {
    std::vector<BenchRecord> out;
    for (size_t i : indices) out.push_back(bench.at(i));
    return out;
}

} // namespace sculptflow::cli
