// The method table (shaders/sculptflow/methods.glsl) and the tolerance planner
// (src/tolerance_plan.hpp): what the rest of the library derives from them.
#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/live_move.hpp>
#include "src/kernel_tools.hpp"
#include "src/method_table.hpp"
#include "src/tolerance_plan.hpp"

namespace sculptflow {
namespace {

TEST(MethodTable, EveryRowIsAPublicMethodWithAUniqueName) {
    const std::vector<Method> methods = allMethods();
    ASSERT_EQ(int(methods.size()), kernel::kMethodCount);
    for (size_t i = 0; i < methods.size(); ++i) {
        EXPECT_EQ(int(methods[i]), int(i)) << "the public enum is the table's rows in order";
        EXPECT_EQ(parseMethod(methodName(methods[i])), methods[i]) << methodName(methods[i]);
    }
    EXPECT_EQ(parseMethod("rk45"), std::nullopt);
    EXPECT_EQ(methodName(Method(kernel::kMethodCount)), "unknown");
    EXPECT_THROW(methodTraits(Method(kernel::kMethodCount)), Error);
}

TEST(MethodTable, ListsAreTheRowsInOrder) {
    const std::string list = methodNameList();
    EXPECT_EQ(list.rfind("rk4, rk4dbl, bs32", 0), 0u) << list;
    EXPECT_TRUE(list.ends_with(" or " + std::string(methodName(allMethods().back())))) << list;
    EXPECT_EQ(methodNameList(true).find("rk4,"), std::string::npos) << "rk4 takes fixed steps";
    EXPECT_FALSE(isAdaptive(Method::Rk4));
    EXPECT_TRUE(isAdaptive(Method::Dp45));
    EXPECT_EQ(allMethods(true).size() + 1, allMethods().size());
}

// The worst case (spec §4, item 3): an attempt pays its evaluations plus, unless
// FSAL, the next k1, and the error bound's check its own (one midpoint, rk4dbl's none);
// four more a segment for the RK4 finish.
TEST(MethodTable, WorstCaseEvaluationsFollowTheStages) {
    SolverOptions o;
    o.maxIterations = 10;
    const std::pair<Method, long> stages[] = {
        {Method::Rk4, 4}, {Method::Rk4Double, 11}, {Method::Bs32, 4}, {Method::Dp45, 7}, {Method::Tsit5, 7}};
    for (auto [method, perAttempt] : stages) {
        o.method = method;
        // A method with an error bound may solve a vertex again, with twice the attempts.
        const long passes = methodTraits(method).errorBound ? 3 : 1;
        EXPECT_EQ(worstCaseEvaluations(o, 2), passes * 10 * perAttempt + (passes == 1 ? 8 : 16)) << methodName(method);
    }
}

Move withProfile(KelvinletProfile profile) {
    Stroke stroke = defaultStroke();
    stroke.tools.front().profile = profile;
    return moveToolMotion(stroke);
}

TEST(TolerancePlan, SplitsTheStrokeAndCalibratesPerMethod) {
    SolverOptions o;
    o.method = Method::Dp45;
    o.tolerance = 0.2;
    const TolerancePlan move = planTolerance(withProfile(KelvinletProfile::BiScale), o, 1);
    EXPECT_EQ(move.stroke, 0.2);
    EXPECT_EQ(move.segment, 0.2);
    EXPECT_DOUBLE_EQ(move.internal, 0.3 * 0.2);
    const TolerancePlan continuous = planTolerance(withProfile(KelvinletProfile::BiScale), o, 40);
    EXPECT_DOUBLE_EQ(continuous.segment, 0.2 / 40);
    EXPECT_DOUBLE_EQ(continuous.internal, 0.3 * 0.2 / 40);
    // A bi-Laplacian Kelvinlet stretches errors more: the kernel works tighter.
    EXPECT_DOUBLE_EQ(planTolerance(withProfile(KelvinletProfile::BiLaplacian), o, 1).internal, 0.8 * 0.3 * 0.2);
    // The planner is what the kernel gets.
    EXPECT_EQ(makeKernel(withProfile(KelvinletProfile::BiLaplacian), o).settings.tolerance,
              float(internalTolerance(withProfile(KelvinletProfile::BiLaplacian), o)));
}

// LiveMove's default segment is the default stroke tolerance over 100 frames.
static_assert(kDefaultSegmentTolerance == 1e-3);
static_assert(segmentTolerance(0.1, 0) == 0.1 && segmentTolerance(0.4, 4) == 0.1);

} // namespace
} // namespace sculptflow
