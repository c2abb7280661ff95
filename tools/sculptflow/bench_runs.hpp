// The measurements of one `sculptflow bench` run, in order: a measurement asked
// for twice (the same stroke, workload, size, method, tolerance and backend) is
// made once.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpu_solver.hpp"
#include "throughput.hpp"

namespace sculptflow::cli {

class Bench {
public:
    Bench(GpuSolver* gpu, std::optional<int> repeats) : gpu_(gpu), repeats_(repeats) {}

    bool hasGpu() const { return gpu_ != nullptr; }

    // Measures `workload` for each backend (the GPU only when there is one) and
    // returns the records' indices. Runs: `repeats`, or 3 below 1M vertices and
    // 1 from 1M up, the best kept.
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
    std::map<std::string, size_t> index_;
    std::vector<BenchRecord> records_;
    std::set<Method> warmed_;
};

// The records at `indices`, in that order.
std::vector<BenchRecord> select(const Bench& bench, const std::vector<size_t>& indices);

} // namespace sculptflow::cli
