// The bounded adaptive driver: FSAL counts, termination guarantees, NaN
// handling, breakpoints and culling (spec §3.3, §4).
#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel_tools.hpp"
#include "src/method_table.hpp"
#include "kernel_fixtures.hpp"

namespace sculptflow {
namespace {

using test::affineMotion;
using test::kelvinletMotion;

// Points on shells around the origin, from near the tip to beyond the radius.
std::vector<glm::vec3> shellPoints(float maxRadius, int shells) {
    std::vector<glm::vec3> points;
    for (int i = 1; i <= shells; ++i) {
        Mesh sphere = icosphere(2, glm::vec3(0.0f), maxRadius * float(i) / float(shells));
        points.insert(points.end(), sphere.positions.begin(), sphere.positions.end());
    }
    return points;
}

TEST(Solver, FsalMethodsPayTheirStagesPerAttempt) {
    Move move{{kelvinletMotion(100.0, {400.0, 100.0, 0.0}, {0.0, 1.5, 0.5})}};
    std::vector<glm::vec3> points = shellPoints(120.0f, 4);
    for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
        CpuSolution sol = solveOnCpu(move, points, SolverOptions{.method = method});
        const kernel::MethodTraits traits = methodTraits(method);
        ASSERT_TRUE(traits.fsal) << methodName(method);
        const uint32_t perAttempt = uint32_t(traits.evaluations);
        // The bound's check costs its evaluations an accepted step, and in a second
        // pass, which accepts on it, an attempt, rejected ones too (rk4dbl's none).
        const uint32_t perAccepted = uint32_t(traits.boundEvaluations);
        for (const VertexStatistics& st : sol.statistics) {
            if (st.flags != 0) continue;
            // One evaluation for each pass's first k1 (a second pass where the error
            // bound is over tol), then only the new stages.
            const uint32_t firstStages = st.evaluations - perAttempt * (st.acceptedSteps + st.rejectedSteps)
                                       - perAccepted * st.acceptedSteps;
            const uint32_t secondPassRejections = perAccepted * st.rejectedSteps;
            EXPECT_TRUE(firstStages == 1 || (firstStages >= 2 && firstStages <= 2 + secondPassRejections))
                << methodName(method) << " " << st.evaluations;
        }
        EXPECT_EQ(sol.report.iterationCap, 0u);
    }
}

TEST(Solver, HostileFieldEndsWithinTheBudget) {
    // A huge move through a tiny radius with a tolerance far below float precision.
    Move move{{kelvinletMotion(0.05, {1e6, -3e5, 2e5}, {0.0, 3.1, 0.0}, 2.0)}};
    std::vector<glm::vec3> points = shellPoints(3.0f, 3);
    for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45, Method::Tsit5}) {
        SolverOptions options = SolverOptions{.method = method, .tolerance = 1e-9};
        options.maxIterations = 40;
        CpuSolution sol = solveOnCpu(move, points, options);
        long bound = worstCaseEvaluations(options);
        // The first pass, and a second of twice the attempts where the error bound is
        // over tol; the bound's check costs bs32, dp45 and tsit5 one evaluation more
        // an attempt (rk4dbl's midpoint and end are its own stages).
        EXPECT_EQ(bound, 3 * 40L * (method == Method::Rk4Double ? 11 : method == Method::Bs32 ? 4 : 7) + 4 * 2);
        for (size_t i = 0; i < points.size(); ++i) {
            const VertexStatistics& st = sol.statistics[i];
            EXPECT_LE(long(st.evaluations), bound);
            EXPECT_LE(st.acceptedSteps + st.rejectedSteps, 3 * 40u);
            EXPECT_NE(st.flags & (kernel::kFlagIterationCap | kernel::kFlagMinStepClamped |
                                  kernel::kFlagNonFinite), 0u)
                << "vertex " << i << " ended unflagged";
        }
        EXPECT_GT(sol.report.iterationCap + sol.report.minStepClamped, points.size() / 2);
    }
}

TEST(Solver, MinimumStepIsAcceptedAndFlagged) {
    Move move{{kelvinletMotion(10.0, {2000.0, 0.0, 0.0}, {0.0, 0.0, 3.0})}};
    SolverOptions options = SolverOptions{.method = Method::Bs32, .tolerance = 1e-6};
    options.hMin = 0.05; // twenty steps at h_min cover the move
    options.maxIterations = 1000;
    CpuSolution sol = solveOnCpu(move, shellPoints(20.0f, 2), options);
    EXPECT_GT(sol.report.minStepClamped, 0u);
    EXPECT_EQ(sol.report.iterationCap, 0u);
    for (const VertexStatistics& st : sol.statistics) EXPECT_LE(st.acceptedSteps, 20u + 1u);
}

TEST(Solver, NonFiniteInputComesOutUnchangedAndFlagged) {
    Move move{{kelvinletMotion(100.0, {300.0, 0.0, 0.0})}};
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<glm::vec3> points = {{nan, 1.0f, 2.0f}, {3.0f, inf, 4.0f}, {5.0f, 6.0f, 7.0f}};
    for (Method method : {Method::Rk4, Method::Rk4Double, Method::Bs32, Method::Dp45}) {
        CpuSolution sol = solveOnCpu(move, points, SolverOptions{.method = method});
        EXPECT_TRUE(std::isnan(sol.positions[0].x));
        EXPECT_EQ(sol.positions[0].y, 1.0f);
        EXPECT_EQ(sol.positions[0].z, 2.0f);
        EXPECT_EQ(sol.positions[1], points[1]);
        EXPECT_EQ(sol.statistics[0].flags, kernel::kFlagNonFinite);
        EXPECT_EQ(sol.statistics[1].flags, kernel::kFlagNonFinite);
        EXPECT_EQ(sol.statistics[2].flags, 0u);
        EXPECT_GT(glm::length(sol.positions[2] - points[2]), 100.0f);
    }
}

TEST(Solver, NonFiniteToolParametersLoseNothing) {
    // The raw kernel skips host validation: a NaN load must still not corrupt output.
    kernel::Kernel k = makeKernel(Move{{kelvinletMotion(100.0, {300.0, 0.0, 0.0})}}, SolverOptions{});
    k.tools[0].grabLoad.y = std::numeric_limits<float>::quiet_NaN();
    glm::vec3 x0(10.0f, 20.0f, 30.0f);
    kernel::VertexResult r = k.integrateVertex(x0, 0.0f);
    EXPECT_EQ(r.position, x0);
    EXPECT_NE(r.flags & kernel::kFlagNonFinite, 0u);
    EXPECT_LE(long(r.evaluations), worstCaseEvaluations(SolverOptions{}));
}

TEST(Solver, TwoHandAffineStopsExactlyAtTheBreakpoints) {
    // Translation-only tools: the velocity is constant between breakpoints, so one
    // RK4 step per segment is exact if, and only if, no step crosses a breakpoint.
    ToolMotion left = affineMotion({0.0, 0.0, 0.0}, {120.0, 0.0, 0.0}, {}, 0.0, 10.0, 90.0);
    ToolMotion right = affineMotion({40.0, 0.0, 0.0}, {0.0, 80.0, 0.0}, {}, 0.0, 5.0, 70.0);
    Move move{{left, right}};
    std::vector<glm::vec3> points = {{30.0f, 5.0f, 0.0f}, {60.0f, -3.0f, 2.0f}, {15.0f, 0.0f, 8.0f}};
    SolverOptions options = SolverOptions{.method = Method::Rk4};
    options.fixedSteps = 1;
    CpuSolution sol = solveOnCpu(move, points, options);
    for (size_t i = 0; i < points.size(); ++i) {
        glm::dvec3 x0(points[i]);
        auto weight = [&](const ToolMotion& m) {
            double dist = glm::length(x0 - m.origin);
            double u = 1.0 - std::clamp((dist - m.innerRadius) / (m.outerRadius - m.innerRadius), 0.0, 1.0);
            return u * u * (3.0 - 2.0 * u);
        };
        glm::dvec3 expected = x0 + weight(left) * left.translation + weight(right) * right.translation;
        EXPECT_NEAR(glm::length(glm::dvec3(sol.positions[i]) - expected), 0.0, 1e-3) << "vertex " << i;
        EXPECT_EQ(sol.statistics[i].acceptedSteps, weight(left) > 0 && weight(right) > 0 ? 2u : 1u);
    }
}

TEST(Solver, AdaptiveTwoHandAffineMatchesGroundTruth) {
    ToolMotion left = affineMotion({0.0, 0.0, 0.0}, {120.0, 30.0, 0.0}, {0.0, 0.0, 1.2}, 0.2, 10.0, 90.0);
    ToolMotion right = affineMotion({40.0, 0.0, 0.0}, {0.0, 80.0, 10.0}, {0.8, 0.0, 0.0}, -0.1, 5.0, 70.0);
    Move move{{left, right}};
    std::vector<glm::vec3> points = shellPoints(80.0f, 4);
    for (glm::vec3& p : points) p += glm::vec3(20.0f, 0.0f, 0.0f);
    GroundTruth truth = groundTruth(move, points);
    for (Method method : {Method::Rk4Double, Method::Bs32, Method::Dp45}) {
        CpuSolution sol = solveOnCpu(move, points, SolverOptions{.method = method});
        for (size_t i = 0; i < points.size(); ++i) {
            if (sol.statistics[i].flags & ~kernel::kFlagCulled) continue;
            EXPECT_LE(glm::length(glm::dvec3(sol.positions[i]) - truth.positions[i]), 0.1)
                << methodName(method) << " vertex " << i;
        }
    }
}

TEST(Solver, CulledVerticesMoveLessThanATenthOfTheTolerance) {
    Move move{{kelvinletMotion(30.0, {150.0, 40.0, 0.0}, {0.0, 0.0, 1.0}, 0.1)}};
    std::vector<glm::vec3> points = shellPoints(2500.0f, 40);
    SolverOptions options = SolverOptions{.method = Method::Bs32};
    CpuSolution sol = solveOnCpu(move, points, options);
    GroundTruth truth = groundTruth(move, points);
    size_t culled = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        if (!(sol.statistics[i].flags & kernel::kFlagCulled)) continue;
        ++culled;
        EXPECT_EQ(sol.positions[i], points[i]);
        EXPECT_LT(glm::length(truth.positions[i] - glm::dvec3(points[i])), 0.1 * options.tolerance)
            << "vertex " << i;
    }
    EXPECT_GT(culled, points.size() / 4); // the bound is useful, not only safe
    EXPECT_LT(culled, points.size());
}

// A 10-voxel affine flow (r_in 5) dragged 1,000 voxels: the vertices inside it ride
// with its falloff shell, and the move's step limit (stepLimitTravel of the shell's
// field length a step) holds them to 534 steps whatever the tolerance: 64 attempts
// cannot give them; planned from the move (64 + 534), the budget can. (A 10-voxel
// Kelvinlet no longer shows it: every adaptive method steps within each vertex's
// own limit, which lets a vertex the tool carries step past the move's.)
TEST(Solver, TheAttemptBudgetIsPlannedFromTheMovesStepLimit) {
    ToolMotion flow = affineMotion({0.0, 0.0, 0.0}, {1000.0, 0.0, 0.0}, {}, 0.0, 5.0, 10.0);
    flow.kind = ToolKind::AffineFlow;
    const Move move{{flow}};
    std::vector<glm::vec3> carried;
    for (int i = 0; i < 64; ++i) carried.emplace_back(3.0f * std::cos(0.7f * float(i)), 3.0f * std::sin(0.7f * float(i)), 0.0f);
    for (Method method : allMethods(true)) {
        SolverOptions options{.method = method};
        auto capped = [&](int attempts) {
            options.maxIterations = attempts;
            const CpuSolution sol = solveOnCpu(move, carried, options);
            return std::count_if(sol.statistics.begin(), sol.statistics.end(),
                                 [](const VertexStatistics& s) { return s.flags & kernel::kFlagIterationCap; });
        };
        const int planned = plannedAttempts(options, {&move, 1});
        EXPECT_EQ(planned, 64 + int(std::ceil(1.0 / toolStepLimit(move, options))));
        EXPECT_GT(planned, 64 + 500);
        EXPECT_EQ(plannedAttempts(options.method, options.tolerance), 64); // the tolerance alone asks no more
        EXPECT_EQ(capped(64), 64) << methodTraits(method).name;
        EXPECT_EQ(capped(planned), 0) << methodTraits(method).name;
    }
}

// At tol 0.003 on the built-in sphere the estimates of tsit5's steps (and bs32's
// second-pass checks) reach their stages' float rounding, which a shorter step does
// not lower: held to tol·h alone, a vertex that shrank to h_min stayed there until
// the attempt cap (tsit5: 10,158 of 10,242 vertices; bs32: 128), then finished with
// one RK4 step per segment. Held to its rounding floor once clamped
// (stepAllowance), a vertex finishes its path: flagged MIN_STEP_CLAMPED as before,
// not capped, and close to the double ground truth; an unflagged one is within tol.
TEST(Solver, ClampedVerticesFinishAtTheRoundingFloor) {
    const Stroke stroke = defaultStroke();
    const Mesh mesh = defaultMesh(stroke);
    std::vector<glm::vec3> points;
    for (size_t i = 0; i < mesh.positions.size(); i += 16) points.push_back(mesh.positions[i] / float(stroke.voxelSize));
    const Move move = moveToolMotion(stroke);
    const GroundTruth truth = groundTruth(move, points);
    for (Method method : {Method::Bs32, Method::Tsit5}) {
        SolverOptions options{.method = method, .tolerance = 0.003};
        options.maxIterations = plannedAttempts(options, {&move, 1});
        const CpuSolution sol = solveOnCpu(move, points, options);
        EXPECT_LE(sol.report.iterationCap, points.size() / 100) << methodName(method);
        double worstClamped = 0.0;
        for (size_t i = 0; i < points.size(); ++i) {
            const double error = glm::length(glm::dvec3(sol.positions[i]) - truth.positions[i]);
            if (sol.statistics[i].flags & kernel::kFlagMinStepClamped) worstClamped = std::max(worstClamped, error);
            else if (sol.statistics[i].flags == 0) {
                EXPECT_LE(error, options.tolerance) << methodName(method) << " vertex " << i;
            }
        }
        // Float-limited, so not within tol, but solved: 0.0048 (bs32) and 0.0050 voxel (tsit5)
        // measured; capped, tsit5's ended up to 97.9 voxels off (issue 44).
        EXPECT_LE(worstClamped, 3.0 * options.tolerance) << methodName(method);
    }
}

TEST(Solver, InvalidToolsAreRefusedByName) {
    std::vector<glm::vec3> points = {{0.0f, 0.0f, 0.0f}};
    ToolMotion bad = kelvinletMotion(100.0, {300.0, 0.0, 0.0});
    bad.rotation.y = std::nan("");
    EXPECT_THROW(solveOnCpu(Move{{bad}}, points, SolverOptions{}), Error);
    bad = kelvinletMotion(0.0, {300.0, 0.0, 0.0});
    try {
        solveOnCpu(Move{{bad}}, points, SolverOptions{});
        ADD_FAILURE() << "zero radius accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("tools[0].outerRadius"), std::string::npos) << e.what();
    }
    EXPECT_THROW(solveOnCpu(Move{}, points, SolverOptions{}), Error);
    EXPECT_THROW(solveOnCpu(Move{std::vector<ToolMotion>(kMaxTools + 1, kelvinletMotion(9.0, {}))}, points,
                            SolverOptions{}),
                 Error);
}

TEST(Solver, ResultsDoNotDependOnThreadCount) {
    Stroke stroke = defaultStroke();
    Mesh mesh = defaultMesh(stroke);
    std::vector<glm::vec3> points;
    for (const glm::vec3& p : mesh.positions) points.push_back(p / float(stroke.voxelSize));
    Move move = moveToolMotion(stroke);
    CpuSolution one = solveOnCpu(move, points, SolverOptions{}, 1);
    CpuSolution many = solveOnCpu(move, points, SolverOptions{}, 4);
    ASSERT_EQ(one.positions.size(), many.positions.size());
    for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(one.positions[i], many.positions[i]);
    EXPECT_EQ(one.report.evaluations, many.report.evaluations);
}

TEST(Solver, InvalidOptionsAreRefusedByName) {
    Move move{{kelvinletMotion(100.0, {300.0, 0.0, 0.0})}};
    std::vector<glm::vec3> points = {{0.0f, 0.0f, 0.0f}};
    auto expectRefused = [&](SolverOptions o, const std::string& name) {
        try {
            solveOnCpu(move, points, o);
            ADD_FAILURE() << name << " accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    SolverOptions o;
    o.tolerance = 0.0;
    expectRefused(o, "tolerance");
    o = {};
    o.hMin = std::nan("");
    expectRefused(o, "hMin");
    o = {};
    o.maxIterations = 0;
    expectRefused(o, "maxIterations");
    o = {};
    o.growMax = 0.5;
    expectRefused(o, "growMax");
}

} // namespace
} // namespace sculptflow
