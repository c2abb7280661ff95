// The tolerances a solve works to, planned in one place for the CPU reference,
// the GPU, LiveMove and the CLI (spec §2, §4).
#pragma once

#include <cstddef>

#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>

namespace sculptflow {

struct TolerancePlan {
    double stroke = 0.0;   // requested, voxels, for the whole stroke (move mode: the move)
    double segment = 0.0;  // each segment's share (segmentTolerance); the stroke's in move mode
    double internal = 0.0; // what the kernel's step control works to in each segment
};

// What the kernel works to for a request of options.tolerance on this move: the
// method's calibration (toleranceFactor in methods.glsl), times its
// biLaplacianFactor when a Kelvinlet is bi-Laplacian.
double internalTolerance(const Move& move, const SolverOptions& options);

// options.tolerance over `segments` segments of a stroke (1 in move mode); `move`
// is a segment's, whose tool shapes the calibration reads (each segment's are the same).
TolerancePlan planTolerance(const Move& move, const SolverOptions& options, size_t segments);

} // namespace sculptflow
