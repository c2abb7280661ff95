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
    std::vector<VertexStatistics> statistics; // continuous mode: summed over the segments
    SolveReport report;                       // continuous mode: combineSegments(segments)
    std::vector<SolveReport> segments;        // continuous mode: one a segment; else empty
    std::vector<float> volumeChanges;         // with SolverOptions::volumeChange (continuous: the product)
};

// Integrates every vertex (voxels) through the move. `mask`: empty, or one value
// in [0, 1] per vertex (validateMask). threads = 0 uses every core.
// Throws sculptflow::Error for invalid options, tools or mask.
SCULPTFLOW_API CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start,
                                      const SolverOptions& options, unsigned threads = 0);
SCULPTFLOW_API CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start,
                                      std::span<const float> mask, const SolverOptions& options,
                                      unsigned threads = 0);

// Continuous mode: the segments in turn, each from the last one's
// output, each at options.tolerance / segments.size(), so that options.tolerance
// holds for the whole stroke. The mask applies per segment.
SCULPTFLOW_API CpuSolution solveContinuousOnCpu(std::span<const Move> segments, std::span<const glm::vec3> start,
                                                std::span<const float> mask, const SolverOptions& options,
                                                unsigned threads = 0);

} // namespace sculptflow
