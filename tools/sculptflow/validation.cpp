// `sculptflow validate`'s logic: the GPU against the CPU reference, and both against the double ground truth.
#include "validation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include <sculptflow/error.hpp>
#include "src/kernel.hpp"
#include "run_solver.hpp"
#include "run_stats.hpp"
#include "run_truth.hpp"

namespace sculptflow::cli {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point begin) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
}

// nlohmann writes NaN as null anyway; say so explicitly for timestamps a device lacks.
nlohmann::json numberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

nlohmann::json truthJson(const TruthComparison& t) {
    return {{"compared_vertices", t.compared},
            {"max_error_voxels", numberOrNull(t.maxError)},
            {"mean_error_voxels", numberOrNull(t.meanError)},
            {"flagged_vertices", t.flagged},
            {"truth_not_converged", t.notConverged},
            {"integrated_compared_vertices", t.integrated},
            {"in_reach_vertices", t.inReach}};
}

} // namespace

bool ValidationReport::passed() const {
    return std::all_of(checks.begin(), checks.end(), [](const ValidationCheck& c) { return c.passed; });
}

bool ValidationReport::checked() const {
    return std::all_of(checks.begin(), checks.end(), [](const ValidationCheck& c) { return c.checked; });
}

const char* ValidationReport::verdict() const { return !checked() ? "NOT CHECKED" : passed() ? "PASS" : "FAIL"; }

std::vector<std::string> ValidationReport::failedChecks() const {
    std::vector<std::string> failed;
    for (const ValidationCheck& c : checks)
        if (!c.passed) failed.push_back(c.name);
    return failed;
}

std::vector<ValidationCheck> evaluateChecks(const ReferenceComparison& reference, const TruthComparison& truth,
                                            const ValidationThresholds& thresholds) {
    std::vector<ValidationCheck> checks = {
        {"reference_p99_difference", "GPU vs CPU reference: 99th-percentile position difference (voxel)",
         reference.p99Difference, thresholds.reference, true, false},
        {"flag_agreement", "GPU vs CPU reference: fraction of vertices whose flags agree",
         reference.flagAgreement, thresholds.flagAgreement, false, false},
        {"truth_max_error", "GPU vs ground truth: max error over unflagged vertices (voxel)",
         truth.maxError, thresholds.truth, true, false},
    };
    // Appended, so that the value checks keep their places.
    checks.push_back({"compared_vertices",
                      "GPU vs ground truth: unflagged vertices in reach (integrated) that the checks compared",
                      double(truth.integrated), double(thresholds.minCompared), false, false});
    checks.push_back({"flagged_share",
                      "GPU: share of the vertices in reach flagged (min-step clamped, iteration cap, non-finite) "
                      "and so left out of the checks",
                      truth.flaggedShare(), thresholds.flaggedShare, true, false});
    // Written so that NaN fails either way.
    for (ValidationCheck& c : checks) c.passed = c.atMost ? c.value <= c.threshold : c.value >= c.threshold;
    // Too few compared: the value checks prove nothing, whatever their values.
    if (truth.integrated < thresholds.minCompared)
        for (ValidationCheck& c : checks)
            if (c.name != "compared_vertices" && c.name != "flagged_share") {
                c.checked = false;
                c.passed = false;
            }
    return checks;
}

std::vector<ValidationCheck> evaluateChecks(const ReferenceComparison& reference, const TruthComparison& gpuTruth,
                                            const TruthComparison& cpuTruth, const ValidationThresholds& thresholds) {
    TruthComparison worst = gpuTruth;
    worst.maxError = std::max(gpuTruth.maxError, cpuTruth.maxError); // never NaN: distance() gives infinity
    worst.integrated = std::min(gpuTruth.integrated, cpuTruth.integrated);
    std::vector<ValidationCheck> checks = evaluateChecks(reference, worst, thresholds);
    for (ValidationCheck& c : checks)
        if (c.name == "truth_max_error")
            c.description = "GPU and CPU reference vs ground truth: the larger max error over unflagged vertices (voxel)";
    return checks;
}

ValidationReport validateRun(GpuSolver& solver, const MoveRun& run, const SolverOptions& options, unsigned threads,
                             const ValidationThresholds& thresholds, const StageCallback& onStage) {
    validateSolverOptions(options); // before any work, naming the parameter
    auto stage = [&](std::string_view name) {
        if (onStage) onStage(name);
    };
    ValidationReport report;
    report.device = solver.context().deviceName();
    report.method = std::string(methodName(options.method));
    report.tolerance = options.tolerance;
    report.mode = run.mode;
    report.segments = run.segments.size();
    report.segmentTolerance = tolerancePlan(run, options).segment;
    report.vertices = run.start.size();
    report.cpuThreads = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    // At most one integration segment per tool (docs/solver.md, "Termination and cost"),
    // for each move; the mirrored copies count as tools.
    size_t tools = 1;
    for (const Move& move : run.segments) tools = std::max(tools, move.tools.size());
    report.worstCaseEvaluations = worstCaseEvaluations(options, int(tools));

    stage("GPU");
    RunSolution gpu = solveRunOnGpu(solver, run, options);
    report.gpu = gpu.report;
    report.gpuSegments = gpu.segments;
    report.gpuMaxEvaluations = maxRunEvaluations(gpu.statistics);
    report.gpuMilliseconds = gpu.milliseconds;

    stage("CPU reference");
    RunSolution cpu = solveRunOnCpu(run, options, threads);
    report.cpuMilliseconds = cpu.milliseconds;
    report.cpu = cpu.report;
    report.cpuSegments = cpu.segments;
    report.cpuMaxEvaluations = maxRunEvaluations(cpu.statistics);

    stage("ground truth");
    const auto begin = std::chrono::steady_clock::now();
    GroundTruth truth = runGroundTruth(run);
    report.truthMilliseconds = millisecondsSince(begin);

    report.reference = compareWithReference(gpu.positions, gpu.statistics, cpu.positions, cpu.statistics);
    report.truth = compareWithTruth(gpu.positions, gpu.statistics, truth.positions, truth.converged);
    report.cpuTruth = compareWithTruth(cpu.positions, cpu.statistics, truth.positions, truth.converged);
    report.checks = evaluateChecks(report.reference, report.truth, report.cpuTruth, thresholds);
    return report;
}

ValidationReport validateMove(GpuSolver& solver, const Move& move, std::span<const glm::vec3> voxels,
                              const SolverOptions& options, unsigned threads,
                              const ValidationThresholds& thresholds, const StageCallback& onStage) {
    return validateRun(solver, MoveRun{MoveMode::Move, {&move, 1}, voxels, {}}, options, threads, thresholds,
                       onStage);
}

nlohmann::json validationJson(const ValidationReport& r) {
    nlohmann::json checks = nlohmann::json::array();
    for (const ValidationCheck& c : r.checks)
        checks.push_back({{"name", c.name},
                          {"description", c.description},
                          {"value", numberOrNull(c.value)},
                          {"threshold", c.threshold},
                          {"comparison", c.atMost ? "<=" : ">="},
                          {"passed", c.passed},
                          {"checked", c.checked}});
    return {
        {"passed", r.passed()},
        {"verdict", r.verdict()},
        {"compared_vertices", r.truth.integrated},
        {"failed_checks", r.failedChecks()},
        {"checks", checks},
        {"input", {{"description", r.description},
                   {"vertices", r.vertices},
                   {"method", r.method},
                   {"tolerance_voxels", r.tolerance},
                   {"mode", std::string(moveModeName(r.mode))},
                   {"segments", r.segments},
                   {"segment_tolerance_voxels", r.segmentTolerance}}},
        {"device", r.device},
        {"cpu_threads", r.cpuThreads},
        {"gpu_vs_cpu", {{"compared_vertices", r.reference.compared},
                        {"max_difference_voxels", numberOrNull(r.reference.maxDifference)},
                        {"p99_difference_voxels", numberOrNull(r.reference.p99Difference)},
                        {"flag_mismatches", r.reference.flagMismatches},
                        {"flag_mismatch_rate", 1.0 - r.reference.flagAgreement},
                        {"flag_agreement", r.reference.flagAgreement}}},
        {"gpu_vs_truth", truthJson(r.truth)},
        {"cpu_vs_truth", truthJson(r.cpuTruth)},
        {"flags", {{"gpu", flagsJson(r.gpu)}, {"cpu", flagsJson(r.cpu)}}},
        {"evaluations_per_vertex", {{"gpu", evaluationsJson(r.gpu, r.gpuSegments, r.gpuMaxEvaluations)},
                                    {"cpu", evaluationsJson(r.cpu, r.cpuSegments, r.cpuMaxEvaluations)},
                                    {"worst_case_bound", r.worstCaseEvaluations},
                                    {"worst_case_bound_per", "vertex and segment"}}},
        {"time_ms", {{"gpu_timestamps", numberOrNull(r.gpuMilliseconds)},
                     {"cpu_reference_wall", r.cpuMilliseconds},
                     {"ground_truth_wall", r.truthMilliseconds}}},
    };
}

} // namespace sculptflow::cli
