// The CPU reference: runs the shared kernel (src/kernel.hpp) on every vertex,
// split into contiguous chunks over std::threads. Results do not depend on the
// thread count: each vertex is integrated independently.
#include <sculptflow/cpu_solver.hpp>

#include <algorithm>
#include <thread>

#include <sculptflow/mesh.hpp>
#include "kernel_tools.hpp"
#include "verified_chain.hpp"

namespace sculptflow {

namespace {

// Every vertex through one kernel. `carried`: with kernel.carryBound, each vertex's
// error bound, read and replaced (integrateVertex).
CpuSolution solveWithKernel(const kernel::Kernel& prototype, std::span<const glm::vec3> start,
                            std::span<const float> mask, std::span<float> carried, unsigned threads) {
    if (!mask.empty()) validateMask(mask, start.size(), "mask");
    const bool volumeChange = prototype.computeVolumeChange;
    CpuSolution out;
    out.positions.resize(start.size());
    out.statistics.resize(start.size());
    if (volumeChange) out.volumeChanges.resize(start.size());

    auto solveRange = [&](size_t begin, size_t end) {
        kernel::Kernel k = prototype; // the kernel's member functions are not const
        for (size_t i = begin; i < end; ++i) {
            const float bound = prototype.carryBound ? carried[i] : 0.0f;
            kernel::VertexResult r = mask.empty() ? k.integrateVertex(start[i], bound)
                                                  : k.integrateMaskedVertex(start[i], mask[i], bound);
            out.positions[i] = r.position;
            out.statistics[i] = {r.flags, r.acceptedSteps, r.rejectedSteps, r.evaluations};
            if (volumeChange) out.volumeChanges[i] = r.volumeChange;
            if (prototype.carryBound) carried[i] = r.errorBound;
        }
    };

    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<size_t>(threads, std::max<size_t>(1, start.size() / 256)));
    if (threads <= 1) {
        solveRange(0, start.size());
    } else {
        std::vector<std::jthread> workers;
        size_t chunk = (start.size() + threads - 1) / threads;
        for (size_t begin = 0; begin < start.size(); begin += chunk)
            workers.emplace_back(solveRange, begin, std::min(start.size(), begin + chunk));
    }
    out.report = summarize(out.statistics);
    return out;
}

} // namespace

CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start, std::span<const float> mask,
                       const SolverOptions& options, unsigned threads) {
    return solveWithKernel(makeKernel(move, options), start, mask, {}, threads);
}

CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start, const SolverOptions& options,
                       unsigned threads) {
    return solveOnCpu(move, start, {}, options, threads);
}

CpuSolution solveContinuousOnCpu(std::span<const Move> segments, std::span<const glm::vec3> start,
                                 std::span<const float> mask, const SolverOptions& options, unsigned threads) {
    std::vector<kernel::Kernel> kernels;
    for (size_t k = 0; k < segments.size(); ++k) // all validated before any work
        kernels.push_back(makeSegmentKernel(segments[k], options, k, segments.size()));
    if (!mask.empty()) validateMask(mask, start.size(), "mask");
    CpuSolution out;
    out.positions.assign(start.begin(), start.end());
    out.statistics.resize(start.size());
    if (options.volumeChange) out.volumeChanges.assign(start.size(), 1.0f);
    std::vector<float> carried(start.size(), 0.0f); // each vertex's error bound so far
    for (const kernel::Kernel& kernel : kernels) {
        CpuSolution step = solveWithKernel(kernel, out.positions, mask, carried, threads);
        out.positions = std::move(step.positions);
        accumulateSegment(out.statistics, step.statistics);
        // The end map is the segments' maps in turn: its volume change is their product.
        for (size_t i = 0; i < step.volumeChanges.size(); ++i) out.volumeChanges[i] *= step.volumeChanges[i];
        out.segments.push_back(std::move(step.report));
    }
    out.report = combineSegments(out.segments);
    if (checksWholeChain(options, segments.size())) {
        const CpuSolution plain =
            solveContinuousOnCpu(segments, plainChainStart(start), mask, plainChainOptions(options), threads);
        checkAgainstPlainChain(plain.positions, plain.statistics, options.tolerance, out.positions, out.statistics,
                               out.report);
    }
    return out;
}

} // namespace sculptflow
