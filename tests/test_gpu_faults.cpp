// Resource faults: an exhausted memory budget and a machine without a Vulkan
// driver give clear errors, and the mesh is never corrupted.
#include <cstdlib>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "host/deform_recorder.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

std::vector<glm::vec3> sphere(const Move& move, int subdivisions) {
    return icosphere(subdivisions, glm::vec3(move.tools[0].origin), float(0.3 * move.tools[0].outerRadius))
        .positions;
}

TEST(GpuFaults, ExhaustedMemoryBudgetFailsBeforeDispatchAndKeepsTheMesh) {
    SF_REQUIRE_VULKAN();
    const Move move = moveToolMotion(defaultStroke());
    const std::vector<glm::vec3> start = sphere(move, 3); // 642 vertices: 7,704 bytes per position buffer
    // Room for the solver's own buffers and the mesh (with its compaction scratch),
    // not for its statistics (10,272 bytes).
    ContextOptions options{.validation = test::validate()};
    options.hooks.memoryBudget = 400 + 16 + 2 * 7704 + DeformScratch::bytes(642) + 4000;
    Context context(options);
    GpuSolver solver(context);
    GpuMesh mesh(context, start);
    EXPECT_TRUE(test::failsWith([&] { solver.run(mesh, move, SolverOptions{}, /*statistics=*/true); },
                                {"memory budget", "statistics"}));
    EXPECT_EQ(mesh.readPositions(), start) << "a refused dispatch changed the mesh";

    GpuRun run = solver.run(mesh, move, SolverOptions{}, /*statistics=*/false); // fits
    EXPECT_GT(glm::length(mesh.readPositions()[0] - start[0]), 1.0f);
    EXPECT_EQ(run.report.vertices, 0u);

    const std::vector<glm::vec3> large = sphere(move, 5);
    EXPECT_TRUE(test::failsWith([&] { GpuMesh tooLarge(context, large); }, {"memory budget", "mesh input"}));
    EXPECT_NO_THROW(context.throwOnValidationMessages());
}

TEST(GpuFaults, NoVulkanDriverIsSaidPlainly) {
    // Wine's Vulkan reaches the host's loader, which reads the host's environment.
    if (test::underWine()) GTEST_SKIP() << "under Wine the host's loader does not see this process's environment";
    test::ScopedEnv icd("VK_ICD_FILENAMES", "/nonexistent/icd.json");
    test::ScopedEnv driver("VK_DRIVER_FILES", "/nonexistent/icd.json");
    EXPECT_TRUE(test::failsWith([] { Context context; }, {"no Vulkan driver"}));
}

} // namespace
} // namespace sculptflow
