// Seed 30416's vertex 371: a vertex that rides a 144-voxel affine-flow pull,
// mirrored into eight tools, for 713 steps at the step floor. With the tools'
// loops rolled, llvmpipe ran out its loop budget there (deform.comp,
// loopBudgetLasted) and dp45 ended 0.037 voxel off, unflagged, at every
// tolerance; the CPU, 1.4e-5.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/context.hpp>
#include <sculptflow/solver_options.hpp>
#include "src/ground_truth.hpp"
#include "accuracy_sweep.hpp"
#include "move_inputs.hpp"
#include "stroke_generator.hpp"

namespace sculptflow::test {

struct LongRide {
    Move move;
    std::vector<glm::vec3> start;
    SolverOptions options{.method = Method::Dp45, .tolerance = 0.01};
    glm::dvec3 exact;
};

inline LongRide longRide() {
    const cli::GeneratedCase c = cli::generateCase(30416);
    EXPECT_EQ(c.family, "affine-flow/smooth");
    EXPECT_TRUE(c.mesh.mask.empty() || c.mesh.mask[371] == 1.0f); // so solved without it
    LongRide ride{moveToolMotion(c.stroke), {cli::sweepVoxels(c)[371]}};
    EXPECT_EQ(ride.move.tools.size(), 8u);
    ride.options.maxIterations = plannedAttempts(ride.options, {&ride.move, 1});
    ride.exact = groundTruth(ride.move, ride.start).positions[0];
    return ride;
}

inline bool onLlvmpipe(Context& context) {
    return context.deviceName().starts_with("llvmpipe");
}

} // namespace sculptflow::test
