// The main of the GPU benchmarks after their own options: Google Benchmark's
// flags, the device's name in the report's context (or why there is none), then
// every benchmark that registerAll adds.
#pragma once

#include <exception>
#include <string>

#include <benchmark/benchmark.h>

#include "gpu_solver.hpp"

namespace sculptflow {

template <class Solver, class Register>
int runGpuBenchmarks(int argc, char** argv, Solver&& solver, Register&& registerAll) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    try {
        benchmark::AddCustomContext("device", solver().context().deviceName());
    } catch (const std::exception& e) {
        benchmark::AddCustomContext("device", std::string("unavailable: ") + e.what());
    }
    registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace sculptflow
