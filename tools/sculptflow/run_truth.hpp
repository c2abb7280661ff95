// The independent double-precision reference for a command's run: the ground
// truth of each move, chained segment by segment in continuous mode, with the mask.
#pragma once

#include "src/ground_truth.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {

// Segment k starts from segment k − 1's reference output, rounded to float as
// the solvers hold positions; a masked vertex ends at x0 + m·(x(1) − x0) of its
// segment's start x0 (spec §3.5), and one with m = 0 stays exactly at x0.
// converged is false where any segment's self-check failed; errorEstimate sums
// the segments'.
GroundTruth runGroundTruth(const MoveRun& run, const GroundTruthOptions& options = {});

} // namespace sculptflow::cli
