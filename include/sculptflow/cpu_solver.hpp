// The CPU reference: the shared kernel, in float, over a vertex array.
#pragma once

#include "export.hpp"

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "motion.hpp"
#include "solve_report.hpp"
#include "solver_options.hpp"

namespace sculptflow {

struct CpuSolution {
    std::vector<glm::vec3> positions;        // voxels
    std::vector<VertexStatistics> statistics;
    SolveReport report;
};

// Integrates every vertex (voxels) through the move. threads = 0 uses every core.
// Throws sculptflow::Error for invalid options or tools.
SCULPTFLOW_API CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start,
                       const SolverOptions& options, unsigned threads = 0);

} // namespace sculptflow
