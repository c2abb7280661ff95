// Accuracy on real and built-in strokes: every unflagged vertex within tolerance
// of the independent double ground truth (spec §6 target), at fewer evaluations
// than the straightforward implementation the spec measured.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

struct TipCase {
    Move move;
    std::vector<glm::vec3> start; // voxels
    GroundTruth truth;
};

TipCase makeCase(const Stroke& stroke) {
    TipCase c;
    c.move = moveToolMotion(stroke);
    c.start = test::spheresAroundTip(c.move.tools.front());
    c.truth = groundTruth(c.move, c.start);
    return c;
}

struct Accuracy {
    double maxError = 0.0;
    double meanError = 0.0;
    double meanEvaluations = 0.0;
    size_t flagged = 0;
};

// Compares every vertex that is not flagged (culled vertices must not move at all).
Accuracy measure(const TipCase& c, Method method, double tolerance) {
    SolverOptions options;
    options.method = method;
    options.tolerance = tolerance;
    CpuSolution solution = solveOnCpu(c.move, c.start, options);
    Accuracy a;
    size_t compared = 0;
    for (size_t i = 0; i < c.start.size(); ++i) {
        EXPECT_TRUE(c.truth.converged[i]) << "ground truth did not converge at vertex " << i;
        uint32_t flags = solution.statistics[i].flags;
        if (flags & ~kernel::kFlagCulled) {
            ++a.flagged;
            continue;
        }
        double error = glm::length(glm::dvec3(solution.positions[i]) - c.truth.positions[i]);
        a.maxError = std::max(a.maxError, error);
        a.meanError += error;
        ++compared;
    }
    a.meanError /= double(std::max<size_t>(compared, 1));
    a.meanEvaluations = solution.report.meanEvaluations();
    return a;
}

void report(const std::string& name, Method method, const Accuracy& a) {
    std::printf("  %-28s %-7s max %.4f  mean %.5f voxel  evaluations %.1f  flagged %zu\n",
                name.c_str(), std::string(methodName(method)).c_str(), a.maxError, a.meanError,
                a.meanEvaluations, a.flagged);
}

// Issue 44 asks the error bound to cost about 1.3× what each method took before it
// (e33f268, test0: 59.4 bs32, 30.0 dp45, 49.0 rk4dbl evaluations a vertex); this
// catches a change that makes it cost more than 1.4×.
double evaluationCeiling(Method method) {
    return 1.4 * (method == Method::Bs32 ? 59.4 : method == Method::Dp45 ? 30.0 : 49.0);
}

// tsit5 had no straightforward implementation. Its tolerance is set by GPU–CPU
// agreement (docs/solver.md), which costs it 5–30% more evaluations than dp45 on
// these cases; this catches a change that makes it cost more.
constexpr double kTsit5OverDp45Evaluations = 1.35;

void expectWithinTolerance(const std::string& name, const Stroke& stroke, ToolKind kind) {
    TipCase c = makeCase(test::withKind(stroke, kind));
    const double tolerance = 0.1;
    double dp45Evaluations = 0.0;
    for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
        Accuracy a = measure(c, method, tolerance);
        report(name + (kind == ToolKind::Affine ? " affine" : " kelvinlet"), method, a);
        EXPECT_LE(a.maxError, tolerance) << name << " " << methodName(method);
        EXPECT_EQ(a.flagged, 0u) << name << " " << methodName(method);
        if (method == Method::Dp45) dp45Evaluations = a.meanEvaluations;
        if (method == Method::Tsit5)
            EXPECT_LT(a.meanEvaluations, kTsit5OverDp45Evaluations * dp45Evaluations) << name << " tsit5";
        else
            EXPECT_LT(a.meanEvaluations, evaluationCeiling(method)) << name << " " << methodName(method);
    }
}

class RecordedStroke : public testing::TestWithParam<const char*> {};

TEST_P(RecordedStroke, AffineWithinToleranceOfClosedForm) {
    SF_REQUIRE_RECORDING(path, GetParam());
    expectWithinTolerance(GetParam(), readStroke(path), ToolKind::Affine);
}

TEST_P(RecordedStroke, KelvinletWithinToleranceOfGroundTruth) {
    SF_REQUIRE_RECORDING(path, GetParam());
    expectWithinTolerance(GetParam(), readStroke(path), ToolKind::Kelvinlet);
}

INSTANTIATE_TEST_SUITE_P(Accuracy, RecordedStroke,
                         testing::Values("test0_righthandstroke.bin", "test1_lefthandstroke.bin",
                                         "test1_righthandstroke.bin"),
                         [](const testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             return name.substr(0, name.find('.'));
                         });

// Issue 8's budget for bs32 on test0 as a Kelvinlet at tol 0.1 was 60 evaluations
// per vertex (59.4 then), with every vertex within 0.1 voxel. Its error bound
// (issue 44) added one evaluation an accepted step and second passes where the flow
// stretches (80.0); accepting on its own error, whose steps are longer, it takes
// 53.9: within issue 8's budget again.
TEST(Accuracy, Bs32OnTest0WithinItsEvaluationBudget) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    TipCase c = makeCase(test::withKind(readStroke(path), ToolKind::Kelvinlet));
    Accuracy a = measure(c, Method::Bs32, 0.1);
    EXPECT_LE(a.meanEvaluations, 60.0);
    EXPECT_LE(a.maxError, 0.1);
    EXPECT_EQ(a.flagged, 0u);
}

TEST(Accuracy, BuiltInStrokeWithinTolerance) {
    expectWithinTolerance("built-in", defaultStroke(), ToolKind::Kelvinlet);
    expectWithinTolerance("built-in", defaultStroke(), ToolKind::Affine);
}

TEST(Accuracy, TwoHandRecordingWithinTolerance) {
    SF_REQUIRE_RECORDING(left, "test1_lefthandstroke.bin");
    SF_REQUIRE_RECORDING(right, "test1_righthandstroke.bin");
    for (ToolKind kind : {ToolKind::Affine, ToolKind::Kelvinlet}) {
        Stroke both = readStroke(left);
        both.tools.push_back(readStroke(right).tools.front());
        both = test::withKind(both, kind);
        TipCase c;
        c.move = moveToolMotion(both);
        c.start = test::spheresAroundTip(c.move.tools[0]);
        std::vector<glm::vec3> aroundRight = test::spheresAroundTip(c.move.tools[1]);
        c.start.insert(c.start.end(), aroundRight.begin(), aroundRight.end());
        c.truth = groundTruth(c.move, c.start);
        for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
            Accuracy a = measure(c, method, 0.1);
            report(kind == ToolKind::Affine ? "two hands affine" : "two hands kelvinlet", method, a);
            EXPECT_LE(a.maxError, 0.1) << methodName(method);
            EXPECT_EQ(a.flagged, 0u) << methodName(method);
        }
    }
}

} // namespace
} // namespace sculptflow
