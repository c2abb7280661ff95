// The work–precision sweep: max error against the double ground truth versus
// evaluations per vertex, per method, over tolerances (fixed-step counts for rk4).
#pragma once

#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>
#include "svg_chart.hpp"
#include "throughput.hpp"

namespace sculptflow::cli {

struct WorkPrecisionOptions {
    std::vector<Method> methods = allMethods();
    std::vector<double> tolerances{1.0, 0.3, 0.1, 0.03, 0.01, 0.003}; // voxels; adaptive methods
    std::vector<int> fixedSteps{1, 2, 4, 8, 16, 32};                   // rk4
    int maxIterations = 512; // high enough that the tight tolerances are not capped
    unsigned threads = 0;    // CPU reference threads; 0: every core
};

// One run of the CPU reference against the ground truth.
struct PrecisionPoint {
    Method method = Method::Bs32;
    double tolerance = 0.0;   // voxels (for rk4: the culling tolerance only)
    int fixedSteps = 0;       // rk4 only; 0 otherwise
    double maxError = 0.0;    // voxels, over compared vertices
    double meanError = 0.0;
    double meanEvaluations = 0.0; // over every vertex (culled ones cost none)
    size_t compared = 0;      // unflagged (or culled) vertices whose ground truth converged
    size_t minStepClamped = 0;
    size_t iterationCap = 0;
    size_t nonFinite = 0;
    size_t culled = 0;
    double seconds = 0.0;     // wall clock of the CPU reference's run
};

struct WorkPrecision {
    size_t vertices = 0;
    size_t truthUnconverged = 0; // vertices left out: the ground truth did not converge
    double truthSeconds = 0.0;
    double sweepSeconds = 0.0;
    int maxIterations = 0;
    unsigned threads = 1;        // the CPU reference's
    std::vector<PrecisionPoint> points; // per method in the order asked, then by parameter
};

// Computes the ground truth once, then runs every method and parameter on the
// CPU reference (the kernel the GPU runs). Flagged vertices are left out of
// the error but counted; culled ones are compared (they must not move).
WorkPrecision sweepWorkPrecision(const Move& move, std::span<const glm::vec3> start,
                                 const WorkPrecisionOptions& options = {});

std::string workPrecisionTable(const WorkPrecision& sweep);
nlohmann::json workPrecisionJson(const WorkPrecision& sweep);

// The sweep as bench records (suite "work_precision", backend cpuN, workload
// "sweep"): max_err_vox over every compared vertex, verts_per_s from each run's
// wall clock, and `device` (the CPU) and `stroke` as given.
std::vector<BenchRecord> workPrecisionRecords(const WorkPrecision& sweep, const Move& move, const std::string& device,
                                              const std::string& stroke);

// Evaluations per vertex against max error, one series per method, with a
// dashed line at 0.1 voxel, from the records of `sculptflow bench --json`
// (an array of records; those of suite "work_precision" are drawn). Points
// without an error (null, or zero) are left out.
LogLogChart workPrecisionChart(const nlohmann::json& records, const std::string& title);
// The same for a sweep: workPrecisionChart of its records.
LogLogChart workPrecisionChart(const WorkPrecision& sweep, const std::string& title);

} // namespace sculptflow::cli
