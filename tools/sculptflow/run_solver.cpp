// Solving a command's run on the GPU or the CPU reference.
#include "run_solver.hpp"

#include <chrono>

#include <sculptflow/error.hpp>

namespace sculptflow::cli {
namespace {

// Move-tool mode leaves the per-segment list empty; callers want it either way.
std::vector<SolveReport> segmentsOrWhole(std::vector<SolveReport> segments, const SolveReport& whole) {
    if (segments.empty()) segments.push_back(whole);
    return segments;
}

void requireSegments(const MoveRun& run) {
    if (run.segments.empty()) throw Error("no move to solve");
    if (run.mode == MoveMode::Move && run.segments.size() != 1)
        throw Error("move-tool mode solves one move, not " + std::to_string(run.segments.size()));
}

} // namespace

TolerancePlan tolerancePlan(const MoveRun& run, const SolverOptions& options) {
    requireSegments(run);
    return planTolerance(run.segments.front(), options, run.mode == MoveMode::Continuous ? run.segments.size() : 1);
}

RunSolution solveRunOnGpu(GpuSolver& solver, const MoveRun& run, const SolverOptions& options) {
    requireSegments(run);
    GpuSolution s = run.mode == MoveMode::Continuous
                        ? solveContinuousOnGpu(solver, run.segments, run.start, options, run.mask)
                        : solveOnGpu(solver, run.segments.front(), run.start, options, run.mask);
    std::vector<SolveReport> segments = segmentsOrWhole(std::move(s.segments), s.report);
    return {std::move(s.positions), std::move(s.statistics), s.report, std::move(segments), s.gpuMilliseconds,
            std::move(s.volumeChanges)};
}

RunSolution solveRunOnCpu(const MoveRun& run, const SolverOptions& options, unsigned threads) {
    requireSegments(run);
    const auto begin = std::chrono::steady_clock::now();
    CpuSolution s = run.mode == MoveMode::Continuous
                        ? solveContinuousOnCpu(run.segments, run.start, run.mask, options, threads)
                        : solveOnCpu(run.segments.front(), run.start, run.mask, options, threads);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    std::vector<SolveReport> segments = segmentsOrWhole(std::move(s.segments), s.report);
    return {std::move(s.positions), std::move(s.statistics), s.report, std::move(segments), ms,
            std::move(s.volumeChanges)};
}

} // namespace sculptflow::cli
