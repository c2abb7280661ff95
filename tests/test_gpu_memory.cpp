// Where the GPU's buffers live (mapped or staged), the heap check before any
// allocation, and dispatches split past the workgroup-count limit.
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "src/demo_fixtures.hpp"
#include "host/context_impl.hpp"
#include "host/gpu_solver_impl.hpp"
#include "renderer_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

ContextOptions validated(BufferPlacement placement) {
    ContextOptions options;
    options.validation = true;
    options.hooks.bufferPlacement = placement;
    return options;
}

// A half-frozen mask, so that uploads of the mask and the frozen blocks are covered.
std::vector<float> halfMask(size_t count) {
    std::vector<float> mask(count);
    for (size_t i = 0; i < count; ++i) mask[i] = i % 2 ? 0.0f : 0.75f;
    return mask;
}

SolverOptions withVolumeChange() {
    SolverOptions options;
    options.volumeChange = true;
    return options;
}

TEST(BufferPlacement, AutoIsResolvedForTheDevice) {
    SF_REQUIRE_VULKAN();
    Context context(validated(BufferPlacement::Auto));
    const BufferPlacement placement = context.bufferPlacement();
    std::printf("  %s: buffers %s, %llu bytes available in the device-local heap\n", context.deviceName().c_str(),
                bufferPlacementName(placement), (unsigned long long)context.deviceHeapAvailable());
    EXPECT_NE(placement, BufferPlacement::Auto);
    // lavapipe's one heap is host-visible, device-local system memory.
    if (context.deviceName().find("llvmpipe") != std::string::npos) {
        EXPECT_EQ(placement, BufferPlacement::Mapped);
    }
    EXPECT_GT(context.deviceHeapAvailable(), 0u);
    EXPECT_STREQ(bufferPlacementName(BufferPlacement::Staged), "staged");
}

// Staged buffers are device-local only, and every upload and readback goes
// through staging copies; the results are the mapped path's, bit for bit.
TEST(BufferPlacement, StagedRunsMatchMappedOnesBitForBit) {
    SF_REQUIRE_VULKAN();
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<Move> segments = continuousMotions(stroke);
    const std::vector<glm::vec3> start = ballAroundTip(move.tools.front(), 4000, 2.0f, 7);
    const std::vector<float> mask = halfMask(start.size());

    Context mapped(validated(BufferPlacement::Mapped));
    Context staged(validated(BufferPlacement::Staged));
    ASSERT_EQ(staged.bufferPlacement(), BufferPlacement::Staged);
    GpuSolver mappedSolver(mapped);
    GpuSolver stagedSolver(staged);
    {
        GpuMesh mesh(staged, start, mask);
        EXPECT_EQ(implOf(mesh).input.mapped(), nullptr) << "a staged mesh's input is not host-visible";
        EXPECT_EQ(implOf(mesh).output.mapped(), nullptr);
        EXPECT_EQ(mesh.readPositions(), start) << "before any run the output is the input";
    }
    const GpuSolution a = solveOnGpu(mappedSolver, move, start, withVolumeChange(), mask);
    const GpuSolution b = solveOnGpu(stagedSolver, move, start, withVolumeChange(), mask);
    EXPECT_EQ(a.positions, b.positions);
    ASSERT_EQ(a.statistics.size(), b.statistics.size());
    for (size_t i = 0; i < a.statistics.size(); ++i)
        ASSERT_EQ(std::memcmp(&a.statistics[i], &b.statistics[i], sizeof(VertexStatistics)), 0) << "vertex " << i;
    EXPECT_EQ(a.volumeChanges, b.volumeChanges);
    EXPECT_GT(a.report.evaluations, 0u);

    const GpuSolution c = solveContinuousOnGpu(mappedSolver, segments, start, SolverOptions{});
    const GpuSolution d = solveContinuousOnGpu(stagedSolver, segments, start, SolverOptions{});
    EXPECT_EQ(c.positions, d.positions);
    EXPECT_EQ(c.report.evaluations, d.report.evaluations);
    EXPECT_NO_THROW(staged.throwOnValidationMessages());
}

// What the README promises a mesh holds, staged as mapped: 32 bytes a vertex;
// staging buffers are held only while a transfer runs.
TEST(BufferPlacement, StagedMeshHoldsWhatTheReadmeSays) {
    SF_REQUIRE_VULKAN();
    Context context(validated(BufferPlacement::Staged));
    GpuSolver solver(context);
    const Move move = moveToolMotion(defaultStroke());
    const size_t count = 100'000;
    const std::vector<glm::vec3> start = ballAroundTip(move.tools.front(), count, 2.0f, 3);
    const uint64_t before = context.allocatedMemory();
    {
        GpuMesh mesh(context, start);
        const uint64_t held = context.allocatedMemory() - before;
        EXPECT_GE(held, 32 * count);
        EXPECT_LE(held, 32 * count + 64 * 1024);
        solver.run(mesh, move, SolverOptions{}, false);
        EXPECT_EQ(context.allocatedMemory() - before, held) << "a run without statistics allocates nothing";
        const std::vector<glm::vec3> out = mesh.readPositions();
        EXPECT_EQ(context.allocatedMemory() - before, held) << "the readback's staging buffer is given back";
        EXPECT_NE(out, start);
    }
    EXPECT_EQ(context.allocatedMemory(), before);
}

// A mesh that cannot fit is refused before anything is allocated, naming the
// bytes it needs and the heap's available bytes; the context stays usable.
TEST(HeapCheck, AMeshLargerThanTheHeapIsRefusedByName) {
    SF_REQUIRE_VULKAN();
    Context context(validated(BufferPlacement::Auto));
    const Move move = moveToolMotion(defaultStroke());
    const std::vector<glm::vec3> start = ballAroundTip(move.tools.front(), 100'000, 2.0f, 5);
    const uint64_t before = context.allocatedMemory();
    implOf(context).heapAvailableOverride = before + 1'000'000;
    EXPECT_TRUE(test::failsWith([&] { GpuMesh mesh(context, start); },
                                {"100000 vertices", "3200000 bytes", "1000000 bytes available"}));
    EXPECT_EQ(context.allocatedMemory(), before);
    // A buffer past what is left is refused by name too, before the run dispatches:
    // the statistics' 16 bytes a vertex after the mesh's 32.
    GpuSolver solver(context);
    {
        implOf(context).heapAvailableOverride.reset();
        GpuMesh mesh(context, start);
        implOf(context).heapAvailableOverride = context.allocatedMemory() + 1'000'000;
        EXPECT_TRUE(test::failsWith([&] { solver.run(mesh, move, SolverOptions{}, true); },
                                    {"per-vertex statistics", "1600000 bytes needed", "1000000 available"}));
        EXPECT_EQ(mesh.readPositions(), start) << "nothing was dispatched";
        solver.run(mesh, move, SolverOptions{}, false);
        EXPECT_NE(mesh.readPositions(), start) << "a run that fits still works";
    }
    implOf(context).heapAvailableOverride.reset();
    const GpuSolution solution = solveOnGpu(solver, move, start, SolverOptions{});
    EXPECT_EQ(solution.report.nonFinite, 0u);
    EXPECT_NO_THROW(context.throwOnValidationMessages());
}

// With the workgroup-count limit forced down to 8, every pass splits: the solve
// over a range into dispatches of 8 × 64 vertices, the list into slices, and the
// mark loops over more listed blocks than it has workgroups. Results equal the
// unsplit run's bit for bit, and synchronization validation stays silent.
TEST(DispatchSplits, ASmallLimitSplitsEveryPassAndChangesNothing) {
    SF_REQUIRE_VULKAN();
    test::TestRenderer renderer; // synchronization validation on, except under ASan
    Context split(renderer.adopted());
    Context whole(validated(BufferPlacement::Auto));
    implOf(split).maxWorkgroupsPerDispatch = 8;
    GpuSolver splitSolver(split);
    GpuSolver wholeSolver(whole);
    // The bi-Laplacian profile reaches about 4 radii (docs/field-shapes.md), so
    // over 8 radii most of 20,000 vertices and of their 40 blocks are culled.
    Stroke stroke = defaultStroke();
    for (ToolStroke& tool : stroke.tools) tool.profile = KelvinletProfile::BiLaplacian;
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> start = ballAroundTip(move.tools.front(), 20'000, 8.0f, 11);
    const std::vector<float> mask = halfMask(start.size());
    for (bool compaction : {true, false}) {
        splitSolver.setCompaction(compaction);
        wholeSolver.setCompaction(compaction);
        for (bool masked : {false, true}) {
            const std::span<const float> m = masked ? std::span<const float>(mask) : std::span<const float>();
            const GpuSolution a = solveOnGpu(splitSolver, move, start, SolverOptions{}, m);
            const GpuSolution b = solveOnGpu(wholeSolver, move, start, SolverOptions{}, m);
            EXPECT_EQ(a.positions, b.positions) << "compaction " << compaction << ", mask " << masked;
            EXPECT_EQ(a.report.evaluations, b.report.evaluations);
            EXPECT_EQ(a.report.culled, b.report.culled);
            EXPECT_GT(a.report.culled, 0u);
            EXPECT_LT(a.report.culled, start.size());
            // Without statistics the blocks pass lists only the blocks in reach.
            GpuMesh splitMesh(split, start, m);
            GpuMesh wholeMesh(whole, start, m);
            splitSolver.run(splitMesh, move, SolverOptions{}, false);
            wholeSolver.run(wholeMesh, move, SolverOptions{}, false);
            EXPECT_EQ(splitMesh.readPositions(), wholeMesh.readPositions());
            const std::vector<std::string> messages = renderer.takeMessages();
            EXPECT_TRUE(messages.empty()) << messages.size() << " message(s), the first: " << messages.front();
        }
    }
    EXPECT_NO_THROW(whole.throwOnValidationMessages());
}

} // namespace
} // namespace sculptflow
