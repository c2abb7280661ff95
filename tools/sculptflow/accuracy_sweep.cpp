// One generated case through every method and tolerance, against the ground truth.
#include "accuracy_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/kernel_tools.hpp"

#include "move_inputs.hpp"
#include "run_solver.hpp"
#include "run_truth.hpp"
#include "validation.hpp"

namespace sculptflow::cli {
namespace {

// Each vertex's start moved by kConditionProbe in a direction fixed by its index.
std::vector<glm::vec3> probedStarts(const std::vector<glm::vec3>& voxels) {
    std::vector<glm::vec3> out = voxels;
    for (size_t i = 0; i < out.size(); ++i) {
        const double a = 2.399963 * double(i), z = std::fmod(0.618034 * double(i), 2.0) - 1.0;
        const double r = std::sqrt(1.0 - z * z);
        out[i] += glm::vec3(glm::dvec3(r * std::cos(a), r * std::sin(a), z) * kConditionProbe);
    }
    return out;
}

SweepRun measuredRun(const GeneratedCase& c, const SolverOptions& options, bool gpu, const RunSolution& solution,
                  const GroundTruth& truth, const std::vector<double>& amplification) {
    const TruthComparison t = compareWithTruth(solution.positions, solution.statistics, truth.positions, truth.converged);
    SweepRun r;
    r.seed = c.seed;
    r.family = c.family;
    r.mode = c.mode;
    r.method = options.method;
    r.tolerance = options.tolerance;
    r.gpu = gpu;
    r.maxError = t.maxError;
    r.compared = t.compared;
    r.flagged = t.flagged;
    r.notConverged = t.notConverged;
    r.meanEvaluations = solution.report.meanEvaluations();
    for (size_t i = 0; i < solution.positions.size(); ++i) {
        const uint32_t flags = solution.statistics[i].flags;
        if ((flags & ~uint32_t(kVertexCulled)) || !truth.converged[i]) continue;
        if (glm::distance(glm::dvec3(solution.positions[i]), truth.positions[i]) < r.maxError) continue;
        r.worstVertex = i;
        r.worstCulled = (flags & kVertexCulled) != 0;
        r.amplification = amplification[i];
    }
    return r;
}

// SweepRun::floatFloor at the run's worst vertex, solved alone on the CPU by every
// adaptive method: the closest any of them comes, -1 when each was capped or went
// non-finite. An UNVERIFIED or MIN_STEP_CLAMPED end counts: it is where the float
// solve ends, only not certified. A tight solve that accepts a step at h_min over
// its tolerance is at rounding's floor (stepAllowance), which is the very thing
// measured (seed 21802: every solve at tol/100 so flagged, 0.0095–0.013 voxel off
// at tol 0.01, a flow that amplifies its start 724×). Where every solve at tol/100
// is capped, the solves at tol/10 say where float ends instead.
double floatFloor(const MoveRun& run, const SolverOptions& options, size_t vertex, const GroundTruth& truth) {
    const glm::vec3 start[1] = {run.start[vertex]};
    const float mask[1] = {run.mask.empty() ? 1.0f : run.mask[vertex]};
    const MoveRun alone{run.mode, run.segments, start, run.mask.empty() ? std::span<const float>() : mask};
    double floor = -1.0;
    for (double tighter : {100.0, 10.0}) {
        for (Method method : allMethods(true)) {
            SolverOptions byMethod = options;
            byMethod.method = method;
            const RunSolution tight = solveRunOnCpu(alone, floatFloorSolve(byMethod, tighter), 1);
            if (tight.statistics[0].flags & uint32_t(kVertexIterationCap | kVertexNonFinite)) continue;
            const double error = glm::distance(glm::dvec3(tight.positions[0]), truth.positions[vertex]);
            floor = floor < 0.0 ? error : std::min(floor, error);
        }
        if (floor >= 0.0) return floor;
    }
    return floor;
}

} // namespace

SolverOptions floatFloorSolve(const SolverOptions& run, double tighter) {
    SolverOptions tight = run;
    tight.verify = false;
    tight.tolerance = run.tolerance / tighter;
    tight.maxToolMotionPerStep = run.maxToolMotionPerStep / 4.0;
    tight.hMax = run.hMax / 4.0;
    tight.hMin = run.hMin / 1000.0;
    tight.maxIterations = 1 << 14;
    return tight;
}

std::vector<glm::vec3> sweepVoxels(const GeneratedCase& c) {
    const double toVoxels = 1.0 / c.stroke.voxelSize;
    std::vector<glm::vec3> voxels;
    voxels.reserve(c.mesh.positions.size());
    for (const glm::vec3& p : c.mesh.positions) voxels.push_back(glm::vec3(glm::dvec3(p) * toVoxels));
    return voxels;
}

std::vector<SweepRun> sweepCase(const GeneratedCase& c, const SweepOptions& options) {
    const std::vector<glm::vec3> voxels = sweepVoxels(c);
    const std::vector<Move> segments =
        c.mode == MoveMode::Continuous ? continuousMotions(c.stroke) : std::vector<Move>{moveToolMotion(c.stroke)};
    const MoveRun run{c.mode, segments, voxels, c.mesh.mask};
    const GroundTruth truth = runGroundTruth(run);
    std::vector<double> amplification(voxels.size(), 0.0);
    if (options.amplification) {
        const std::vector<glm::vec3> probeStart = probedStarts(voxels);
        const GroundTruth probe = runGroundTruth(MoveRun{c.mode, segments, probeStart, c.mesh.mask});
        for (size_t i = 0; i < voxels.size(); ++i)
            amplification[i] = glm::distance(probe.positions[i], truth.positions[i]) /
                               glm::distance(glm::dvec3(probeStart[i]), glm::dvec3(voxels[i]));
    }
    double stepLimit = 1.0;
    for (const Move& move : segments) stepLimit = std::min(stepLimit, toolStepLimit(move, SolverOptions{}));
    std::vector<SweepRun> runs;
    for (Method method : options.methods) {
        for (double tolerance : options.tolerances) {
            SolverOptions solver;
            solver.method = method;
            solver.tolerance = tolerance;
            solver.verify = options.verify;
            solver.maxIterations = plannedAttempts(solver, segments); // as deform and validate plan it
            runs.push_back(measuredRun(c, solver, false, solveRunOnCpu(run, solver, 1), truth, amplification));
            if (options.gpu) runs.push_back(measuredRun(c, solver, true, solveRunOnGpu(*options.gpu, run, solver), truth,
                                                    amplification));
            for (size_t k = runs.size() - (options.gpu ? 2 : 1); k < runs.size(); ++k) {
                runs[k].stepLimit = stepLimit;
                if (runs[k].maxError > tolerance)
                    runs[k].floatFloor = floatFloor(run, solver, runs[k].worstVertex, truth);
            }
        }
    }
    return runs;
}

std::string sweepCsvHeader() {
    return "seed,family,mode,method,tol,device,max_error,ratio,evaluations,compared,flagged,not_converged,step_limit,worst_vertex,worst_culled,amplification,float_floor";
}

std::string sweepCsvLine(const SweepRun& r) {
    char line[288];
    std::snprintf(line, sizeof line, "%llu,%s,%s,%s,%g,%s,%.6g,%.6g,%.3f,%zu,%zu,%zu,%.6g,%zu,%d,%.4g,%.4g", (unsigned long long)r.seed,
                  r.family.c_str(), std::string(moveModeName(r.mode)).c_str(), std::string(methodName(r.method)).c_str(),
                  r.tolerance, r.gpu ? "gpu" : "cpu", r.maxError, r.ratio(), r.meanEvaluations, r.compared, r.flagged,
                  r.notConverged, r.stepLimit, r.worstVertex, int(r.worstCulled),
                  r.amplification, r.floatFloor);
    return line;
}

} // namespace sculptflow::cli
