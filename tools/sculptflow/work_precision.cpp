// The work–precision sweep: max error against the double ground truth versus
// evaluations per vertex, per method, over tolerances (fixed-step counts for rk4).
#include "work_precision.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>

#include <sculptflow/cpu_solver.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"

namespace sculptflow::cli {
namespace {

double secondsSince(std::chrono::steady_clock::time_point begin) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

PrecisionPoint measurePoint(const Move& move, std::span<const glm::vec3> start, const GroundTruth& truth,
                            const SolverOptions& options, unsigned threads) {
    const auto begin = std::chrono::steady_clock::now();
    const CpuSolution solution = solveOnCpu(move, start, options, threads);
    PrecisionPoint p;
    p.seconds = secondsSince(begin);
    p.method = options.method;
    p.tolerance = options.tolerance;
    p.fixedSteps = !isAdaptive(options.method) ? options.fixedSteps : 0;
    p.meanEvaluations = solution.report.meanEvaluations();
    p.minStepClamped = solution.report.minStepClamped;
    p.iterationCap = solution.report.iterationCap;
    p.nonFinite = solution.report.nonFinite;
    p.culled = solution.report.culled;
    double sum = 0.0;
    for (size_t i = 0; i < start.size(); ++i) {
        if (!truth.converged[i] || (solution.statistics[i].flags & ~kernel::kFlagCulled)) continue;
        const double error = glm::length(glm::dvec3(solution.positions[i]) - truth.positions[i]);
        p.maxError = std::max(p.maxError, error);
        sum += error;
        ++p.compared;
    }
    p.meanError = p.compared ? sum / double(p.compared) : 0.0;
    return p;
}

std::string parameterText(const PrecisionPoint& p) {
    char buffer[32];
    if (!isAdaptive(p.method))
        std::snprintf(buffer, sizeof buffer, "%d step%s", p.fixedSteps, p.fixedSteps == 1 ? "" : "s");
    else
        std::snprintf(buffer, sizeof buffer, "tol %g", p.tolerance);
    return buffer;
}

} // namespace

WorkPrecision sweepWorkPrecision(const Move& move, std::span<const glm::vec3> start,
                                 const WorkPrecisionOptions& options) {
    WorkPrecision sweep;
    sweep.vertices = start.size();
    sweep.maxIterations = options.maxIterations;
    sweep.threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    auto begin = std::chrono::steady_clock::now();
    const GroundTruth truth = groundTruth(move, start);
    sweep.truthSeconds = secondsSince(begin);
    sweep.truthUnconverged = size_t(std::count(truth.converged.begin(), truth.converged.end(), false));

    begin = std::chrono::steady_clock::now();
    for (Method method : options.methods) {
        SolverOptions solver;
        solver.method = method;
        solver.maxIterations = options.maxIterations;
        if (!isAdaptive(method)) {
            for (int steps : options.fixedSteps) {
                solver.fixedSteps = steps;
                sweep.points.push_back(measurePoint(move, start, truth, solver, options.threads));
            }
        } else {
            for (double tolerance : options.tolerances) {
                solver.tolerance = tolerance;
                sweep.points.push_back(measurePoint(move, start, truth, solver, options.threads));
            }
        }
    }
    sweep.sweepSeconds = secondsSince(begin);
    return sweep;
}

std::string workPrecisionTable(const WorkPrecision& sweep) {
    std::string out;
    char line[200];
    std::snprintf(line, sizeof line,
                  "work-precision: %zu vertices, CPU reference (the GPU's kernel) against the double ground "
                  "truth; max %d attempts\n",
                  sweep.vertices, sweep.maxIterations);
    out += line;
    std::snprintf(line, sizeof line, "%-7s %-10s %12s %12s %10s %8s %7s %6s %6s %6s\n", "method", "parameter",
                  "max error", "mean error", "evals/vtx", "compared", "clamped", "capped", "nonfin", "culled");
    out += line;
    for (const PrecisionPoint& p : sweep.points) {
        std::snprintf(line, sizeof line, "%-7s %-10s %12.4g %12.4g %10.1f %8zu %7zu %6zu %6zu %6zu\n",
                      std::string(methodName(p.method)).c_str(), parameterText(p).c_str(), p.maxError,
                      p.meanError, p.meanEvaluations, p.compared, p.minStepClamped, p.iterationCap, p.nonFinite,
                      p.culled);
        out += line;
    }
    std::snprintf(line, sizeof line, "errors in voxels; ground truth %.1f s (%zu not converged, left out), sweep %.1f s\n",
                  sweep.truthSeconds, sweep.truthUnconverged, sweep.sweepSeconds);
    out += line;
    return out;
}

nlohmann::json workPrecisionJson(const WorkPrecision& sweep) {
    nlohmann::json points = nlohmann::json::array();
    for (const PrecisionPoint& p : sweep.points) {
        nlohmann::json point = {
            {"method", methodName(p.method)},
            {"max_error_voxels", p.maxError},
            {"mean_error_voxels", p.meanError},
            {"evaluations_per_vertex", p.meanEvaluations},
            {"compared", p.compared},
            {"flags", {{"min_step_clamped", p.minStepClamped}, {"iteration_cap", p.iterationCap},
                       {"non_finite", p.nonFinite}, {"culled", p.culled}}},
        };
        if (!isAdaptive(p.method))
            point["fixed_steps"] = p.fixedSteps;
        else
            point["tolerance_voxels"] = p.tolerance;
        points.push_back(std::move(point));
    }
    return {
        {"backend", "cpu reference (the same kernel as the GPU), all threads"},
        {"vertices", sweep.vertices},
        {"max_iterations", sweep.maxIterations},
        {"ground_truth_unconverged", sweep.truthUnconverged},
        {"ground_truth_seconds", sweep.truthSeconds},
        {"sweep_seconds", sweep.sweepSeconds},
        {"points", std::move(points)},
    };
}

std::vector<BenchRecord> workPrecisionRecords(const WorkPrecision& sweep, const Move& move, const std::string& device,
                                              const std::string& stroke) {
    std::vector<BenchRecord> records;
    for (const PrecisionPoint& p : sweep.points) {
        BenchRecord r;
        r.suite = "work_precision";
        r.stroke = stroke;
        r.workload = "sweep";
        r.method = p.method;
        r.tolerance = p.tolerance;
        r.fixedSteps = p.fixedSteps;
        r.backend = Backend::CpuAll;
        r.device = device;
        r.threads = sweep.threads;
        r.vertices = sweep.vertices;
        r.active = sweep.vertices ? double(sweep.vertices - p.culled) / double(sweep.vertices) : 0.0;
        r.runs = 1;
        r.seconds = p.seconds;
        r.vertsPerSecond = p.seconds > 0.0 ? double(sweep.vertices) / p.seconds : std::nan("");
        r.evalsMean = p.meanEvaluations;
        r.evaluations = uint64_t(std::llround(p.meanEvaluations * double(sweep.vertices)));
        r.flagged = p.minStepClamped + p.iterationCap + p.nonFinite;
        r.maxErrVox = p.compared ? p.maxError : std::nan("");
        r.errProbes = p.compared;
        r.flopsPerEval = flopsPerEvaluation(move);
        r.gflops = p.seconds > 0.0 ? r.flopsPerEval * double(r.evaluations) / p.seconds * 1e-9 : std::nan("");
        r.peakGflops = std::nan("");
        r.gpuStatisticsMs = std::nan("");
        records.push_back(std::move(r));
    }
    return records;
}

LogLogChart workPrecisionChart(const nlohmann::json& records, const std::string& title) {
    LogLogChart chart;
    chart.title = title;
    chart.xLabel = "evaluations per vertex (mean); points labelled with tol (voxels) or rk4's steps";
    chart.yLabel = "max error (voxels)";
    chart.references.push_back({0.1, "0.1 voxel"});
    for (const nlohmann::json& r : records) {
        if (r.value("suite", "") != "work_precision") continue;
        const nlohmann::json& error = r["max_err_vox"];
        const nlohmann::json& evals = r["evals_mean"];
        if (!error.is_number() || !evals.is_number()) continue;
        const double y = error.get<double>(), x = evals.get<double>();
        if (!(y > 0.0) || !(x > 0.0)) continue;
        const std::string name = r.at("method").get<std::string>();
        auto series = std::find_if(chart.series.begin(), chart.series.end(),
                                   [&](const ChartSeries& s) { return s.name == name; });
        if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), ChartSeries{name, {}});
        char label[32]; // the sweep's parameter, so that each point can be read off
        if (r["fixed_steps"].is_number())
            std::snprintf(label, sizeof label, "%d", r["fixed_steps"].get<int>());
        else
            std::snprintf(label, sizeof label, "%g", r.at("tol").get<double>());
        series->points.push_back({x, y, label});
    }
    return chart;
}

LogLogChart workPrecisionChart(const WorkPrecision& sweep, const std::string& title) {
    nlohmann::json records = nlohmann::json::array();
    for (const BenchRecord& r : workPrecisionRecords(sweep, Move{}, "", "")) records.push_back(recordJson(r));
    return workPrecisionChart(records, title);
}

} // namespace sculptflow::cli
