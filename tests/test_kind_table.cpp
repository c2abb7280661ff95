// The tool kind table (shaders/sculptflow/kinds.glsl): the public enums, the
// names and the kernel's ids are its rows, and every kind keeps the solver's
// promises, each kind taken from the table.
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/sculptflow.h>
#include "src/chunk_reach.hpp"
#include "src/ground_truth.hpp"
#include "src/kernel_tools.hpp"
#include "src/kind_table.hpp"

namespace sculptflow {
namespace {

// The C API's values are the rows (plugins are built against them).
static_assert(SF_TOOL_KIND_KELVINLET == kernel::kToolKelvinlet);
static_assert(SF_TOOL_KIND_AFFINE == kernel::kToolAffine);
static_assert(SF_TOOL_KIND_AFFINE_FLOW == kernel::kToolAffineFlow);
static_assert(kernel::kToolAffineFlow + 1 == kernel::kToolKindCount, "a new row needs its SfToolKind value");

TEST(KindTable, EveryRowIsAPublicKindWithAUniqueName) {
    const std::vector<ToolKind> kinds = allToolKinds();
    ASSERT_EQ(int(kinds.size()), kernel::kToolKindCount);
    for (size_t i = 0; i < kinds.size(); ++i) {
        EXPECT_EQ(int(kinds[i]), int(i)) << "the public enum is the table's rows in order";
        EXPECT_EQ(parseToolKind(toolKindName(kinds[i])), kinds[i]) << toolKindName(kinds[i]);
    }
    EXPECT_EQ(parseToolKind("elastic"), std::nullopt);
    EXPECT_EQ(toolKindName(ToolKind(kernel::kToolKindCount)), "unknown");
    EXPECT_THROW(kindTraits(ToolKind(kernel::kToolKindCount)), Error);
}

// stroke.hpp's error-message list, kept beside the table for its users.
TEST(KindTable, TheChoicesStringListsTheRows) {
    std::string list;
    const std::vector<ToolKind> kinds = allToolKinds();
    for (size_t i = 0; i < kinds.size(); ++i) {
        if (i > 0) list += i + 1 == kinds.size() ? " or " : ", ";
        list.append("\"").append(toolKindName(kinds[i])).append("\""); // not "…" + string: GCC 12's -Wrestrict misfires
    }
    EXPECT_EQ(list, kToolKindChoices);
}

// A kind carries either a profile or a falloff; the kernel's Tool gets its row.
TEST(KindTable, EachKindKeepsItsOwnShapeAndItsRow) {
    for (ToolKind kind : allToolKinds()) {
        ToolStroke tool;
        tool.profile = KelvinletProfile::Laplacian;
        tool.falloff = Falloff::Sharp;
        setToolKind(tool, kind);
        const bool profiled = kindTraits(kind).profiled;
        EXPECT_EQ(tool.profile, profiled ? KelvinletProfile::Laplacian : KelvinletProfile::BiScale)
            << toolKindName(kind);
        EXPECT_EQ(tool.falloff, profiled ? Falloff::Smooth : Falloff::Sharp) << toolKindName(kind);

        ToolMotion motion;
        motion.kind = kind;
        motion.outerRadius = 10.0;
        EXPECT_EQ(makeKernelTool(motion).kind, int(kind)) << toolKindName(kind);
    }
}

// Every kind on the built-in case: the CPU reference within its tolerance of the
// double ground truth, and no vertex past the chunk culling's displacement bound.
TEST(KindTable, EveryKindMeetsTheGroundTruthWithinItsReach) {
    for (ToolKind kind : allToolKinds()) {
        Stroke stroke = defaultStroke();
        for (ToolStroke& tool : stroke.tools) setToolKind(tool, kind);
        const Move move = moveToolMotion(stroke);
        const ToolMotion& tool = move.tools[0];
        std::vector<glm::vec3> start;
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j)
                start.push_back(glm::vec3(tool.origin + glm::dvec3(i - 2, j - 2, 1) * 0.4 * tool.outerRadius));
        SolverOptions options;
        const CpuSolution cpu = solveOnCpu(move, start, options, 1);
        const GroundTruth truth = groundTruth(move, start);
        // Qualified: test_hostile.cpp has a displacementBound of its own (unity builds).
        const float bound = ::sculptflow::displacementBound(makeKernel(move, options));
        for (size_t v = 0; v < start.size(); ++v) {
            ASSERT_TRUE(truth.converged[v]) << toolKindName(kind) << " vertex " << v;
            EXPECT_LE(glm::length(glm::dvec3(cpu.positions[v]) - truth.positions[v]), options.tolerance)
                << toolKindName(kind) << " vertex " << v;
            EXPECT_LE(glm::length(truth.positions[v] - glm::dvec3(start[v])), double(bound))
                << toolKindName(kind) << " vertex " << v;
        }
    }
}

} // namespace
} // namespace sculptflow
