// record()'s synchronisation with the renderer: the default, scopes the renderer
// passes in synchronization2 terms (recorded with vkCmdPipelineBarrier2 where the
// device has it, as 1.2 barriers elsewhere), and the render-graph mode that places
// no edge barrier and lists the frame's accesses. Synchronization validation judges.
#include <cstring>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"

namespace sculptflow {
namespace {

using test::kMeshOffset;
using test::Vertex;

class FrameSyncTest : public test::LiveMoveFixture, public testing::WithParamInterface<bool> {
protected:
    // Where synchronization validation is off (the ASan build), a hazard goes unseen.
    static constexpr bool kHazardsReported = test::TestRenderer::kSynchronizationValidation;

    // The parameter: a renderer with synchronization2 (Vulkan 1.3) or a 1.2 one.
    void SetUp() override {
        SF_REQUIRE_VULKAN();
        renderer_ = std::make_unique<test::TestRenderer>(test::TestRenderer::kSynchronizationValidation, GetParam());
        context_ = std::make_unique<Context>(renderer_->adopted());
        stroke_ = defaultStroke();
        motion_ = moveToolMotion(stroke_);
        ASSERT_EQ(context_->synchronization2(), GetParam());
    }

    // A sphere on the tip, its LiveMove grabbed and updated to the last pose.
    void grab() {
        const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
        tris_ = test::triangles(sphere);
        start_ = sphere.positions;
        upload(sphere.positions);
        readback_ = renderer_->createBuffer(vertices_.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris_));
        live_->begin(stroke_, firstPoses());
        ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();
    }

    // The renderer's copy of the whole vertex buffer (a transfer read, as a
    // readback or a BVH build's input would be), recorded after the frame.
    void recordCopy(VkCommandBuffer commands) {
        const VkBufferCopy region{0, 0, vertices_.size};
        vkCmdCopyBuffer(commands, vertices_.buffer, readback_.buffer, 1, &region);
    }
    std::string copied() const { return std::string(static_cast<const char*>(readback_.mapped), readback_.size); }

    // One frame: record(sync), then the copy, maybe after the graph's own barrier.
    RecordReport frameWithCopy(const RecordSync& sync, bool graphBarrier) {
        VkCommandBuffer commands = renderer_->begin();
        const RecordReport report = live_->record(commands, sync);
        if (graphBarrier) {
            // What a render graph does with the list: from each write to its copy's read.
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            VkPipelineStageFlags stages = 0;
            for (const BufferAccess& access : report.accessList()) {
                stages |= VkPipelineStageFlags(access.stages);
                barrier.srcAccessMask |= VkAccessFlags(access.accesses);
            }
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(commands, stages, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                 nullptr);
        }
        recordCopy(commands);
        renderer_->submitAndWait();
        EXPECT_TRUE(live_->submitted(report.ticket)) << live_->lastError();
        return report;
    }

    std::vector<uint32_t> tris_;
    std::vector<glm::vec3> start_;
    test::TestRenderer::Buffer readback_;
};

// A transfer reader after the frame: with `after` naming it, synchronization
// validation is silent and the copy holds the moved vertices; with the default
// (vertex input) it reports the hazard, so the scope is what orders it.
TEST_P(FrameSyncTest, RendererScopesOrderItsReaders) {
    grab();
    RecordSync sync;
    sync.after = {VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
    EXPECT_TRUE(frameWithCopy(sync, false).recorded);
    EXPECT_TRUE(renderer_->takeMessages().empty()) << "with the transfer scope";
    EXPECT_EQ(copied(), bytes()) << "the copy must see the frame's writes";
    EXPECT_GT(maxDistance(positions(), start_), 1.0);

    ASSERT_TRUE(live_->update(posesAt(5)));
    EXPECT_TRUE(frameWithCopy({}, false).recorded);
    const std::vector<std::string> messages = renderer_->takeMessages();
    if (kHazardsReported) {
        EXPECT_FALSE(messages.empty()) << "the default scope does not cover a transfer reader: a hazard was expected";
    }
    live_->cancel();
    frame();
}

// Render-graph mode: the report lists the span's copy into the snapshot and the
// compute writes of positions and normals; with the graph's barrier from them the
// frame is silent and equal, bit for bit, to the default mode's; without it the
// hazard shows that record() placed none at its end.
TEST_P(FrameSyncTest, RenderGraphModeListsTheFramesAccesses) {
    grab();
    const std::string original = bytes();
    RecordSync graph;
    graph.renderGraph = true;
    const RecordReport report = frameWithCopy(graph, true);
    EXPECT_TRUE(renderer_->takeMessages().empty()) << "with the graph's barrier";
    const std::string graphBytes = bytes();
    EXPECT_EQ(copied(), graphBytes);

    // The span ends with the last normal; the positions' range with the last position.
    const VkDeviceSize lastVertex = kMeshOffset + VkDeviceSize(count_ - 1) * sizeof(Vertex);
    const VkDeviceSize spanEnd = lastVertex + offsetof(Vertex, uv), positionsEnd = lastVertex + 12;
    bool snapshotRead = false, positionsWritten = false;
    for (const BufferAccess& access : report.accessList()) {
        EXPECT_EQ(access.buffer, vertices_.buffer) << "only the renderer's buffers are listed";
        const VkDeviceSize end = access.offset + access.size;
        snapshotRead |= access.offset <= kMeshOffset && end >= spanEnd &&
                        access.stages == VK_PIPELINE_STAGE_2_TRANSFER_BIT &&
                        access.accesses == VK_ACCESS_2_TRANSFER_READ_BIT;
        positionsWritten |= access.offset <= kMeshOffset && end >= positionsEnd &&
                            access.stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT &&
                            (access.accesses & VK_ACCESS_2_SHADER_WRITE_BIT);
    }
    EXPECT_EQ(report.accessCount, 3u) << "the span's copy, the positions' and the normals' ranges";
    EXPECT_TRUE(snapshotRead) << "the grab frame copies the span into the snapshot";
    EXPECT_TRUE(positionsWritten) << "the solve writes the positions";

    // The same frame in the default mode, from the same start.
    live_->cancel();
    frame();
    EXPECT_EQ(differenceFrom(original), "");
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses()));
    frame();
    EXPECT_TRUE(bytes() == graphBytes) << "render-graph mode must draw the default mode's bytes";

    ASSERT_TRUE(live_->update(posesAt(5)));
    frameWithCopy(graph, false);
    const bool hazard = !renderer_->takeMessages().empty();
    if (kHazardsReported) {
        EXPECT_TRUE(hazard) << "no barrier at the end: the unordered copy is a hazard";
    }
    live_->cancel();
    frame();
}

INSTANTIATE_TEST_SUITE_P(Barriers, FrameSyncTest, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& param) {
                             return param.param ? "Synchronization2" : "Vulkan12";
                         });

} // namespace
} // namespace sculptflow
