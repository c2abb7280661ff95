// Restores and undo on the renderer's path: cancel() and the restores of chunks
// that leave the tools' reach write positions and normals only, and a committed
// move's pre-grab bytes can be copied into the renderer's undo buffer.
#include <cstring>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::ChunkedMesh;
using test::Vertex;
using test::kMeshOffset;

class LiveRestoreTest : public test::LiveMoveFixture {
protected:
    ChunkedMesh grid() const {
        const ToolMotion& tool = motion_.tools[0];
        return test::chunkGrid(tool, 4, 1, 30.0f * float(tool.outerRadius));
    }

    // The renderer rewrites every vertex's interleaved uv (its colour, say) between
    // frames, as the header allows during a move: a pattern that changes each time.
    void paintUvs(float frame) {
        auto* v = reinterpret_cast<Vertex*>(static_cast<char*>(vertices_.mapped) + kMeshOffset);
        for (uint32_t i = 0; i < count_; ++i) v[i].uv = glm::vec2(1000.0f * frame + float(i), -frame);
    }

    // `original` with the uvs the renderer wrote last: what a full restore must leave.
    std::string originalWithTodaysUvs(const std::string& original) const {
        std::string expected = original;
        for (uint32_t i = 0; i < count_; ++i) {
            const size_t at = kMeshOffset + size_t(i) * sizeof(Vertex) + offsetof(Vertex, uv);
            std::memcpy(expected.data() + at, static_cast<const char*>(vertices_.mapped) + at, sizeof(glm::vec2));
        }
        return expected;
    }
};

// Move mode's return to the grab pose restores every chunk it moved, and cancel()
// restores the rest: positions and normals bit for bit, the uvs as the renderer
// last wrote them.
TEST_F(LiveRestoreTest, RestoresWritePositionsAndNormalsOnly) {
    const ChunkedMesh chunked = grid();
    upload(chunked.positions);
    const std::string original = bytes();
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(chunked.triangles, chunked.chunks));
    live_->begin(stroke_, firstPoses());
    float paint = 1.0f;
    for (size_t k : {size_t(2), size_t(-1)}) {
        ASSERT_TRUE(live_->update(posesAt(k))) << live_->lastError();
        paintUvs(paint++);
        EXPECT_GT(frame().chunksSolved, 0u);
    }
    Pose still = firstPoses()[0];
    still.time += 1e-3;
    ASSERT_TRUE(live_->update(std::vector<Pose>{still}));
    paintUvs(paint++);
    const RecordReport back = frame();
    EXPECT_GT(back.chunksRestored, 0u);
    EXPECT_EQ(differenceFrom(originalWithTodaysUvs(original)), "") << "after the restores of chunks out of reach";

    ASSERT_TRUE(live_->update(lastPoses()));
    paintUvs(paint++);
    frame();
    live_->cancel();
    paintUvs(paint++);
    EXPECT_GT(frame().chunksRestored, 0u);
    EXPECT_EQ(differenceFrom(originalWithTodaysUvs(original)), "") << "after cancel()";
}

// Positions and normals in buffers of their own, each with a fourth float the
// renderer owns (stride 16): the restores leave those floats alone too.
TEST_F(LiveRestoreTest, RestoresLeaveTheFourthFloatOfSeparateStreams) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    count_ = uint32_t(sphere.positions.size());
    const VkDeviceSize size = 16 * VkDeviceSize(count_) + 8;
    test::TestRenderer::Buffer positionsBuffer = renderer_->createBuffer(size, test::TestRenderer::kVertexUsage);
    test::TestRenderer::Buffer normalsBuffer = renderer_->createBuffer(size, test::TestRenderer::kVertexUsage);
    auto floats = [](const test::TestRenderer::Buffer& b) { return reinterpret_cast<float*>(static_cast<char*>(b.mapped) + 8); };
    std::memset(normalsBuffer.mapped, 0, size);
    for (uint32_t i = 0; i < count_; ++i) std::memcpy(floats(positionsBuffer) + 4 * i, &sphere.positions[i], 12);
    auto paintW = [&](float value) {
        for (uint32_t i = 0; i < count_; ++i) floats(positionsBuffer)[4 * i + 3] = floats(normalsBuffer)[4 * i + 3] = value + float(i);
    };
    paintW(0.0f);
    auto copyOf = [](const test::TestRenderer::Buffer& b) { return std::string(static_cast<const char*>(b.mapped), b.size); };
    const std::string positionsBefore = copyOf(positionsBuffer), normalsBefore = copyOf(normalsBuffer);

    RendererMesh mesh;
    mesh.vertexCount = count_;
    mesh.positions = {positionsBuffer.buffer, 8, 16};
    mesh.normals = {normalsBuffer.buffer, 8, 16};
    mesh.triangles = tris;
    live_ = std::make_unique<LiveMove>(*context_, mesh);
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    auto submit = [&] {
        const RecordReport report = live_->record(renderer_->begin());
        renderer_->submitAndWait();
        EXPECT_TRUE(live_->submitted(report.ticket)) << live_->lastError();
        return report;
    };
    submit();
    EXPECT_NE(copyOf(positionsBuffer), positionsBefore) << "the move must move the sphere";
    EXPECT_NE(copyOf(normalsBuffer), normalsBefore) << "the normals must be recomputed";
    paintW(7.0f);
    live_->cancel();
    EXPECT_EQ(submit().chunksRestored, 1u);
    const std::string positionsAfter = copyOf(positionsBuffer), normalsAfter = copyOf(normalsBuffer);
    for (uint32_t i = 0; i < count_; ++i) {
        const size_t at = 8 + 16 * size_t(i);
        ASSERT_EQ(positionsAfter.compare(at, 12, positionsBefore, at, 12), 0) << "position of vertex " << i;
        ASSERT_EQ(normalsAfter.compare(at, 12, normalsBefore, at, 12), 0) << "normal of vertex " << i;
        ASSERT_EQ(floats(positionsBuffer)[4 * i + 3], 7.0f + float(i)) << "the renderer's float of vertex " << i;
        ASSERT_EQ(floats(normalsBuffer)[4 * i + 3], 7.0f + float(i)) << "the renderer's float of vertex " << i;
    }
}

// After commit() and the move's last frame: the chunks it changed, and their
// pre-grab positions and normals copied into the renderer's undo buffer.
TEST_F(LiveRestoreTest, UndoCopyHoldsTheChangedChunksPreGrabBytes) {
    const ChunkedMesh chunked = grid();
    upload(chunked.positions);
    const std::string original = bytes();
    test::TestRenderer::Buffer undo = renderer_->createBuffer(vertices_.size, test::TestRenderer::kVertexUsage);
    std::memset(undo.mapped, 0x5A, undo.size);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(chunked.triangles, chunked.chunks));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(2)));
    const RecordReport moved = frame();
    EXPECT_TRUE(live_->changedChunks().empty()) << "no committed move yet";
    EXPECT_FALSE(live_->recordUndoCopy(renderer_->begin(), undo.buffer));
    EXPECT_NE(live_->lastError().find("recordUndoCopy"), std::string::npos) << live_->lastError();
    live_->commit();
    const std::vector<glm::vec3> committed = positions();

    // Only the chunks the move reached, and all of them.
    const std::span<const uint32_t> changed = live_->changedChunks();
    ASSERT_EQ(changed.size(), moved.chunksSolved);
    std::vector<uint8_t> isChanged(chunked.chunks.size(), 0);
    for (uint32_t c : changed) isChanged[c] = 1;
    size_t movedVertices = 0;
    for (size_t c = 0; c < chunked.chunks.size(); ++c) {
        const MeshChunk& chunk = chunked.chunks[c];
        bool differs = false;
        for (uint32_t v = chunk.firstVertex; v < chunk.firstVertex + chunk.vertexCount; ++v)
            differs |= committed[v] != chunked.positions[v];
        if (differs) {
            EXPECT_TRUE(isChanged[c]) << "chunk " << c << " moved but is not listed";
        }
        movedVertices += differs ? chunk.vertexCount : 0;
    }
    EXPECT_GT(movedVertices, 0u);

    VkCommandBuffer commands = renderer_->begin();
    ASSERT_TRUE(live_->recordUndoCopy(commands, undo.buffer)) << live_->lastError();
    renderer_->submitAndWait();
    const char* undoBytes = static_cast<const char*>(undo.mapped);
    for (size_t c = 0; c < chunked.chunks.size(); ++c) {
        const MeshChunk& chunk = chunked.chunks[c];
        for (uint32_t v = chunk.firstVertex; v < chunk.firstVertex + chunk.vertexCount; ++v) {
            const size_t at = kMeshOffset + size_t(v) * sizeof(Vertex);
            const size_t bytesOfAttributes = offsetof(Vertex, uv); // position and normal
            if (isChanged[c]) {
                ASSERT_EQ(std::memcmp(undoBytes + at, original.data() + at, bytesOfAttributes), 0)
                    << "vertex " << v << " of changed chunk " << c;
            } else {
                ASSERT_EQ(undoBytes[at], char(0x5A)) << "vertex " << v << " of unchanged chunk " << c << " was written";
            }
        }
    }

    live_->begin(stroke_, firstPoses());
    EXPECT_TRUE(live_->changedChunks().empty()) << "the next grab closes the undo window";
    live_->cancel();
}

} // namespace
} // namespace sculptflow
