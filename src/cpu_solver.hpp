// The CPU reference: the shared kernel, in float, over a vertex array.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "motion.hpp"
#include "solver_options.hpp"

namespace sculptflow {

// Per-vertex debug statistics (spec §4, "Debug readback").
struct VertexStatistics {
    uint32_t flags = 0; // kernel::kFlag* bits
    uint32_t acceptedSteps = 0;
    uint32_t rejectedSteps = 0;
    uint32_t evaluations = 0;
};

// Per-dispatch summary of the statistics.
struct SolveReport {
    size_t vertices = 0;
    size_t minStepClamped = 0;
    size_t iterationCap = 0;
    size_t nonFinite = 0;
    size_t culled = 0;
    uint64_t acceptedSteps = 0;
    uint64_t rejectedSteps = 0;
    uint64_t evaluations = 0;
    uint32_t maxEvaluations = 0;
    uint32_t maxSteps = 0;                 // accepted + rejected, worst vertex
    std::vector<uint32_t> firstClamped;    // indices of the first clamped vertices

    double meanEvaluations() const { return vertices ? double(evaluations) / double(vertices) : 0.0; }
};

SolveReport summarize(std::span<const VertexStatistics> statistics, size_t maxClampedIndices = 16);

struct CpuSolution {
    std::vector<glm::vec3> positions;        // voxels
    std::vector<VertexStatistics> statistics;
    SolveReport report;
};

// Integrates every vertex (voxels) through the move. threads = 0 uses every core.
// Throws sculptflow::Error for invalid options or tools.
CpuSolution solveOnCpu(const Move& move, std::span<const glm::vec3> start,
                       const SolverOptions& options, unsigned threads = 0);

} // namespace sculptflow
