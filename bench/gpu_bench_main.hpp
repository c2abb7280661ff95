// The main of the GPU benchmarks after their own options: Google Benchmark's
// flags, the device's name in the report's context, then every benchmark that
// registerAll adds (or that the file registered statically). Without a Vulkan
// device they are all replaced by one that skips with the reason, so that a
// machine without a driver gets one clear message and exit status 0.
#pragma once

#include <exception>
#include <string>

#include <benchmark/benchmark.h>

namespace sculptflow {

// `deviceName` opens the benchmarks' device and returns its name, or throws.
template <class DeviceName, class Register>
int runGpuBenchmarks(int argc, char** argv, DeviceName&& deviceName, Register&& registerAll) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    std::string device, unavailable;
    try {
        device = deviceName();
    } catch (const std::exception& e) {
        unavailable = e.what();
        device = "unavailable: " + unavailable;
    }
    benchmark::AddCustomContext("device", device);
    if (unavailable.empty()) {
        registerAll();
    } else {
        benchmark::ClearRegisteredBenchmarks();
        benchmark::RegisterBenchmark("no_vulkan_device", [unavailable](benchmark::State& state) {
            state.SkipWithError(("skipped, no Vulkan device: " + unavailable).c_str());
            for (auto _ : state) {
            }
        });
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace sculptflow
