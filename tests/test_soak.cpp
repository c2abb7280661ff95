// Soak: a recorded stroke replayed pose by pose through the renderer's per-frame
// path (begin, update × N, commit), forwards and back, for many frames. Memory
// must stay flat, the validation layer silent, and the
// final shape equal to the same moves solved one by one on the headless path.
//
// 10,000 frames (about 6 s on lavapipe); SCULPTFLOW_SOAK_FRAMES sets another count.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>
#if defined(__linux__)
#include <unistd.h>
#endif

#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/live_move.hpp>
#include "renderer_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

// ASan keeps freed memory in quarantine, so resident memory says nothing there;
// LeakSanitizer checks for leaks at exit instead. Other systems than Linux: not read.
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
constexpr bool kResidentMemoryIsMeaningful = true;
#else
constexpr bool kResidentMemoryIsMeaningful = false;
#endif

// Resident memory of this process, in bytes (Linux's /proc/self/statm; 0 elsewhere).
size_t residentBytes() {
#if defined(__linux__)
    std::ifstream statm("/proc/self/statm");
    size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * size_t(sysconf(_SC_PAGESIZE));
#else
    return 0;
#endif
}

int soakFrames() {
    const char* env = std::getenv("SCULPTFLOW_SOAK_FRAMES");
    return env ? std::max(1, std::atoi(env)) : 10000;
}

// The stroke, or its reverse with time running forwards again.
Stroke reversed(const Stroke& stroke) {
    Stroke back = stroke;
    std::vector<Pose>& poses = back.tools[0].poses;
    std::reverse(poses.begin(), poses.end());
    for (size_t i = 0; i < poses.size(); ++i) poses[i].time = stroke.tools[0].poses[i].time;
    return back;
}

TEST(Soak, ReplayedStrokeKeepsMemoryFlatAndLandsOnTheHeadlessShape) {
    SF_REQUIRE_VULKAN();
    Stroke stroke = defaultStroke();
    std::string source = "the built-in stroke";
    if (auto recording = test::recordedStroke("test0_righthandstroke.bin")) {
        stroke = readStroke(*recording, {.kindOverride = ToolKind::Kelvinlet});
        source = recording->filename().string();
    }
    const int frames = soakFrames();

    // Core validation only: synchronization validation's own history grows each
    // frame (see TestRenderer); the LiveMove tests run with it on.
    test::TestRenderer renderer(false);
    Context context(renderer.adopted());
    const ToolMotion first = moveToolMotion(stroke).tools[0];
    const Mesh sphere = icosphere(3, glm::vec3(first.origin), 0.8f * float(first.outerRadius));
    const uint32_t count = uint32_t(sphere.positions.size());
    test::TestRenderer::Buffer vertices = renderer.createBuffer(count * 24, test::TestRenderer::kVertexUsage);
    for (uint32_t i = 0; i < count; ++i)
        std::memcpy(static_cast<char*>(vertices.mapped) + 24 * i, &sphere.positions[i], 12);
    RendererMesh mesh;
    mesh.vertexCount = count;
    mesh.positions = {vertices.buffer, 0, 24};
    mesh.normals = {vertices.buffer, 12, 24};
    mesh.triangles = sphere.faceIndices;
    LiveMove live(context, mesh);
    GpuSolver headless(context);

    std::vector<glm::vec3> expected = sphere.positions;
    size_t residentAtStart = 0;
    const uint64_t gpuAtStart = context.allocatedMemory();
    int frame = 0, moves = 0, framesAtStart = 0;
    while (frame < frames) {
        const Stroke move = moves % 2 == 0 ? stroke : reversed(stroke);
        const std::vector<Pose>& poses = move.tools[0].poses;
        live.begin(move, std::vector<Pose>{poses.front()});
        size_t k = 1;
        for (; k < poses.size() && frame < frames; ++k, ++frame) {
            ASSERT_TRUE(live.update(std::vector<Pose>{poses[k]})) << live.lastError();
            VkCommandBuffer commands = renderer.begin();
            const RecordReport report = live.record(commands);
            ASSERT_TRUE(report.recorded);
            renderer.submitAndWait();
            ASSERT_TRUE(live.submitted(report.ticket)) << live.lastError();
        }
        live.commit();
        Move whole;
        whole.tools.push_back(toolMotion(move.tools[0], poses.front(), poses[k - 1], move.voxelSize));
        expected = solveOnGpu(headless, whole, expected, SolverOptions{}).positions;
        ++moves;
        // The baseline after one whole move: pipelines built and JIT-compiled, both paths warm.
        if (moves == 1) {
            residentAtStart = residentBytes();
            framesAtStart = frame;
        }
        const std::vector<std::string> messages = renderer.takeMessages();
        ASSERT_TRUE(messages.empty()) << "frame " << frame << ": " << messages.front();
    }
    const size_t residentAtEnd = residentBytes();

    double worst = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        glm::vec3 p;
        std::memcpy(&p, static_cast<const char*>(vertices.mapped) + 24 * i, 12);
        worst = std::max(worst, glm::length(glm::dvec3(p) - glm::dvec3(expected[i])));
    }
    std::printf("[ soak     ] %s, %d frames in %d moves, %u vertices: resident memory %.1f MiB at frame %d, "
                "%.1f MiB at frame %d; GPU memory %llu → %llu bytes; final shape vs headless %.2g voxel\n",
                source.c_str(), frame, moves, count, residentAtStart / 1048576.0, framesAtStart,
                residentAtEnd / 1048576.0, frame,
                (unsigned long long)gpuAtStart, (unsigned long long)context.allocatedMemory(), worst);
    EXPECT_LE(worst, 0.01) << "voxels between the replayed shape and the headless moves";
    EXPECT_EQ(context.allocatedMemory(), gpuAtStart) << "GPU memory must not grow per frame";
    if (kResidentMemoryIsMeaningful) {
        EXPECT_LE(double(residentAtEnd), double(residentAtStart) + 8.0 * 1048576.0) << "resident memory grew";
    }
}

} // namespace
} // namespace sculptflow
