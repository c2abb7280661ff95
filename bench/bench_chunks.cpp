// The renderer path: the GPU time of one recorded frame for a mesh of 64 chunks
// with the tool touching 2, against a mesh of those 2 chunks alone (issue target:
// within 1.5×), and for a 1M-vertex sculpt with 10% moving; the grab frame (its
// snapshot copies and first solve) on a 10M-vertex sculpt with 2 chunks in reach
// against all of them; and the first grab's time with a cold and a warm pipeline
// cache and after a prewarm at load. Built-in stroke, bs32, tol 0.1; each chunk an
// icosphere of 10,242 vertices with normals. Manual time = the frame's GPU
// timestamps (the first grab: wall clock); counters: chunks_solved, vertices_solved.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include <sculptflow/context.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/live_move.hpp>
#include "host/context_impl.hpp"
#include "host/gpu_buffer.hpp"
#include "host/vulkan_check.hpp"
#include "gpu_bench_main.hpp"

namespace sculptflow {
namespace {

constexpr int kSubdivisions = 5; // 10,242 vertices a chunk

struct ChunkedMesh {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;
    std::vector<MeshChunk> chunks;
};

// `touched` chunks sit at the tool tip, 1.1 radii apart on a 4 × 4 grid stacked
// upwards; the others lie on a grid 150 radii away, beyond the Kelvinlet's reach
// for tol 0.1.
ChunkedMesh chunkedMesh(const ToolMotion& tool, int total, int touched) {
    const float eps = float(tool.outerRadius);
    const glm::vec3 tip(tool.origin);
    ChunkedMesh mesh;
    auto add = [&](const glm::vec3& center) {
        Mesh ball = icosphere(kSubdivisions, center, 0.5f * eps);
        MeshChunk chunk{uint32_t(mesh.positions.size()), uint32_t(ball.positions.size()),
                        {center - glm::vec3(0.5f * eps), center + glm::vec3(0.5f * eps)}};
        for (uint32_t i : ball.faceIndices) mesh.triangles.push_back(chunk.firstVertex + i);
        mesh.positions.insert(mesh.positions.end(), ball.positions.begin(), ball.positions.end());
        mesh.chunks.push_back(chunk);
    };
    for (int i = 0; i < touched; ++i)
        add(tip + 1.1f * eps * glm::vec3(float(i % 4), float(i / 4 % 4), float(i / 16)));
    for (int i = touched; i < total; ++i)
        add(tip + 150.0f * eps * glm::vec3(1 + i % 5, 1 + i / 5 % 5, 1 + i / 25));
    return mesh;
}

// A headless context standing in for the renderer: a vertex buffer, a command
// buffer, a fence.
class Frame {
public:
    Frame(Context& context, const ChunkedMesh& mesh)
        : context_(context),
          vertices_(context, mesh.positions.size() * 24,
                    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    "the vertex buffer") {
        for (size_t i = 0; i < mesh.positions.size(); ++i)
            std::memcpy(static_cast<char*>(vertices_.mapped()) + 24 * i, &mesh.positions[i], 12);
        RendererMesh rendererMesh;
        rendererMesh.vertexCount = uint32_t(mesh.positions.size());
        rendererMesh.positions = {vertices_.handle(), 0, 24};
        rendererMesh.normals = {vertices_.handle(), 12, 24};
        rendererMesh.triangles = mesh.triangles;
        rendererMesh.chunks = mesh.chunks;
        live_ = std::make_unique<LiveMove>(context, rendererMesh);
        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = context.queueFamily();
        SF_VK_CHECK(vk_.vkCreateCommandPool(context.device(), &poolInfo, nullptr, &pool_));
        VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        info.commandPool = pool_;
        info.commandBufferCount = 1;
        SF_VK_CHECK(vk_.vkAllocateCommandBuffers(context.device(), &info, &commands_));
        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_VK_CHECK(vk_.vkCreateFence(context.device(), &fenceInfo, nullptr, &fence_));
    }
    ~Frame() {
        vk_.vkDestroyFence(context_.device(), fence_, nullptr);
        vk_.vkDestroyCommandPool(context_.device(), pool_, nullptr);
    }

    LiveMove& live() { return *live_; }

    // Records and runs one frame; its GPU milliseconds.
    double run(RecordReport& report) {
        SF_VK_CHECK(vk_.vkResetCommandBuffer(commands_, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        SF_VK_CHECK(vk_.vkBeginCommandBuffer(commands_, &begin));
        report = live_->record(commands_);
        SF_VK_CHECK(vk_.vkEndCommandBuffer(commands_));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands_;
        SF_VK_CHECK(vk_.vkResetFences(context_.device(), 1, &fence_));
        SF_VK_CHECK(vk_.vkQueueSubmit(context_.queue(), 1, &submit, fence_));
        live_->submitted(report.ticket);
        SF_VK_CHECK(vk_.vkWaitForFences(context_.device(), 1, &fence_, VK_TRUE, UINT64_MAX));
        return live_->gpuMilliseconds();
    }

private:
    Context& context_;
    const VulkanFunctions& vk_ = vkFunctions(context_);
    GpuBuffer vertices_;
    std::unique_ptr<LiveMove> live_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

void chunkFrame(benchmark::State& state, int total, int touched) {
    static Context context;
    const Stroke stroke = defaultStroke();
    const ToolMotion tool = moveToolMotion(stroke).tools[0];
    Frame frame(context, chunkedMesh(tool, total, touched));
    const std::vector<Pose> first{stroke.tools[0].poses.front()}, last{stroke.tools[0].poses.back()};
    frame.live().begin(stroke, first);
    RecordReport report;
    frame.live().update(last);
    frame.run(report); // the snapshot and the pipeline's first (JIT-compiling) run
    for (auto _ : state) {
        frame.live().update(last);
        state.SetIterationTime(frame.run(report) * 1e-3);
    }
    frame.live().commit();
    state.counters["chunks_total"] = report.chunksTotal;
    state.counters["chunks_solved"] = report.chunksSolved;
    state.counters["vertices_solved"] = double(report.verticesSolved);
}

BENCHMARK_CAPTURE(chunkFrame, 2_chunks_alone, 2, 2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(chunkFrame, 64_chunks_2_touched, 64, 2)->UseManualTime()->Unit(benchmark::kMillisecond);
// The live frame: a sculpt of about 1M vertices (98 chunks) with 10% moving.
BENCHMARK_CAPTURE(chunkFrame, 1M_vertices_10pct_moving, 98, 10)->UseManualTime()->Unit(benchmark::kMillisecond);

// The grab frame on a 10M-vertex sculpt (977 chunks; fewer where the device's
// maxStorageBufferRange cannot bind 24 bytes a vertex, as on lavapipe; the
// vertices counter says): each chunk's bytes are copied aside in the frame that
// first solves it, so its cost follows the chunks in reach. Each iteration grabs
// afresh (begin, one update, the frame timed), then cancels, restoring the chunks.
void grabFrame(benchmark::State& state, bool allInReach) {
    static Context context;
    const VkDeviceSize chunkBytes = 24 * VkDeviceSize(icosphere(kSubdivisions, glm::vec3(0.0f), 1.0f).positions.size());
    const int total = int(std::min<VkDeviceSize>(977, context.properties().limits.maxStorageBufferRange / chunkBytes));
    const Stroke stroke = defaultStroke();
    const ToolMotion tool = moveToolMotion(stroke).tools[0];
    Frame frame(context, chunkedMesh(tool, total, allInReach ? total : 2));
    const std::vector<Pose> first{stroke.tools[0].poses.front()}, last{stroke.tools[0].poses.back()};
    RecordReport report;
    auto grab = [&] {
        frame.live().begin(stroke, first);
        frame.live().update(last);
        const double ms = frame.run(report);
        frame.live().cancel();
        RecordReport restore;
        frame.run(restore);
        return ms;
    };
    grab(); // the pipeline's first (JIT-compiling) run
    for (auto _ : state) state.SetIterationTime(grab() * 1e-3);
    state.counters["vertices"] = double(total) * double(chunkBytes / 24);
    state.counters["chunks_total"] = report.chunksTotal;
    state.counters["chunks_snapshotted"] = report.chunksSnapshotted;
    state.counters["vertices_solved"] = double(report.verticesSolved);
}

BENCHMARK_CAPTURE(grabFrame, 10M_vertices_2_chunks_in_reach, false)
    ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(grabFrame, 10M_vertices_all_chunks_in_reach, true)
    ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

// The first grab: from begin() (which builds every pipeline the drag can need
// that the Context lacks) to the first frame's positions, wall clock, on a fresh
// context whose pipeline cache file is missing (cold: every pipeline compiles),
// written by the iteration before (warm), or missing but with the pipelines
// prewarmed at load (prewarmLiveMoves, not timed). The context's creation is not timed.
enum class GrabStart { ColdCache, WarmCache, Prewarmed };

void firstGrab(benchmark::State& state, GrabStart start) {
    const std::filesystem::path cache =
        std::filesystem::temp_directory_path() / ("sculptflow-first-grab-" + std::to_string(::getpid()) + ".bin");
    const Stroke stroke = defaultStroke();
    const ToolMotion tool = moveToolMotion(stroke).tools[0];
    const ChunkedMesh mesh = chunkedMesh(tool, 1, 1);
    const std::vector<Pose> first{stroke.tools[0].poses.front()}, last{stroke.tools[0].poses.back()};
    std::filesystem::remove(cache);
    if (start == GrabStart::WarmCache) { // the run that writes the cache
        ContextOptions options;
        options.hooks.pipelineCacheFile = cache;
        Context context(options);
        Frame frame(context, mesh);
        frame.live().begin(stroke, first);
    }
    for (auto _ : state) {
        if (start != GrabStart::WarmCache) std::filesystem::remove(cache);
        ContextOptions options;
        options.hooks.pipelineCacheFile = cache;
        Context context(options);
        if (start == GrabStart::Prewarmed) prewarmLiveMoves(context, {&stroke, 1});
        Frame frame(context, mesh);
        RecordReport report;
        const auto begin = std::chrono::steady_clock::now();
        frame.live().begin(stroke, first);
        frame.live().update(last);
        frame.run(report);
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        frame.live().commit();
    }
    std::filesystem::remove(cache);
}

BENCHMARK_CAPTURE(firstGrab, cold_pipeline_cache, GrabStart::ColdCache)
    ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(firstGrab, warm_pipeline_cache, GrabStart::WarmCache)
    ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(firstGrab, prewarmed, GrabStart::Prewarmed)
    ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    using namespace sculptflow;
    return runGpuBenchmarks(
        argc, argv, [] { return Context(ContextOptions{.validation = false}).deviceName(); }, [] {});
}
