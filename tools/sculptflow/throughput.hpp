// Solver throughput: vertices per second on the GPU and the CPU reference
// (one thread and every core), per method and vertex count.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "gpu_solver.hpp"
#include "motion.hpp"
#include "solver_options.hpp"

namespace sculptflow::cli {

struct ThroughputOptions {
    std::vector<Method> methods{Method::Rk4, Method::Rk4Double, Method::Bs32, Method::Dp45};
    std::vector<size_t> sizes{10'000, 100'000, 1'000'000, 2'000'000};
    // Runs per measurement, the best kept; unset: 3 below 1M vertices, 1 from 1M up.
    std::optional<int> repeats;
    unsigned allThreads = 0; // the "all threads" CPU column; 0: hardware concurrency
};

// One method at one vertex count. Rates are vertices per second; NaN where not measured.
struct ThroughputRow {
    Method method = Method::Bs32;
    size_t vertices = 0;
    int repeats = 0;
    double gpuRate = 0.0;    // GPU timestamps around the dispatch
    double cpuOneRate = 0.0; // wall clock of the CPU reference, one thread
    double cpuAllRate = 0.0; // wall clock, allThreads threads
    double evaluationsPerVertex = 0.0;
    double gpuCpuMaxDifference = 0.0; // voxels, GPU output against the CPU reference's
};

struct Throughput {
    std::string device;   // the GPU's name, or why there is none
    unsigned allThreads = 0;
    std::vector<ThroughputRow> rows; // by method in the order asked, then by size
};

// Measures every method at every size with the move's default solver options.
// `gpu` may be null (no device): GPU rates are then NaN. Each GPU pipeline
// variant is warmed up once first (drivers may compile it on first dispatch).
Throughput measureThroughput(const Move& move, GpuSolver* gpu, const ThroughputOptions& options = {});

std::string throughputTable(const Throughput& throughput);
nlohmann::json throughputJson(const Throughput& throughput);

} // namespace sculptflow::cli
