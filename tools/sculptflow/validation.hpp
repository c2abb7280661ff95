// `sculptflow validate`'s logic: the GPU against the CPU reference and the double ground truth.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/solve_report.hpp>
#include <sculptflow/solver_options.hpp>
#include "src/result_comparison.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {

struct ValidationThresholds {
    // Voxels, on the 99th-percentile GPU–CPU difference, not the max: both run the
    // same source, but their compilers round differently (FMA contraction,
    // inversesqrt), so a near-threshold accept/reject can flip and part a few
    // paths a little further: on the recordings as Kelvinlets (built-in sphere,
    // dp45) the max reached 0.018 voxel while the 99th percentile stayed under 0.0025.
    double reference = 0.01;
    double flagAgreement = 0.999; // fraction of vertices whose GPU and CPU flags are equal
    double truth = 0.1;           // voxels, max error against the ground truth (usually = tolerance)
    // Coverage: a check over no vertices proves nothing, so fewer compared vertices
    // than this (all flagged, all culled, none in reach) is "NOT CHECKED", a failure.
    size_t minCompared = 1;
    // Flagged vertices are left out of the error checks; past this share of the
    // integrated ones they are a failure of their own, not a quiet omission.
    double flaggedShare = 0.05;
};

// The comparisons live in the library (result_comparison.hpp), shared with the Python module.
using sculptflow::ReferenceComparison;
using sculptflow::TruthComparison;
using sculptflow::compareWithReference;
using sculptflow::compareWithTruth;

struct ValidationCheck {
    std::string name;        // stable identifier, as in the JSON
    std::string description; // for people
    double value = 0.0;
    double threshold = 0.0;
    bool atMost = true;      // value ≤ threshold passes; else value ≥ threshold
    bool passed = false;
    bool checked = true;     // false: too few vertices were compared for the value to mean anything
};

struct ValidationReport {
    std::string description; // what was loaded; filled by the caller
    std::string device;
    std::string method;
    double tolerance = 0.0;        // the whole run's
    MoveMode mode = MoveMode::Move;
    size_t segments = 1;           // moves solved in turn (continuous mode: poses − 1)
    double segmentTolerance = 0.0; // tolerance / segments in continuous mode
    size_t vertices = 0;
    unsigned cpuThreads = 0;
    long worstCaseEvaluations = 0; // per vertex and segment

    ReferenceComparison reference;
    TruthComparison truth;    // the GPU's
    TruthComparison cpuTruth; // the CPU reference's, on its own flags
    SolveReport gpu; // flags and evaluations, summed over the segments
    SolveReport cpu;
    std::vector<SolveReport> gpuSegments; // one a segment
    std::vector<SolveReport> cpuSegments;
    uint32_t gpuMaxEvaluations = 0; // per vertex over the whole run (maxRunEvaluations)
    uint32_t cpuMaxEvaluations = 0;

    double gpuMilliseconds = 0.0;   // GPU timestamps; NaN where the device has none
    double cpuMilliseconds = 0.0;   // CPU reference, wall clock
    double truthMilliseconds = 0.0; // ground truth, wall clock

    std::vector<ValidationCheck> checks;

    bool passed() const;
    bool checked() const; // enough vertices were compared (the compared_vertices check)
    const char* verdict() const; // "PASS", "FAIL" or "NOT CHECKED"
    std::vector<std::string> failedChecks() const;
};

// Pure, for the report and for tests.
std::vector<ValidationCheck> evaluateChecks(const ReferenceComparison& reference, const TruthComparison& truth,
                                            const ValidationThresholds& thresholds);
// The same, with truth_max_error over both: the larger of the GPU's and the CPU
// reference's max errors against the ground truth.
std::vector<ValidationCheck> evaluateChecks(const ReferenceComparison& reference, const TruthComparison& gpuTruth,
                                            const TruthComparison& cpuTruth, const ValidationThresholds& thresholds);

// Called with "GPU", "CPU reference" and "ground truth" as each stage begins.
using StageCallback = std::function<void(std::string_view stage)>;

// Runs the run on the GPU, the CPU reference (threads = 0: every core) and the
// ground truth (segment by segment in continuous mode, masked: runGroundTruth),
// and compares them; options.tolerance is the whole run's. Throws
// sculptflow::Error for bad options, tools or mask.
ValidationReport validateRun(GpuSolver& solver, const MoveRun& run, const SolverOptions& options, unsigned threads,
                             const ValidationThresholds& thresholds, const StageCallback& onStage = {});

// The same for one move-tool move without a mask.
ValidationReport validateMove(GpuSolver& solver, const Move& move, std::span<const glm::vec3> voxels,
                              const SolverOptions& options, unsigned threads,
                              const ValidationThresholds& thresholds, const StageCallback& onStage = {});

nlohmann::json validationJson(const ValidationReport& report);

} // namespace sculptflow::cli
