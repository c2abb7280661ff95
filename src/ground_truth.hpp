// An independent double-precision ground truth for a move (spec §3), written
// separately from the shared solver code so that it can catch mistakes in it.
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/motion.hpp>

namespace sculptflow {

struct GroundTruthOptions {
    double tolerance = 1e-6;  // voxels: the converged result is this close to the limit
    int maxSteps = 1 << 16;   // per segment, for the fine-step integration
};

struct GroundTruth {
    std::vector<glm::dvec3> positions; // final positions, voxels
    std::vector<double> errorEstimate; // per vertex, voxels (0 for closed forms)
    std::vector<bool> converged;       // false where the self-check did not pass
};

// Final positions of the vertices `start` (voxels) after the move.
// Affine-only phases use closed forms; phases with a Kelvinlet use fine-step RK4 in
// double, halving the step until two successive results agree to options.tolerance.
// Throws sculptflow::Error for an invalid tool (radius ≤ 0, μ ≤ 0, ν ∉ [0, 0.5],
// a non-finite field).
GroundTruth groundTruth(const Move& move, std::span<const glm::dvec3> start,
                        const GroundTruthOptions& options = {});
// The same from float starts, as a mesh holds them.
GroundTruth groundTruth(const Move& move, std::span<const glm::vec3> start,
                        const GroundTruthOptions& options = {});

} // namespace sculptflow
