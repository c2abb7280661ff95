// The tests' renderer-side setup for LiveMove: an interleaved vertex buffer in
// the test renderer's memory, frames recorded into its command buffer (submitted,
// or recorded and dropped), the headless path for comparison, and test meshes.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/live_move.hpp>
#include "renderer_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow::test {

// An interleaved vertex the way a renderer might lay it out: position, normal, uv.
struct Vertex {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec2 uv;
};
static_assert(sizeof(Vertex) == 32);
constexpr VkDeviceSize kMeshOffset = 52; // deliberately not a multiple of 16

inline std::vector<uint32_t> triangles(const Mesh& mesh) {
    for (uint32_t size : mesh.faceSizes) EXPECT_EQ(size, 3u);
    return mesh.faceIndices;
}

class LiveMoveFixture : public testing::Test {
protected:
    void SetUp() override {
        SF_REQUIRE_VULKAN();
        renderer_ = std::make_unique<test::TestRenderer>();
        context_ = std::make_unique<Context>(renderer_->adopted());
        stroke_ = defaultStroke();
        motion_ = moveToolMotion(stroke_);
    }
    void TearDown() override {
        live_.reset();
        solver_.reset();
        context_.reset();
        if (!renderer_) return; // skipped: no Vulkan device
        std::vector<std::string> messages = renderer_->takeMessages();
        renderer_.reset();
        for (const std::string& m : messages) ADD_FAILURE() << "Vulkan validation: " << m;
    }

    // The renderer's vertex buffer holding `positions` interleaved, with the uv as a
    // byte pattern that nothing may change.
    void upload(const std::vector<glm::vec3>& positions) {
        const VkDeviceSize size = kMeshOffset + positions.size() * sizeof(Vertex) + 20;
        vertices_ = renderer_->createBuffer(size, test::TestRenderer::kVertexUsage);
        std::memset(vertices_.mapped, 0xA5, size);
        auto* v = reinterpret_cast<Vertex*>(static_cast<char*>(vertices_.mapped) + kMeshOffset);
        for (size_t i = 0; i < positions.size(); ++i)
            v[i] = {positions[i], glm::vec3(0.0f), glm::vec2(float(i), -float(i))};
        count_ = uint32_t(positions.size());
    }

    RendererMesh rendererMesh(std::span<const uint32_t> tris = {}, std::span<const MeshChunk> chunks = {},
                              bool normals = true) const {
        RendererMesh mesh;
        mesh.vertexCount = count_;
        mesh.positions = {vertices_.buffer, kMeshOffset, sizeof(Vertex)};
        if (normals) mesh.normals = {vertices_.buffer, kMeshOffset + 12, sizeof(Vertex)};
        mesh.triangles = tris;
        mesh.chunks = chunks;
        return mesh;
    }

    std::string bytes() const { return std::string(static_cast<const char*>(vertices_.mapped), vertices_.size); }

    // "" when the buffer holds `expected`, else where it first differs.
    std::string differenceFrom(const std::string& expected) const {
        const std::string now = bytes();
        const auto mismatch = std::mismatch(now.begin(), now.end(), expected.begin());
        if (mismatch.first == now.end()) return "";
        const size_t at = size_t(mismatch.first - now.begin());
        return "first differing byte " + std::to_string(at) + " (vertex " +
               std::to_string((int64_t(at) - int64_t(kMeshOffset)) / int64_t(sizeof(Vertex))) + ")";
    }

    std::vector<glm::vec3> positions() const {
        std::vector<glm::vec3> out(count_);
        auto* v = reinterpret_cast<const Vertex*>(static_cast<const char*>(vertices_.mapped) + kMeshOffset);
        for (uint32_t i = 0; i < count_; ++i) out[i] = v[i].position;
        return out;
    }
    std::vector<glm::vec3> normals() const {
        std::vector<glm::vec3> out(count_);
        auto* v = reinterpret_cast<const Vertex*>(static_cast<const char*>(vertices_.mapped) + kMeshOffset);
        for (uint32_t i = 0; i < count_; ++i) out[i] = v[i].normal;
        return out;
    }

    std::vector<Pose> posesAt(size_t index) const {
        std::vector<Pose> poses;
        for (const ToolStroke& tool : stroke_.tools) poses.push_back(tool.poses[std::min(index, tool.poses.size() - 1)]);
        return poses;
    }
    std::vector<Pose> firstPoses() const { return posesAt(0); }
    std::vector<Pose> lastPoses() const { return posesAt(size_t(-1)); }

    // One frame: record the pending work and a draw that captures what it reads,
    // submit it and tell the LiveMove so.
    RecordReport frame() {
        VkCommandBuffer commands = renderer_->begin();
        RecordReport report = live_->record(commands);
        renderer_->recordCapture(commands, vertices_.buffer, kMeshOffset, sizeof(Vertex), count_);
        renderer_->submitAndWait();
        EXPECT_TRUE(live_->submitted(report.ticket)) << live_->lastError();
        return report;
    }
    // A frame recorded and never submitted (OpenXR's shouldRender = false, a
    // swapchain out of date): the next frame() resets its command buffer.
    RecordReport droppedFrame() {
        VkCommandBuffer commands = renderer_->begin();
        RecordReport report = live_->record(commands);
        renderer_->recordCapture(commands, vertices_.buffer, kMeshOffset, sizeof(Vertex), count_);
        return report;
    }

    // The headless path on the same device: upload, run, read back.
    std::vector<glm::vec3> headless(const Move& move, const std::vector<glm::vec3>& start) {
        if (!solver_) solver_ = std::make_unique<GpuSolver>(*context_);
        return solveOnGpu(*solver_, move, start, SolverOptions{}).positions;
    }

    static double maxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
        double worst = 0.0;
        for (size_t i = 0; i < a.size(); ++i)
            worst = std::max(worst, glm::length(glm::dvec3(a[i]) - glm::dvec3(b[i])));
        return worst;
    }

    std::unique_ptr<test::TestRenderer> renderer_;
    std::unique_ptr<Context> context_;
    std::unique_ptr<GpuSolver> solver_;
    std::unique_ptr<LiveMove> live_;
    test::TestRenderer::Buffer vertices_;
    uint32_t count_ = 0;
    Stroke stroke_;
    Move motion_;
};

// A sphere around the tool tip, in voxels.
inline Mesh tipSphere(const ToolMotion& tool, int subdivisions, float radiusFactor) {
    return icosphere(subdivisions, glm::vec3(tool.origin), radiusFactor * float(tool.outerRadius));
}

// 64 chunks: 4 × 4 × 4 small spheres on a grid, the tool touching the corner ones.
struct ChunkedMesh {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;
    std::vector<MeshChunk> chunks;
};

inline ChunkedMesh chunkGrid(const ToolMotion& tool, int perAxis, int subdivisions, float spacing) {
    ChunkedMesh out;
    const float radius = 0.45f * spacing;
    for (int z = 0; z < perAxis; ++z)
        for (int y = 0; y < perAxis; ++y)
            for (int x = 0; x < perAxis; ++x) {
                // Chunk (0,0,0) sits on the tip; the rest march away from it.
                const glm::vec3 center = glm::vec3(tool.origin) + spacing * glm::vec3(x, y, z);
                Mesh ball = icosphere(subdivisions, center, radius);
                MeshChunk chunk;
                chunk.firstVertex = uint32_t(out.positions.size());
                chunk.vertexCount = uint32_t(ball.positions.size());
                chunk.bounds = {center - glm::vec3(radius), center + glm::vec3(radius)};
                for (uint32_t i : ball.faceIndices) out.triangles.push_back(chunk.firstVertex + i);
                out.positions.insert(out.positions.end(), ball.positions.begin(), ball.positions.end());
                out.chunks.push_back(chunk);
            }
    return out;
}

} // namespace sculptflow::test
