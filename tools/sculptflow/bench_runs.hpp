// The measurements of one `sculptflow bench` run, in order: a measurement asked
// for twice (the same stroke, workload, size, method, tolerance and backend) is
// made once.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sculptflow/gpu_solver.hpp>
#include "throughput.hpp"

namespace sculptflow::cli {

class Bench {
public:
    // CPU runs: `repeats`, or 3 below 1M vertices and 1 from 1M up, the best
    // kept. GPU runs: as `gpuTiming` says, its clock read from `clock`.
    Bench(GpuSolver* gpu, std::optional<int> repeats, std::unique_ptr<GpuClock> clock, GpuTimingOptions gpuTiming)
        : gpu_(gpu), repeats_(repeats), clock_(std::move(clock)), gpuTiming_(gpuTiming) {}

    bool hasGpu() const { return gpu_ != nullptr; }
    // After `deadline`, measure() measures nothing more and says so once.
    void setDeadline(std::chrono::steady_clock::time_point deadline) { deadline_ = deadline; }
    bool outOfTime() const { return deadline_ && std::chrono::steady_clock::now() >= *deadline_; }
    GpuClock& clock() { return *clock_; }

    // Measures `workload` for each backend (the GPU only when there is one) and
    // returns the records' indices.
    std::vector<size_t> measure(const std::string& suite, const MeasureContext& context, const Workload& workload,
                                const SolverOptions& options, const std::vector<Backend>& backends);

    const BenchRecord& at(size_t i) const { return records_[i]; }
    std::vector<BenchRecord>& records() { return records_; }

private:
    // Builds both pipeline variants of `method` on a small mesh, so that no timed
    // run includes the driver's compile.
    void warmUp(const Move& move, Method method);

    GpuSolver* gpu_;
    std::optional<int> repeats_;
    std::unique_ptr<GpuClock> clock_;
    GpuTimingOptions gpuTiming_;
    std::map<std::string, size_t> index_;
    std::vector<BenchRecord> records_;
    std::set<Method> warmed_;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
    bool toldOutOfTime_ = false;
};

// The records at `indices`, in that order.
std::vector<BenchRecord> select(const Bench& bench, const std::vector<size_t>& indices);

} // namespace sculptflow::cli
