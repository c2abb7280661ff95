// Solving a command's run (move-tool or continuous mode, with its mask) on the
// GPU or the CPU reference, with one report per segment either way.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "src/tolerance_plan.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {

struct RunSolution {
    std::vector<glm::vec3> positions;          // voxels
    std::vector<VertexStatistics> statistics;  // continuous mode: summed over the segments
    SolveReport report;                        // continuous mode: combineSegments(segments)
    std::vector<SolveReport> segments;         // one a segment; one in move-tool mode
    double milliseconds = 0.0;                 // GPU timestamps (NaN where the device has none) or CPU wall clock
    std::vector<float> volumeChanges;          // with options.volumeChange: J a vertex (continuous: the product)
};

// options.tolerance is the whole run's: in continuous mode each segment gets
// tolerance / segments (spec §2). Throws sculptflow::Error for bad options, tools or mask.
RunSolution solveRunOnGpu(GpuSolver& solver, const MoveRun& run, const SolverOptions& options);
RunSolution solveRunOnCpu(const MoveRun& run, const SolverOptions& options, unsigned threads = 0);

// The run's tolerances: the stroke's, each segment's and the kernel's.
TolerancePlan tolerancePlan(const MoveRun& run, const SolverOptions& options);

} // namespace sculptflow::cli
