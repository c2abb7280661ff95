// The deform shader's workgroup sizing per device (chooseDeformSizing).
#include <algorithm>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include "src/demo_fixtures.hpp"
#include "host/context_impl.hpp"
#include "host/deform_pipeline.hpp"
#include "gpu_fixture.hpp"

namespace sculptflow {
namespace {

VkPhysicalDeviceLimits limits(uint32_t maxSize, uint32_t maxInvocations) {
    VkPhysicalDeviceLimits l{};
    l.maxComputeWorkGroupSize[0] = maxSize;
    l.maxComputeWorkGroupInvocations = maxInvocations;
    return l;
}

TEST(DeformSizing, WorkgroupsAreWholeSubgroupsWithinTheLimits) {
    struct Case {
        const char* device;
        uint32_t subgroup;
        VkPhysicalDeviceType type;
        uint32_t maxSize;
        uint32_t workgroup;
        uint32_t perLane;
    };
    const Case cases[] = {
        {"NVIDIA (32-lane warps)", 32, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 1024, 64, 4},
        {"AMD GCN (64-lane waves)", 64, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 1024, 64, 4},
        {"Intel (SIMD16)", 16, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, 1024, 64, 4},
        {"a 128-lane device", 128, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 1024, 128, 4},
        {"lavapipe (AVX2, 8 lanes)", 8, VK_PHYSICAL_DEVICE_TYPE_CPU, 1024, 64, 32},
        {"a device limited to 32 invocations", 16, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, 32, 32, 4},
        {"subgroup size unknown", 0, VK_PHYSICAL_DEVICE_TYPE_OTHER, 256, 64, 4},
    };
    for (const Case& c : cases) {
        const DeformSizing s = chooseDeformSizing(c.subgroup, limits(c.maxSize, c.maxSize), c.type);
        EXPECT_EQ(s.workgroupSize, c.workgroup) << c.device;
        EXPECT_EQ(s.verticesPerLane, c.perLane) << c.device;
        if (c.subgroup) {
            EXPECT_EQ(s.workgroupSize % std::min(c.subgroup, c.maxSize), 0u) << c.device;
        }
        EXPECT_EQ(s.blockVertices(), s.workgroupSize * std::max(s.verticesPerLane / 4, 1u)) << c.device;
    }
}

class DeviceSizingTest : public test::GpuTest {};

TEST_F(DeviceSizingTest, ThisDeviceGetsASizingFromItsSubgroupSize) {
    const DeformSizing s = deformSizing(context());
    std::printf("  %s: subgroup %u, workgroups of %u, %u vertices a lane, blocks of %u\n",
                context().deviceName().c_str(), s.subgroupSize, s.workgroupSize, s.verticesPerLane,
                s.blockVertices());
    EXPECT_GT(s.subgroupSize, 0u) << "Vulkan 1.1 devices report a subgroup size";
    EXPECT_EQ(s.workgroupSize % s.subgroupSize, 0u);
    EXPECT_LE(s.workgroupSize, context().properties().limits.maxComputeWorkGroupInvocations);
}

// A GPU's sizing (workgroups of 128, 4 vertices a lane, blocks of 128) run on
// lavapipe: the same results as its own sizing, bit for bit, with and without
// compaction.
TEST_F(DeviceSizingTest, AnotherDevicesSizingGivesTheSameResults) {
    Context gpuSized(ContextOptions{.validation = test::validate()});
    implOf(gpuSized).deformSizingOverride = std::make_pair(128u, 4u);
    GpuSolver gpuSolver(gpuSized);
    ASSERT_EQ(deformSizing(gpuSized).blockVertices(), 128u);
    const Move move = moveToolMotion(defaultStroke());
    const std::vector<glm::vec3> start = ballAroundTip(move.tools.front(), 6000, 3.0f, 17);
    for (bool compaction : {true, false}) {
        gpuSolver.setCompaction(compaction);
        solver().setCompaction(compaction);
        const GpuSolution a = solveOnGpu(gpuSolver, move, start, SolverOptions{});
        const GpuSolution b = solveOnGpu(solver(), move, start, SolverOptions{});
        EXPECT_EQ(a.positions, b.positions) << "compaction " << compaction;
        EXPECT_EQ(a.report.evaluations, b.report.evaluations);
        GpuMesh mesh(gpuSized, start);
        gpuSolver.run(mesh, move, SolverOptions{}, false); // blocks in reach only
        EXPECT_EQ(mesh.readPositions(), b.positions);
    }
    solver().setCompaction(true);
    EXPECT_NO_THROW(gpuSized.throwOnValidationMessages());
}

} // namespace
} // namespace sculptflow
