// How far a solve's result is from the CPU reference and from the double ground
// truth, as `sculptflow validate` reports it (and the Python module's compare_*).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/solve_report.hpp>

namespace sculptflow {

// A result against the CPU reference, over vertices unflagged on both (culled counts
// as unflagged: such a vertex must come back unchanged on both).
struct ReferenceComparison {
    size_t compared = 0;
    double maxDifference = 0.0; // voxels
    double p99Difference = 0.0; // voxels, nearest-rank 99th percentile
    size_t flagMismatches = 0;  // over all vertices
    double flagAgreement = 1.0; // 1 − mismatches / vertices
};

// A result against the ground truth, over vertices the result left unflagged and the truth converged on.
struct TruthComparison {
    size_t compared = 0;
    double maxError = 0.0;   // voxels
    double meanError = 0.0;  // voxels
    size_t flagged = 0;      // flags other than culled; left out
    size_t notConverged = 0; // unflagged, but the ground truth's self-check failed; left out
    size_t integrated = 0;   // compared vertices the solver integrated (not culled): what a PASS covers
    size_t inReach = 0;      // vertices the solver integrated, flagged or not
    double flaggedShare() const; // flagged / inReach (0 when none is in reach)
};

// Both throw sculptflow::Error when the inputs differ in vertex count.
ReferenceComparison compareWithReference(std::span<const glm::vec3> positions,
                                         std::span<const VertexStatistics> statistics,
                                         std::span<const glm::vec3> referencePositions,
                                         std::span<const VertexStatistics> referenceStatistics);
TruthComparison compareWithTruth(std::span<const glm::vec3> positions, std::span<const VertexStatistics> statistics,
                                 std::span<const glm::dvec3> truthPositions, const std::vector<bool>& converged);

} // namespace sculptflow
