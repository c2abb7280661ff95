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
    EXPECT_GT(verified.unverified, 0u);
    // dp45 alone leaves a third of them over tol/2 from the truth: those disagree.
    EXPECT_GT(verified.compared, pull.voxels.size() / 2) << "most vertices flagged: the check says little";
}

// The first passes are one pass at half the tolerance from the probed starts (a few
// roundings away, which moves no vertex of this case across a cull or a clamp):
// the checking pass adds its own evaluations to every integrated vertex, and its
// flags to theirs.
TEST(Verify, AddsACheckingPassToThePlainSolve) {
    const HardPull& pull = hardPull();
    kernel::Kernel k = makeKernel(pull.segments[0], dp45(true));
    const cli::RunSolution verified = cli::solveRunOnCpu(pull.run(), dp45(true), 1);
    size_t integrated = 0, moved = 0;
    for (size_t i = 0; i < pull.voxels.size(); ++i) {
        const kernel::VertexResult first = k.integratePass(pull.voxels[i], k.firstPass());
        const VertexStatistics a{first.flags, first.acceptedSteps, first.rejectedSteps, first.evaluations};
        const VertexStatistics& b = verified.statistics[i];
        EXPECT_EQ(a.flags & ~b.flags, 0u) << "vertex " << i << " lost a flag of its first pass";
        if (a.flags & kVertexCulled) {
            EXPECT_EQ(b.evaluations, 0u);
            EXPECT_TRUE(test::sameBits(first.position, verified.positions[i]));
            continue;
        }
        ++integrated;
        EXPECT_GT(b.evaluations, a.evaluations) << i;
        EXPECT_LE(long(b.evaluations), worstCaseEvaluations(dp45(true))) << i;
        if (first.position != verified.positions[i]) ++moved;
    }
    EXPECT_GT(integrated, 0u);
    EXPECT_GT(moved, integrated / 2) << "the result should be the checking pass's";
}

// Errors both passes share (the float rounding of the same path, stretched alike)
// a comparison cannot see; from a probed start a first pass is also off by the
// flow's stretch of the probe, which the checking pass, from x0, sees. Seed 1347
// drags a bi-Laplacian Kelvinlet whose flow stretches a change of vertex 114's
// start 780×: the probe alone moves the first pass's end by more than tol/2 there,
// so the vertex is flagged whatever the passes share. (Until positions were summed
// compensated, both passes from x0 ended 3.2–3.5 tol off here, within tol/2 of
// each other; a search of seeds 0–2600, moves at tol 0.01, finds no such pair now.)
// dp45: with tsit5, this test's method until the floor stopped at the method's
// stability interval, a pass now clamps a step at h_min here (its first pass works
// to a share of tol 0.01, below tsit5's documented range).
TEST(Verify, TheProbeIsStretchedByTheFlow) {
    const cli::GeneratedCase generated = cli::generateCase(1347);
    ASSERT_EQ(generated.mode, MoveMode::Move);
    ASSERT_TRUE(generated.mesh.mask.empty());
    const std::vector<glm::vec3> voxels = cli::sweepVoxels(generated);
    const std::vector<Move> segments{moveToolMotion(generated.stroke)};
    SolverOptions options{.method = Method::Dp45, .tolerance = 0.01, .verify = true};
    options.maxIterations = plannedAttempts(options, segments); // as the CLI plans it
    kernel::Kernel k = makeKernel(segments[0], options);
    const size_t v = 114;
    const glm::vec3 probedStart = k.probedStart(voxels[v], 1.0f);
    const float probe = glm::distance(probedStart, voxels[v]);
    ASSERT_GT(probe, 0.0f);

    const kernel::VertexResult first = k.integratePass(voxels[v], k.firstPass());
    const kernel::VertexResult probed = k.integratePass(probedStart, k.firstPass());
    const kernel::VertexResult checking = k.integratePass(voxels[v], k.checkingPass());
    ASSERT_EQ(first.flags | probed.flags | checking.flags, 0u);
    const float stretched = glm::distance(probed.position, first.position);
    EXPECT_GT(stretched, 100.0f * probe) << "the flow no longer stretches the probe";
    EXPECT_GT(stretched, 2.0f * kernel::kVerifyAgreementShare * k.settings.requestedTolerance)
        << "the probe's stretch alone no longer parts the passes";

    const kernel::VertexResult result = k.integrateVertex(voxels[v], 0.0f);
    EXPECT_NE(result.flags & kernel::kFlagUnverified, 0u) << "the probe did not flag the vertex";
    EXPECT_TRUE(test::sameBits(result.position, checking.position)) << "the result is the checking pass's, from x0";
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
// docs/accuracy-sweep.md). Each segment's own check passes (its probe sees its own
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
    EXPECT_GT(verified.compared, pull.voxels.size() / 2);
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
