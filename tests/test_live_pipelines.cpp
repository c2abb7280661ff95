// The pipelines a Context's LiveMoves share: built once, by a load-time prewarm or
// the first grab that needs them; counted at vkCreateComputePipelines.
#include <cstring>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

// A vkGetDeviceProcAddr that counts the compute pipelines created through it.
PFN_vkGetDeviceProcAddr gNextDeviceProcAddr = nullptr;
PFN_vkCreateComputePipelines gNextCreatePipelines = nullptr;
uint32_t gPipelinesCreated = 0;

VKAPI_ATTR VkResult VKAPI_CALL countingCreate(VkDevice device, VkPipelineCache cache, uint32_t count,
                                              const VkComputePipelineCreateInfo* infos,
                                              const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    gPipelinesCreated += count;
    return gNextCreatePipelines(device, cache, count, infos, allocator, pipelines);
}

PFN_vkVoidFunction VKAPI_CALL countingDeviceProcAddr(VkDevice device, const char* name) {
    PFN_vkVoidFunction forwarded = gNextDeviceProcAddr(device, name);
    if (std::strcmp(name, "vkCreateComputePipelines") == 0 && forwarded) {
        gNextCreatePipelines = reinterpret_cast<PFN_vkCreateComputePipelines>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&countingCreate);
    }
    return forwarded;
}

class LivePipelinesTest : public test::LiveMoveFixture {
protected:
    void SetUp() override {
        test::LiveMoveFixture::SetUp();
        if (IsSkipped()) return;
        AdoptedDevice adopted = renderer_->adopted();
        gNextDeviceProcAddr = vkGetDeviceProcAddr; // volk's, loaded for the renderer's device
        adopted.loader.getDeviceProcAddr = countingDeviceProcAddr;
        context_ = std::make_unique<Context>(adopted);
        gPipelinesCreated = 0;
    }

    // The tools a sculpting app offers: a Kelvinlet, the same mirrored, an affine flow.
    std::vector<Stroke> toolSets() const {
        std::vector<Stroke> sets(3, stroke_);
        const ToolMotion& tool = motion_.tools[0];
        sets[1].symmetry = {kSymmetryX, (tool.origin + glm::dvec3(0.4 * tool.outerRadius, 0.0, 0.0)) * stroke_.voxelSize};
        setToolKind(sets[2].tools[0], ToolKind::AffineFlow);
        return sets;
    }

    // A grab and one solved frame with `tools` on a fresh sphere: its positions.
    std::vector<glm::vec3> dragOnce(const Stroke& tools) {
        live_.reset();
        const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
        tris_ = test::triangles(sphere);
        upload(sphere.positions);
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris_));
        live_->begin(tools, firstPoses());
        EXPECT_TRUE(live_->update(lastPoses())) << live_->lastError();
        EXPECT_TRUE(frame().recorded);
        EXPECT_GT(maxDistance(positions(), sphere.positions), 1.0);
        live_->commit();
        return positions();
    }

    std::vector<uint32_t> tris_;
};

// After the prewarm, grabs with every tool set it named, on new LiveMoves, create
// no pipeline; a second prewarm has nothing left to build.
TEST_F(LivePipelinesTest, NoGrabCreatesAPipelineAfterThePrewarm) {
    const std::vector<Stroke> sets = toolSets();
    const uint32_t prewarmed = prewarmLiveMoves(*context_, sets);
    EXPECT_GT(prewarmed, 0u);
    EXPECT_GE(gPipelinesCreated, prewarmed) << "counted at vkCreateComputePipelines";
    gPipelinesCreated = 0;
    for (const Stroke& tools : sets) dragOnce(tools);
    EXPECT_EQ(gPipelinesCreated, 0u) << "pipelines created by LiveMoves and grabs after the prewarm";
    EXPECT_EQ(prewarmLiveMoves(*context_, sets), 0u);
    EXPECT_EQ(gPipelinesCreated, 0u);
}

// A pipeline build takes about a second on an H200. After one tool set's prewarm,
// another method costs one pipeline (the solve, which serves the range and the
// active list), and another profile or kind two (the solve and the mark).
TEST_F(LivePipelinesTest, AnotherMethodCostsOnePipelineAndAnotherToolSetTwo) {
    EXPECT_EQ(prewarmLiveMoves(*context_, std::span(&stroke_, 1)), 4u) << "solve, mark, scan, scatter";
    LiveMoveOptions dp45;
    dp45.solver.method = Method::Dp45;
    EXPECT_EQ(prewarmLiveMoves(*context_, std::span(&stroke_, 1), dp45), 1u);
    Stroke profile = stroke_;
    for (ToolStroke& tool : profile.tools)
        tool.profile = tool.profile == KelvinletProfile::Laplacian ? KelvinletProfile::TriScale
                                                                    : KelvinletProfile::Laplacian;
    Stroke flow = stroke_;
    for (ToolStroke& tool : flow.tools) setToolKind(tool, ToolKind::AffineFlow);
    EXPECT_EQ(prewarmLiveMoves(*context_, std::span(&profile, 1)), 2u);
    EXPECT_EQ(prewarmLiveMoves(*context_, std::span(&flow, 1)), 2u);
}

// Without a prewarm the first grab builds its pipelines, and the Context keeps
// them: a second LiveMove with the same tools builds none.
TEST_F(LivePipelinesTest, LiveMovesOfAContextShareTheirPipelines) {
    const std::vector<glm::vec3> first = dragOnce(stroke_);
    EXPECT_GT(gPipelinesCreated, 0u) << "the first grab without a prewarm builds pipelines";
    gPipelinesCreated = 0;
    const std::vector<glm::vec3> second = dragOnce(stroke_);
    EXPECT_EQ(gPipelinesCreated, 0u) << "the second LiveMove shares the first one's pipelines";
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(glm::vec3)), 0);
}

TEST_F(LivePipelinesTest, PrewarmRefusesBadToolsByName) {
    Stroke bad = stroke_;
    bad.tools[0].stiffness = -1.0;
    EXPECT_TRUE(test::failsWith([&] { prewarmLiveMoves(*context_, std::vector<Stroke>{bad}); }, {"stiffness"}));
}

} // namespace
} // namespace sculptflow
