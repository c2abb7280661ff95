#include "gpu_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace sculptflow::cli {
namespace {

using Clock = std::chrono::steady_clock;

double elapsedMs(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// Runs the work until the clock reads steady near its boost, or `options.warmupMs`
// of wall time passes. Returns the GPU time spent.
double warmUp(const std::function<double()>& runMs, GpuClock& clock, const GpuTimingOptions& options,
              bool& steady) {
    steady = false;
    if (options.warmupMs <= 0.0) return 0.0;
    const std::optional<unsigned> boost = clock.maxSmMhz();
    std::vector<unsigned> readings;
    // The first run may build a pipeline variant, which can take most of the
    // budget on a real driver: the warm-up's time starts after it.
    double gpuMs = runMs();
    const Clock::time_point start = Clock::now();
    Clock::time_point lastReading = start;
    while (elapsedMs(start) < options.warmupMs) {
        gpuMs += runMs();
        if (elapsedMs(lastReading) < 50.0) continue;
        lastReading = Clock::now();
        const std::optional<unsigned> mhz = clock.smMhz();
        if (!mhz) continue; // no clock: warm for the whole time
        readings.push_back(*mhz);
        if (readings.size() < 3) continue;
        const auto [lo, hi] = std::minmax_element(readings.end() - 3, readings.end());
        const bool flat = double(*hi - *lo) <= options.steadyWithin * double(*hi);
        const bool high = !boost || double(*lo) >= options.nearBoost * double(*boost);
        if (flat && high) {
            steady = true;
            break;
        }
    }
    return gpuMs;
}

} // namespace

GpuTiming timeGpuWork(const std::function<double()>& runMs, GpuClock& clock, const GpuTimingOptions& options) {
    GpuTiming t;
    t.warmupMs = warmUp(runMs, clock, options, t.warmSteady);
    // One run sizes the batch; it is also the first measurement's floor.
    const double first = std::max(runMs(), 1e-6);
    t.batchRuns = int(std::clamp(std::ceil(options.minMeasureMs / first), 1.0, 100000.0));
    t.msPerRun = std::numeric_limits<double>::infinity();
    for (int m = 0; m < std::max(1, options.measurements); ++m) {
        ClockSample sample{clock.smMhz(), std::nullopt};
        double total = 0.0;
        for (int r = 0; r < t.batchRuns; ++r) total += runMs();
        sample.afterMhz = clock.smMhz();
        t.clocks.push_back(sample);
        t.msPerRun = std::min(t.msPerRun, total / t.batchRuns);
        ++t.measurements;
    }
    return t;
}

nlohmann::json timingJson(const GpuTiming& t) {
    nlohmann::json clocks = nlohmann::json::array();
    auto mhz = [](const std::optional<unsigned>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    for (const ClockSample& c : t.clocks) clocks.push_back({mhz(c.beforeMhz), mhz(c.afterMhz)});
    return {{"batch_runs", t.batchRuns},
            {"measurements", t.measurements},
            {"ms_per_run", t.msPerRun},
            {"sm_clock_mhz_before_after", clocks},
            {"warmup_ms", t.warmupMs},
            {"warm_steady", t.warmSteady}};
}

} // namespace sculptflow::cli
