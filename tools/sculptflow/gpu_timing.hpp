// How the bench times the GPU so that a real GPU's clock cannot fool it: warm
// the GPU until its SM clock is steady (or for a fixed time where no clock can
// be read), time batches of back-to-back runs holding at least `minMeasureMs`
// of GPU work, keep the best of `measurements` batches, and read the clock
// before and after each batch.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu_clock.hpp"

namespace sculptflow::cli {

struct GpuTimingOptions {
    int measurements = 5;        // batches timed; the fastest run rate is kept
    double minMeasureMs = 50.0;  // GPU work per batch, at least
    double warmupMs = 0.0;       // at most this long warming before the batches; 0: none
    double steadyWithin = 0.02;  // warm: three clock readings 50 ms apart within this fraction…
    double nearBoost = 0.9;      // …and at least this fraction of the maximum SM clock
};

struct ClockSample {
    std::optional<unsigned> beforeMhz, afterMhz;
};

struct GpuTiming {
    double msPerRun = 0.0;    // the best batch's GPU time over its runs
    int batchRuns = 1;        // runs per batch
    int measurements = 0;
    std::vector<ClockSample> clocks; // one per batch
    double warmupMs = 0.0;    // GPU time spent warming
    bool warmSteady = false;  // the warm-up ended on a steady clock (false: no clock, or it ran out of time)
};

// `runMs` runs the work once and returns its GPU milliseconds (timestamps).
GpuTiming timeGpuWork(const std::function<double()>& runMs, GpuClock& clock, const GpuTimingOptions& options);

nlohmann::json timingJson(const GpuTiming& timing);

} // namespace sculptflow::cli
