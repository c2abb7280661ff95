// SolverOptions::verify (issue 29): a checking pass certifies each vertex's final
// error. Seed 168 of the sweep's generator drags a soft bi-scale Kelvinlet of 10
// voxels 117 voxels (11.7 radii), where the flow amplifies a change of a start
// 35 times: the calibrated step control alone left dp45 2.9 voxels off at tol
// 0.1, with nothing flagged; the error bound (issue 44) now keeps it within tol.
// With the checking pass every vertex it does not flag is within tol, on the CPU
// and on the GPU.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/error.hpp>
#include "src/kernel.hpp"
#include "src/kernel_tools.hpp"
#include "accuracy_sweep.hpp"
#include "cli_runner.hpp"
#include "command_line.hpp"
#include "gpu_fixture.hpp"
#include "move_inputs.hpp"
#include "run_solver.hpp"
#include "run_truth.hpp"
#include "stroke_generator.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

constexpr uint64_t kHardPullSeed = 168;
constexpr double kTolerance = 0.1; // voxels

struct HardPull {
    cli::GeneratedCase generated = cli::generateCase(kHardPullSeed);
    std::vector<glm::vec3> voxels = cli::sweepVoxels(generated);
    std::vector<Move> segments{moveToolMotion(generated.stroke)};
    GroundTruth truth = cli::runGroundTruth(run());

    cli::MoveRun run() const { return {MoveMode::Move, segments, voxels, generated.mesh.mask}; }
};

const HardPull& hardPull() {
    static const HardPull pull;
    return pull;
}

SolverOptions dp45(bool verify) {
    return SolverOptions{.method = Method::Dp45, .tolerance = kTolerance, .verify = verify};
}

struct VerifiedComparison {
    double maxError = 0.0; // voxels, over the vertices with no flag but CULLED
    size_t compared = 0;
    size_t unverified = 0;
};

VerifiedComparison compareVerified(const cli::RunSolution& solution, const GroundTruth& truth) {
    VerifiedComparison c;
    for (size_t i = 0; i < solution.positions.size(); ++i) {
        const uint32_t flags = solution.statistics[i].flags;
        if (flags & kVertexUnverified) ++c.unverified;
        if ((flags & ~uint32_t(kVertexCulled)) || !truth.converged[i]) continue;
        c.maxError = std::max(c.maxError, glm::distance(glm::dvec3(solution.positions[i]), truth.positions[i]));
        ++c.compared;
    }
    return c;
}

TEST(Verify, CertifiesAPullTheCalibrationMisses) {
    const HardPull& pull = hardPull();
    // The plain solve's error bound solves the stretched vertices again (2.9 voxels off without it).
    const VerifiedComparison plain = compareVerified(cli::solveRunOnCpu(pull.run(), dp45(false), 1), pull.truth);
    EXPECT_LE(plain.maxError, kTolerance);

    const VerifiedComparison verified = compareVerified(cli::solveRunOnCpu(pull.run(), dp45(true), 1), pull.truth);
    EXPECT_LE(verified.maxError, kTolerance);
    // The bound flags those it cannot certify after the second pass; verify keeps its
    // flags, and its check leaves out few more: verify's default path aims at tol/2,
    // so where the flow stretches 35× it certifies less (317 of 648 compared, the
    // bound alone 369).
    EXPECT_GT(plain.unverified, 0u);
    EXPECT_GE(verified.unverified, plain.unverified);
    EXPECT_GE(verified.compared + pull.voxels.size() / 10, plain.compared)
        << "the check flags much of what the bound certifies";
}

// The default path runs as without verify, aimed at half of tol (firstPass): a
// vertex whose bound it holds within tol/2 keeps its result, evaluations and all,
// and the rest get a checking pass, whose position is the result, and whose
// evaluations are added to the default path's (or, bound over tol, the flag).
// On seed 194 (two hands' Laplacian Kelvinlets pulled 240 and 227 voxels, one
// turning 176°) a few vertices' bound is between tol/2 and tol after the second pass.
TEST(Verify, ChecksWhatTheBoundLeavesUnsure) {
    const cli::GeneratedCase generated = cli::generateCase(194);
    const std::vector<glm::vec3> voxels = cli::sweepVoxels(generated);
    const std::vector<Move> segments{moveToolMotion(generated.stroke)};
    kernel::Kernel plain = makeKernel(segments[0], dp45(false));
    plain.settings.tolerance *= kernel::kVerifyBoundShare;
    plain.settings.requestedTolerance *= kernel::kVerifyBoundShare;
    const cli::RunSolution verified = cli::solveRunOnCpu({MoveMode::Move, segments, voxels, {}}, dp45(true), 1);
    size_t certified = 0, checked = 0, moved = 0;
    for (size_t i = 0; i < voxels.size(); ++i) {
        const kernel::VertexResult solved = plain.integrateVertex(voxels[i], 0.0f);
        const VertexStatistics& b = verified.statistics[i];
        EXPECT_EQ(solved.flags & ~b.flags & ~kernel::kFlagUnverified, 0u) << "vertex " << i << " lost a flag";
        const bool sameAsPlain = b.evaluations == solved.evaluations && test::sameBits(solved.position, verified.positions[i]);
        if ((solved.flags & ~kernel::kFlagUnverified) != 0u || solved.flags == 0u) { // flagged, or sure
            ++certified;
            EXPECT_TRUE(sameAsPlain) << i;
            continue;
        }
        if (sameAsPlain) { // its bound is over tol: no check, flagged
            EXPECT_NE(b.flags & kVertexUnverified, 0u) << i;
            continue;
        }
        ++checked;
        EXPECT_GT(b.evaluations, solved.evaluations) << i;
        EXPECT_LE(long(b.evaluations), worstCaseEvaluations(dp45(true))) << i;
        if (solved.position != verified.positions[i]) ++moved;
    }
    EXPECT_GT(certified, 0u);
    EXPECT_GT(checked, 0u) << "no vertex of seed 194 was checked";
    EXPECT_GT(moved, checked / 2) << "the result should be the checking pass's";
}

// What the bound cannot certify stays flagged: seed 24445 (one segment of a
// tri-scale Kelvinlet pulled 16 radii) stretches a change of vertex 5's start 284×,
// so the float rounding of every pass ends 0.7–1.1 tol off at tol 0.01, whatever its
// tolerance and steps. The default path flags it; a checking pass agreed with it
// within tol/2 and would have cleared it, 1.09 tol off. Under verify, aimed at
// tol/2, its steps reach h_min (MIN_STEP_CLAMPED); where a check agrees on such a
// vertex, the stretch of the rounding both passes share flags it (vertex 84,
// agreementTells).
TEST(Verify, KeepsWhatTheBoundFlags) {
    const cli::GeneratedCase generated = cli::generateCase(24445);
    const std::vector<glm::vec3> voxels = cli::sweepVoxels(generated);
    const std::vector<Move> segments = continuousMotions(generated.stroke);
    ASSERT_EQ(segments.size(), 1u);
    SolverOptions options{.method = Method::Dp45, .tolerance = 0.01, .verify = true};
    options.maxIterations = plannedAttempts(options, segments); // as the CLI plans it
    const size_t v = 5;
    SolverOptions plain = options;
    plain.verify = false;
    const kernel::VertexResult solved = makeKernel(segments[0], plain).integrateVertex(voxels[v], 0.0f);
    ASSERT_NE(solved.flags & kernel::kFlagUnverified, 0u) << "the bound certifies vertex 5 now";

    const cli::MoveRun run{generated.mode, segments, voxels, generated.mesh.mask};
    const cli::RunSolution verified = cli::solveRunOnCpu(run, options, 1);
    EXPECT_NE(verified.statistics[v].flags, 0u);
    EXPECT_NE(verified.statistics[84].flags, 0u);
    const VerifiedComparison c = compareVerified(verified, cli::runGroundTruth(run));
    EXPECT_LE(c.maxError, options.tolerance);
    EXPECT_GT(c.compared, voxels.size() / 2);
}

TEST(Verify, RefusedForTheFixedStepMethod) {
    SolverOptions options{.method = Method::Rk4, .verify = true};
    try {
        validateSolverOptions(options);
        FAIL() << "rk4 with verify was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("verify"), std::string::npos) << e.what();
    }
}

// Continuous mode: seed 85 chains six segments of a tri-scale Kelvinlet whose
// later segments stretch what the earlier ones leave (by up to 14,000×,
// docs/accuracy-sweep.md). Each segment's own check passes (it sees its own
// segment's stretch, not the later ones') while the chain ends 2.3 tol away;
// checking the whole chain against the plain one flags those vertices. (Seed 229,
// this test's case before, ends within tol since the move's step limit gives way
// to a vertex's own: stepLimit.)
struct ChainedPull {
    cli::GeneratedCase generated = cli::generateCase(85);
    std::vector<glm::vec3> voxels = cli::sweepVoxels(generated);
    std::vector<Move> segments = continuousMotions(generated.stroke);
    GroundTruth truth = cli::runGroundTruth(run());
    SolverOptions options{.method = Method::Rk4Double, .tolerance = 0.1, .verify = true};

    cli::MoveRun run() const { return {MoveMode::Continuous, segments, voxels, generated.mesh.mask}; }
};

TEST(Verify, ContinuousModeChecksTheWholeChain) {
    const ChainedPull pull;
    ASSERT_EQ(pull.generated.mode, MoveMode::Continuous);
    ASSERT_GT(pull.segments.size(), 1u);

    cli::RunSolution bySegment; // each segment checked on its own
    bySegment.positions = pull.voxels;
    bySegment.statistics.resize(pull.voxels.size());
    const SolverOptions perSegment = segmentOptions(pull.options, pull.segments.size());
    for (const Move& segment : pull.segments) {
        CpuSolution step = solveOnCpu(segment, bySegment.positions, pull.generated.mesh.mask, perSegment, 1);
        bySegment.positions = std::move(step.positions);
        accumulateSegment(bySegment.statistics, step.statistics);
    }
    EXPECT_GT(compareVerified(bySegment, pull.truth).maxError, pull.options.tolerance)
        << "the segments' own checks hold here; the case no longer shows why the chain is checked";

    const cli::RunSolution chained = cli::solveRunOnCpu(pull.run(), pull.options, 1);
    const VerifiedComparison checked = compareVerified(chained, pull.truth);
    EXPECT_LE(checked.maxError, pull.options.tolerance);
    EXPECT_GT(checked.compared, pull.voxels.size() * 3 / 4);
    // The report sums the segments' counts (a vertex flagged in two counts twice).
    EXPECT_GE(chained.report.unverified, checked.unverified);
    EXPECT_GT(checked.unverified, 0u);
}

// The command line: the count in the summary and the stats, and rk4 refused with
// a message that names the flag, nothing written.
TEST(Verify, DeformReportsUnverifiedAndRefusesRk4) {
    test::ScratchDir dir;
    const auto stats = dir.path() / "stats.json";
    test::runCli(&cli::addCommands, {"deform", "--backend", "cpu", "--built-in", "sphere", "--method", "dp45",
                                     "--verify", "--stats", stats.string()});
    const nlohmann::json j = test::readJson(stats);
    ASSERT_TRUE(j["flags"]["unverified"].is_number()) << j.dump(2);
    // The built-in move is easy: nearly every vertex verifies (33 of 10,242 did not when written).
    EXPECT_LE(j["flags"]["unverified"].get<size_t>(), j["vertices"].get<size_t>() / 100) << j.dump(2);

    const auto refused = dir.path() / "refused.json";
    test::writeFile(refused, test::kSentinel);
    const auto [status, message] = test::cliExitStatus({"deform", "--backend", "cpu", "--built-in", "sphere",
                                                        "--method", "rk4", "--steps", "4", "--verify", "--stats",
                                                        refused.string()});
    EXPECT_NE(status, 0);
    EXPECT_NE(message.find("verify"), std::string::npos) << message;
    EXPECT_EQ(test::readFile(refused), test::kSentinel);
}

class VerifyGpu : public test::GpuTest {};

TEST_F(VerifyGpu, CertifiesThePullOnTheGpu) {
    const HardPull& pull = hardPull();
    const cli::RunSolution gpu = cli::solveRunOnGpu(solver(), pull.run(), dp45(true));
    const VerifiedComparison verified = compareVerified(gpu, pull.truth);
    EXPECT_LE(verified.maxError, kTolerance);
    EXPECT_GT(verified.compared, pull.voxels.size() / 3);
    // The same vertices are flagged as on the CPU, but for a few whose passes differ
    // by about tol, where GPU and CPU rounding tip the comparison either way.
    const VerifiedComparison cpu = compareVerified(cli::solveRunOnCpu(pull.run(), dp45(true), 1), pull.truth);
    EXPECT_NEAR(double(verified.unverified), double(cpu.unverified), 0.05 * double(cpu.unverified) + 2.0);
}

TEST_F(VerifyGpu, ChecksTheWholeChainOnTheGpu) {
    const ChainedPull pull;
    const cli::RunSolution gpu = cli::solveRunOnGpu(solver(), pull.run(), pull.options);
    const VerifiedComparison checked = compareVerified(gpu, pull.truth);
    EXPECT_LE(checked.maxError, pull.options.tolerance);
    EXPECT_GT(checked.compared, pull.voxels.size() * 3 / 4);
}

} // namespace
} // namespace sculptflow
