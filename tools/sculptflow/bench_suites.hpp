// The suites of `sculptflow bench`: the per-method table, the scaling curve
// and its targets, the key GPU/CPU figure and the work-precision sweep. Each
// adds its records to the session's Bench and its figures to the summary.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_runs.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {

// A figure the run could not measure (no GPU, too few sizes): null in the JSON.
constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// `sculptflow bench`'s command line; an unset size takes its default (full or --quick).
struct BenchArgs {
    MoveInputArgs inputs;
    bool quick = false;
    std::vector<std::string> methods = methodChoices();
    std::vector<size_t> methodSizes;  // default {100000}; quick {2000}
    std::vector<size_t> sizes;        // scaling; default 10k … 4M; quick {2000, 40000}
    std::string scalingMethod = "bs32";
    std::vector<std::string> scalingBackends{"gpu"};
    double activeFraction = 0.05;
    std::vector<std::string> layouts{"scattered", "clustered"};
    std::optional<size_t> keySize;    // default 1,000,000; quick 20,000
    std::string keyStroke;            // default ../shared/data/strokes/test0_righthandstroke.bin
    std::optional<size_t> probes;     // default 1000; quick 64
    std::optional<size_t> sweepVertices; // default 20,000; quick 500
    std::optional<int> repeats;
    std::optional<double> minMeasureMs; // default 50; quick 5
    std::optional<double> warmupMs;     // default 1000 on a GPU, 0 on a CPU device or quick
    std::optional<double> budgetSeconds; // measure nothing more after this long; the JSON has what was done
    std::optional<double> peakGflops;
    unsigned threads = 0;
    std::string jsonPath;
    std::string chartPath;
    std::string scalingChartPath;
    bool noThroughput = false;
    bool noMethods = false;
    bool noScaling = false;
    bool noKey = false;
    bool noChart = false;
    bool noGpu = false;
};

// What the suites of one run share.
struct BenchSession {
    const BenchArgs& args;
    const MoveInputs& in;
    Bench& bench;
    MeasureContext context; // the stroke's, with its probes
    size_t probeCount = 0;
    unsigned allThreads = 1;
    nlohmann::json summary = nlohmann::json::object();
};

// The stroke as a record names it: its path (or "built-in") and kind.
std::string strokeLabel(const MoveInputArgs& inputs);

void runMethods(BenchSession& s, const std::vector<Method>& methods, const std::vector<size_t>& sizes);
void runScaling(BenchSession& s, const std::vector<size_t>& sizes);
void runKey(BenchSession& s, size_t keySize);
// The work-precision sweep on the CPU reference; returns its JSON summary.
nlohmann::json runWorkPrecision(BenchSession& s, const std::vector<Method>& methods, size_t sweepMost);

} // namespace sculptflow::cli
