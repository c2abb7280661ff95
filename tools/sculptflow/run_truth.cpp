// The double-precision reference for a run, segment by segment, with the mask.
#include "run_truth.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include <sculptflow/error.hpp>

namespace sculptflow::cli {
namespace {

// The whole chain for some vertices (`mask` empty or one value for each).
GroundTruth chainSegments(std::span<const Move> segments, std::span<const glm::vec3> first,
                          std::span<const float> mask, const GroundTruthOptions& options) {
    const size_t n = first.size();
    GroundTruth result;
    result.positions.assign(first.begin(), first.end());
    result.errorEstimate.assign(n, 0.0);
    result.converged.assign(n, true);
    // Each segment starts where the last one's double solve ended: rounding it to
    // float, as a solver must, would put that rounding, stretched by the later
    // segments, into the truth (seed 29130: 0.0007 voxel of its 0.011).
    for (const Move& move : segments) {
        const GroundTruth segment = groundTruth(move, result.positions, options);
        for (size_t i = 0; i < n; ++i) {
            const glm::dvec3 x0 = result.positions[i];
            const double m = mask.empty() ? 1.0 : double(mask[i]);
            result.positions[i] = m == 0.0 ? x0 : x0 + m * (segment.positions[i] - x0);
            result.errorEstimate[i] += m * segment.errorEstimate[i];
            result.converged[i] = result.converged[i] && segment.converged[i];
        }
    }
    return result;
}

} // namespace

GroundTruth runGroundTruth(const MoveRun& run, const GroundTruthOptions& options) {
    const size_t n = run.start.size();
    if (!run.mask.empty()) validateMask(run.mask, n, "mask");
    // A vertex's path depends on its own start only: ranges of vertices go to threads.
    const size_t threads =
        std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(n / 256, 1));
    std::vector<GroundTruth> parts(threads);
    std::vector<std::exception_ptr> failures(threads);
    auto range = [&](size_t t) { return std::pair(n * t / threads, n * (t + 1) / threads); };
    {
        std::vector<std::jthread> workers;
        for (size_t t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                const auto [first, last] = range(t);
                try {
                    parts[t] = chainSegments(run.segments, run.start.subspan(first, last - first),
                                             run.mask.empty() ? run.mask : run.mask.subspan(first, last - first),
                                             options);
                } catch (...) {
                    failures[t] = std::current_exception();
                }
            });
    }
    for (const std::exception_ptr& failure : failures)
        if (failure) std::rethrow_exception(failure);
    GroundTruth result;
    for (const GroundTruth& part : parts) {
        result.positions.insert(result.positions.end(), part.positions.begin(), part.positions.end());
        result.errorEstimate.insert(result.errorEstimate.end(), part.errorEstimate.begin(), part.errorEstimate.end());
        result.converged.insert(result.converged.end(), part.converged.begin(), part.converged.end());
    }
    return result;
}

} // namespace sculptflow::cli
