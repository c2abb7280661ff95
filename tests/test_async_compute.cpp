// Async compute: record() on a queue family other than the draws' acquires the
// renderer's buffer ranges from the draws' family first and releases them back
// last. Lavapipe has one queue family, so the Context is shown a second,
// compute-only one through the entry points it loads, and the barriers it records
// are captured: they reach the real device without family indices (which it does
// not have), and such frames are dropped, never submitted.
#include <algorithm>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"

namespace sculptflow {
namespace {

struct CapturedBarrier {
    uint32_t from = 0, to = 0;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0, size = 0;
};

// The buffer barriers of each vkCmdPipelineBarrier(2) call, in recording order.
std::vector<std::vector<CapturedBarrier>> gBarrierCalls;
PFN_vkGetInstanceProcAddr gGetInstanceProcAddr = nullptr;
PFN_vkGetDeviceProcAddr gGetDeviceProcAddr = nullptr;
PFN_vkGetPhysicalDeviceQueueFamilyProperties gQueueFamilies = nullptr;
PFN_vkCmdPipelineBarrier gPipelineBarrier = nullptr;
PFN_vkCmdPipelineBarrier2 gPipelineBarrier2 = nullptr;

// The device's families and one more: compute and transfer only.
VKAPI_ATTR void VKAPI_CALL queueFamiliesPlusOne(VkPhysicalDevice device, uint32_t* count,
                                                VkQueueFamilyProperties* properties) {
    uint32_t real = 0;
    gQueueFamilies(device, &real, nullptr);
    if (!properties) {
        *count = real + 1;
        return;
    }
    std::vector<VkQueueFamilyProperties> families(real);
    gQueueFamilies(device, &real, families.data());
    families.push_back({VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 1, 64, {1, 1, 1}});
    *count = std::min<uint32_t>(*count, uint32_t(families.size()));
    std::copy_n(families.begin(), *count, properties);
}

// Captures the family indices, and records the barrier without them.
template <class Barrier>
std::vector<Barrier> capture(const Barrier* barriers, uint32_t count) {
    std::vector<Barrier> plain(barriers, barriers + count);
    std::vector<CapturedBarrier>& call = gBarrierCalls.emplace_back();
    for (Barrier& b : plain) {
        call.push_back({b.srcQueueFamilyIndex, b.dstQueueFamilyIndex, b.buffer, b.offset, b.size});
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    }
    return plain;
}

VKAPI_ATTR void VKAPI_CALL capturedBarrier(VkCommandBuffer commands, VkPipelineStageFlags srcStages,
                                           VkPipelineStageFlags dstStages, VkDependencyFlags flags,
                                           uint32_t memoryCount, const VkMemoryBarrier* memory, uint32_t bufferCount,
                                           const VkBufferMemoryBarrier* buffers, uint32_t imageCount,
                                           const VkImageMemoryBarrier* images) {
    const std::vector<VkBufferMemoryBarrier> plain = capture(buffers, bufferCount);
    gPipelineBarrier(commands, srcStages, dstStages, flags, memoryCount, memory, bufferCount, plain.data(), imageCount,
                     images);
}

VKAPI_ATTR void VKAPI_CALL capturedBarrier2(VkCommandBuffer commands, const VkDependencyInfo* dependency) {
    const std::vector<VkBufferMemoryBarrier2> plain =
        capture(dependency->pBufferMemoryBarriers, dependency->bufferMemoryBarrierCount);
    VkDependencyInfo copy = *dependency;
    copy.pBufferMemoryBarriers = plain.data();
    gPipelineBarrier2(commands, &copy);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL hookedGetDeviceProcAddr(VkDevice device, const char* name) {
    PFN_vkVoidFunction real = gGetDeviceProcAddr(device, name);
    if (std::strcmp(name, "vkCmdPipelineBarrier") == 0) {
        gPipelineBarrier = reinterpret_cast<PFN_vkCmdPipelineBarrier>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(capturedBarrier);
    }
    if (real && (std::strcmp(name, "vkCmdPipelineBarrier2") == 0 || std::strcmp(name, "vkCmdPipelineBarrier2KHR") == 0)) {
        gPipelineBarrier2 = reinterpret_cast<PFN_vkCmdPipelineBarrier2>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(capturedBarrier2);
    }
    return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL hookedGetInstanceProcAddr(VkInstance instance, const char* name) {
    PFN_vkVoidFunction real = gGetInstanceProcAddr(instance, name);
    if (std::strcmp(name, "vkGetPhysicalDeviceQueueFamilyProperties") == 0) {
        gQueueFamilies = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(queueFamiliesPlusOne);
    }
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
        gGetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(hookedGetDeviceProcAddr);
    }
    return real;
}

// The parameter: a renderer with synchronization2 (Vulkan 1.3) or a 1.2 one.
class AsyncComputeTest : public test::LiveMoveFixture, public testing::WithParamInterface<bool> {
protected:
    void SetUp() override {
        SF_REQUIRE_VULKAN();
        renderer_ = std::make_unique<test::TestRenderer>(test::TestRenderer::kSynchronizationValidation, GetParam());
        AdoptedDevice adopted = renderer_->adopted();
        gGetInstanceProcAddr = adopted.loader.getInstanceProcAddr;
        adopted.loader.getInstanceProcAddr = hookedGetInstanceProcAddr;
        context_ = std::make_unique<Context>(adopted);
        stroke_ = defaultStroke();
        motion_ = moveToolMotion(stroke_);
        uint32_t families = 0;
        gQueueFamilies(adopted.physicalDevice, &families, nullptr);
        drawFamily_ = families; // the one shown in addition
    }

    // A frame recorded with `sync` and dropped; the buffer barriers it recorded.
    std::vector<std::vector<CapturedBarrier>> droppedFrame(const RecordSync& sync, RecordReport& report) {
        gBarrierCalls.clear();
        VkCommandBuffer commands = renderer_->begin();
        report = live_->record(commands, sync);
        std::vector<std::vector<CapturedBarrier>> calls;
        for (auto& call : gBarrierCalls)
            if (!call.empty()) calls.push_back(call);
        return calls;
    }

    uint32_t drawFamily_ = 0;
};

// The acquire comes first and the release last, naming exactly the report's
// transfer ranges: the interleaved positions and normals as one (a barrier must
// not name a byte twice) and the statistics buffer.
TEST_P(AsyncComputeTest, RecordAcquiresFromTheDrawFamilyAndReleasesBackToIt) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    upload(sphere.positions);
    const test::TestRenderer::Buffer statistics =
        renderer_->createBuffer(16 * VkDeviceSize(count_), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    RendererMesh mesh = rendererMesh(tris);
    mesh.statistics = statistics.buffer;
    live_ = std::make_unique<LiveMove>(*context_, mesh);
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(lastPoses())) << live_->lastError();

    RecordSync async;
    async.drawQueueFamily = drawFamily_;
    RecordReport report;
    const auto calls = droppedFrame(async, report);
    ASSERT_TRUE(report.recorded) << live_->lastError();
    ASSERT_EQ(report.transferCount, 2u);
    EXPECT_EQ(report.transfers[0].buffer, vertices_.buffer);
    EXPECT_LE(report.transfers[0].offset, test::kMeshOffset);
    EXPECT_GE(report.transfers[0].offset + report.transfers[0].size, test::kMeshOffset + count_ * sizeof(test::Vertex) - 8);
    EXPECT_EQ(report.transfers[1].buffer, statistics.buffer);
    ASSERT_EQ(calls.size(), 2u) << "one acquire, one release";
    const uint32_t ours = context_->queueFamily();
    for (size_t half = 0; half < 2; ++half) {
        ASSERT_EQ(calls[half].size(), report.transferCount);
        for (size_t i = 0; i < calls[half].size(); ++i) {
            const CapturedBarrier& b = calls[half][i];
            EXPECT_EQ(b.from, half == 0 ? drawFamily_ : ours);
            EXPECT_EQ(b.to, half == 0 ? ours : drawFamily_);
            EXPECT_EQ(b.buffer, report.transfers[i].buffer);
            EXPECT_EQ(b.offset, report.transfers[i].offset);
            EXPECT_EQ(b.size, report.transfers[i].size);
        }
    }

    // The same family, or render-graph mode: no ownership transfer recorded, the
    // ranges still reported for the graph.
    for (RecordSync sync : {RecordSync{}, RecordSync{.renderGraph = true, .drawQueueFamily = drawFamily_}}) {
        EXPECT_TRUE(droppedFrame(sync, report).empty());
        EXPECT_EQ(report.transferCount, 2u);
    }
    // A family the device does not have: refused, nothing recorded.
    async.drawQueueFamily = drawFamily_ + 5;
    EXPECT_FALSE(droppedFrame(async, report).size());
    EXPECT_FALSE(report.recorded);
    EXPECT_NE(live_->lastError().find("drawQueueFamily"), std::string::npos) << live_->lastError();

    // The dropped frames left no trace: a submitted frame on one family draws the move.
    frame();
    EXPECT_LE(maxDistance(positions(), headless(motion_, sphere.positions)), 0.01);
    live_->commit();
}

INSTANTIATE_TEST_SUITE_P(Barriers, AsyncComputeTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& param) {
                             return param.param ? "Synchronization2" : "Vulkan12";
                         });

} // namespace
} // namespace sculptflow
