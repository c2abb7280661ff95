// The renderer's frame loop around LiveMove: frames recorded and dropped leave no
// trace, tickets that are not the latest are refused, a move is over only once its
// last frame is submitted.
#include <cstring>
#include <optional>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::chunkGrid;
using test::ChunkedMesh;

// A renderer's frames in flight: a ring of command buffers, each with a fence
// waited for only when its slot comes round again.
class FrameRing {
public:
    FrameRing(test::TestRenderer& renderer, uint32_t depth) : renderer_(renderer), slots_(depth) {
        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = renderer.queueFamily();
        SF_TEST_VK(vkCreateCommandPool(renderer.device(), &poolInfo, nullptr, &pool_));
        for (Slot& slot : slots_) {
            VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            info.commandPool = pool_;
            info.commandBufferCount = 1;
            SF_TEST_VK(vkAllocateCommandBuffers(renderer.device(), &info, &slot.commands));
            VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            SF_TEST_VK(vkCreateFence(renderer.device(), &fenceInfo, nullptr, &slot.fence));
        }
    }
    ~FrameRing() {
        vkDeviceWaitIdle(renderer_.device());
        for (Slot& slot : slots_) vkDestroyFence(renderer_.device(), slot.fence, nullptr);
        vkDestroyCommandPool(renderer_.device(), pool_, nullptr);
    }

    // The next slot's command buffer, begun, once that slot's last frame is done.
    VkCommandBuffer begin() {
        Slot& slot = slots_[next_];
        SF_TEST_VK(vkWaitForFences(renderer_.device(), 1, &slot.fence, VK_TRUE, 60ull * 1000 * 1000 * 1000));
        SF_TEST_VK(vkResetCommandBuffer(slot.commands, 0));
        VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        SF_TEST_VK(vkBeginCommandBuffer(slot.commands, &info));
        return slot.commands;
    }
    // Submits it without waiting (its writes made visible to the host when done).
    void submit() {
        Slot& slot = slots_[next_];
        VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        toHost.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(slot.commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &toHost, 0, nullptr, 0, nullptr);
        SF_TEST_VK(vkEndCommandBuffer(slot.commands));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &slot.commands;
        SF_TEST_VK(vkResetFences(renderer_.device(), 1, &slot.fence));
        SF_TEST_VK(vkQueueSubmit(renderer_.queue(), 1, &submit, slot.fence));
        next_ = (next_ + 1) % slots_.size();
    }
    // Drops it: never submitted; the slot's fence stays signalled, its buffer is reset next time.
    void drop() { next_ = (next_ + 1) % slots_.size(); }
    void waitIdle() { SF_TEST_VK(vkDeviceWaitIdle(renderer_.device())); }

private:
    struct Slot {
        VkCommandBuffer commands = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
    };
    test::TestRenderer& renderer_;
    std::vector<Slot> slots_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    size_t next_ = 0;
};

class FrameLoopTest : public test::LiveMoveFixture {
protected:
    // The poses of frame k of the scripted drags: the stroke's pose script[k], at
    // later times each frame so that continuous mode accepts every one.
    std::vector<Pose> poseOfFrame(size_t k) const {
        constexpr size_t script[] = {2, 5, size_t(-1), 0, 3, 7, 9, 1, 6, 4, 8, 11};
        std::vector<Pose> poses = posesAt(script[k % std::size(script)]);
        for (Pose& pose : poses) pose.time = firstPoses()[0].time + 0.01 * double(k + 1);
        return poses;
    }

    // A fresh vertex buffer holding `grid` and a LiveMove on it, on a Context with
    // this placement (and the test's pipeline cache).
    void freshMove(const ChunkedMesh& grid, BufferPlacement placement) {
        live_.reset();
        if (!placed_ || context_->bufferPlacement() != placement) { // a Context keeps its LiveMoves' pipelines
            solver_.reset();
            AdoptedDevice adopted = renderer_->adopted();
            adopted.hooks.bufferPlacement = placement;
            adopted.hooks.pipelineCache = pipelineCache();
            context_ = std::make_unique<Context>(adopted);
            placed_ = true;
        }
        upload(grid.positions);
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(grid.triangles, grid.chunks));
    }

    // How a scripted drag ends.
    enum class Release { Commit, Cancel };

    // The frames of one drag on the chunk grid, the vertex buffer's bytes after each
    // submitted one: grab (update to pose 2), pose 5, the last pose (more chunks),
    // the grab's pose again (move mode: every chunk goes back), pose 3, then the
    // release (commit after one more update, or cancel) and frames until nothing is
    // left. Frame `drop` is first recorded and dropped, then recorded again.
    std::vector<std::string> playDrag(const ChunkedMesh& grid, MoveMode mode, BufferPlacement placement,
                                      Release release, std::optional<size_t> drop) {
        freshMove(grid, placement);
        std::vector<std::string> bytesAfter;
        live_->begin(stroke_, firstPoses(), mode);
        for (size_t k = 0; k < 8; ++k) {
            if (k < 5) {
                EXPECT_TRUE(live_->update(poseOfFrame(k))) << live_->lastError();
            } else if (k == 5) {
                if (release == Release::Commit) {
                    EXPECT_TRUE(live_->update(poseOfFrame(k))) << live_->lastError();
                    live_->commit();
                } else {
                    live_->cancel();
                }
            }
            if (drop == k) {
                const RecordReport dropped = droppedFrame();
                EXPECT_TRUE(dropped.recorded) << "frame " << k << " must have work to drop";
                const RecordReport again = frame();
                reports_.push_back(again);
                EXPECT_EQ(again.chunksSolved, dropped.chunksSolved) << "frame " << k;
                EXPECT_EQ(again.chunksRestored, dropped.chunksRestored) << "frame " << k;
            } else {
                const RecordReport report = frame();
                reports_.push_back(report);
            }
            bytesAfter.push_back(bytes());
        }
        EXPECT_FALSE(live_->moving());
        EXPECT_FALSE(frame().recorded) << "the drag's frames must be over";
        return bytesAfter;
    }

    // One pipeline cache for every LiveMove of a test: the grid's drags rebuild the same pipelines.
    VkPipelineCache pipelineCache() {
        if (!cache_) {
            VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
            SF_TEST_VK(vkCreatePipelineCache(renderer_->device(), &info, nullptr, &cache_));
        }
        return cache_;
    }
    void TearDown() override {
        live_.reset();
        solver_.reset();
        context_.reset(); // its pipelines were built through the cache
        if (cache_) vkDestroyPipelineCache(renderer_->device(), cache_, nullptr);
        test::LiveMoveFixture::TearDown();
    }

    // "" when the two runs' bytes agree after every frame, else the first frame that differs.
    static std::string firstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
        if (a.size() != b.size()) return std::to_string(a.size()) + " frames against " + std::to_string(b.size());
        for (size_t k = 0; k < a.size(); ++k)
            if (a[k] != b[k]) return "the bytes after frame " + std::to_string(k);
        return "";
    }

    ChunkedMesh grid() const {
        const ToolMotion& tool = motion_.tools[0];
        return chunkGrid(tool, 4, 1, 30.0f * float(tool.outerRadius));
    }

    VkPipelineCache cache_ = VK_NULL_HANDLE;
    bool placed_ = false; // context_ was made by freshMove
    std::vector<RecordReport> reports_; // the submitted frames' of the last drags
};

// Record frame N, drop it, record again and submit: the buffer after every frame
// equals the same drag without the drop, bit for bit. For the grab frame, a
// mid-drag frame, a frame with restores (move mode's return to the grab pose) and
// the cancel's or commit's last frame; in move and continuous mode; with mapped
// and staged buffers (the staged adjacency upload rides on the grab frame).
TEST_F(FrameLoopTest, DroppedFramesLeaveNoTrace) {
    const ChunkedMesh chunked = grid();
    upload(chunked.positions);
    const std::string original = bytes();
    for (MoveMode mode : {MoveMode::Move, MoveMode::Continuous}) {
        for (BufferPlacement placement : {BufferPlacement::Mapped, BufferPlacement::Staged}) {
            const std::string where = std::string(mode == MoveMode::Move ? "move" : "continuous") + " mode, " +
                                      (placement == BufferPlacement::Mapped ? "mapped" : "staged") + " buffers: ";
            for (Release release : {Release::Cancel, Release::Commit}) {
                // Staged buffers differ in the grab frame only (the adjacency upload).
                if (placement == BufferPlacement::Staged && release == Release::Commit) continue;
                reports_.clear();
                const std::vector<std::string> plain = playDrag(chunked, mode, placement, release, std::nullopt);
                ASSERT_EQ(plain.size(), 8u);
                EXPECT_NE(plain[2], original) << where << "the drag must move the mesh";
                if (mode == MoveMode::Move) {
                    EXPECT_GT(reports_[3].chunksRestored, 0u) << where;
                }
                if (release == Release::Cancel) {
                    EXPECT_GT(reports_[5].chunksRestored, 0u) << where;
                    EXPECT_EQ(plain.back(), original) << where << "cancel must restore every byte";
                } else {
                    EXPECT_NE(plain.back(), original) << where << "the committed shape stays";
                }
                for (size_t drop : {0, 2, 3, 5}) {
                    if (placement == BufferPlacement::Staged && drop != 0) continue;
                    if (release == Release::Commit && drop != 5) continue; // the frames before are the cancel's
                    const std::vector<std::string> dropped = playDrag(chunked, mode, placement, release, drop);
                    EXPECT_EQ(firstDifference(dropped, plain), "")
                        << where << (release == Release::Cancel ? "cancel" : "commit") << ", frame " << drop
                        << " dropped once";
                }
            }
        }
    }
}

// Three frames in flight, none waited for until its slot comes round again, one
// frame in seven recorded and dropped: synchronization validation stays silent and
// the drag ends bit for bit where the same frames one at a time end.
TEST_F(FrameLoopTest, ThreeFramesInFlightEndWhereOneAtATimeDoes) {
    const ChunkedMesh chunked = grid();
    for (MoveMode mode : {MoveMode::Move, MoveMode::Continuous}) {
        std::string end[2];
        for (uint32_t depth : {1u, 3u}) {
            freshMove(chunked, BufferPlacement::Mapped);
            FrameRing ring(*renderer_, depth);
            auto playFrame = [&](size_t k) {
                const RecordReport report = live_->record(ring.begin());
                if (k % 7 == 0 && report.recorded) { // the grab frame among them
                    ring.drop();
                    return true;
                }
                ring.submit();
                EXPECT_TRUE(live_->submitted(report.ticket)) << live_->lastError();
                return report.recorded;
            };
            live_->begin(stroke_, firstPoses(), mode);
            size_t k = 0;
            for (; k < 12; ++k) {
                ASSERT_TRUE(live_->update(poseOfFrame(k))) << live_->lastError();
                playFrame(k);
            }
            live_->commit();
            for (size_t frames = 0; frames < 4 && playFrame(k); ++frames, ++k) {}
            EXPECT_FALSE(live_->moving());
            ring.waitIdle();
            end[depth == 3] = bytes();
            const std::vector<std::string> messages = renderer_->takeMessages();
            for (const std::string& m : messages) ADD_FAILURE() << depth << " frames in flight: " << m;
        }
        EXPECT_TRUE(end[0] == end[1]) << (mode == MoveMode::Move ? "move" : "continuous")
                                      << " mode: three frames in flight end elsewhere than one";
        EXPECT_NE(maxDistance(positions(), grid().positions), 0.0);
    }
}

// The reproduction: the grab frame recorded and dropped, two frames
// submitted, then cancel(): the vertices stand exactly where they started.
TEST_F(FrameLoopTest, CancelAfterADroppedGrabFrameRestoresTheOriginalBytes) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 3, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    for (BufferPlacement placement : {BufferPlacement::Mapped, BufferPlacement::Staged}) {
        live_.reset();
        solver_.reset(); // made from the Context replaced here
        AdoptedDevice adopted = renderer_->adopted();
        adopted.hooks.bufferPlacement = placement;
        context_ = std::make_unique<Context>(adopted);
        upload(sphere.positions);
        const std::string original = bytes();
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
        live_->begin(stroke_, firstPoses());
        ASSERT_TRUE(live_->update(posesAt(3))) << live_->lastError();
        EXPECT_TRUE(droppedFrame().recorded);
        ASSERT_TRUE(live_->update(posesAt(7))) << live_->lastError();
        EXPECT_TRUE(frame().recorded);
        ASSERT_TRUE(live_->update(posesAt(12))) << live_->lastError();
        EXPECT_TRUE(frame().recorded);
        Move expectedMove;
        expectedMove.tools.push_back(toolMotion(stroke_.tools[0], firstPoses()[0], posesAt(12)[0], stroke_.voxelSize));
        EXPECT_LE(maxDistance(positions(), headless(expectedMove, sphere.positions)), 0.01)
            << "voxels from the headless solve of the grab to the last pose";
        live_->cancel();
        EXPECT_EQ(frame().chunksRestored, 1u);
        EXPECT_EQ(differenceFrom(original), "") << "cancel must restore every byte";
    }
}

// submitted() takes only the latest record()'s ticket, once; an empty one is ignored.
TEST_F(FrameLoopTest, OnlyTheLatestTicketIsAcknowledged) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(3)));
    const std::string original = bytes();
    const RecordReport first = droppedFrame();
    const RecordReport second = droppedFrame();
    renderer_->submitAndWait(); // the second frame's command buffer: the first was reset, never submitted
    ASSERT_TRUE(first.recorded && second.recorded);
    EXPECT_NE(first.ticket.frame, second.ticket.frame);
    EXPECT_FALSE(live_->submitted(first.ticket)) << "a frame recorded before the last record() was dropped";
    EXPECT_NE(live_->lastError().find("not the latest"), std::string::npos) << live_->lastError();
    EXPECT_TRUE(live_->submitted(second.ticket)) << live_->lastError();
    EXPECT_FALSE(live_->submitted(second.ticket)) << "a ticket counts once";
    EXPECT_TRUE(live_->submitted(FrameTicket{})) << "nothing recorded: nothing to acknowledge";
    EXPECT_FALSE(live_->submitted(FrameTicket{second.ticket.frame + 1})) << "a ticket no record() returned";
    // Only the acknowledged frame counts: the next one solves from its snapshot, and
    // the cancel restores from it.
    ASSERT_TRUE(live_->update(posesAt(5)));
    EXPECT_TRUE(frame().recorded);
    Move expectedMove;
    expectedMove.tools.push_back(toolMotion(stroke_.tools[0], firstPoses()[0], posesAt(5)[0], stroke_.voxelSize));
    EXPECT_LE(maxDistance(positions(), headless(expectedMove, sphere.positions)), 0.01);
    live_->cancel();
    EXPECT_EQ(frame().chunksRestored, 1u);
    EXPECT_EQ(differenceFrom(original), "");
}

// commit() and cancel() close the move only once its last frame is submitted:
// begin() refuses before, a dropped last frame is recorded again.
TEST_F(FrameLoopTest, BeginWaitsForTheLastFrameToBeSubmitted) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::string original = bytes();
    const std::vector<uint32_t> tris = test::triangles(sphere);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(5)));
    frame();
    live_->cancel();
    EXPECT_FALSE(live_->moving());
    EXPECT_TRUE(test::failsWith([&] { live_->begin(stroke_, firstPoses()); }, {"begin", "not submitted"}));
    EXPECT_EQ(droppedFrame().chunksRestored, 1u);
    EXPECT_TRUE(test::failsWith([&] { live_->begin(stroke_, firstPoses()); }, {"begin", "not submitted"}));
    EXPECT_EQ(frame().chunksRestored, 1u);
    EXPECT_EQ(differenceFrom(original), "");
    EXPECT_NO_THROW(live_->begin(stroke_, firstPoses()));
    live_->cancel(); // nothing written: over at once
    EXPECT_NO_THROW(live_->begin(stroke_, firstPoses()));
    live_->cancel();
}

// The snapshot follows the move: a chunk's bytes are copied aside in the first
// frame that solves it (again after a drop), never again in that move, and the
// copy reads only the chunks reached, not the whole vertex buffer.
TEST_F(FrameLoopTest, EachChunkIsSnapshottedInTheFrameThatFirstSolvesIt) {
    const ToolMotion& tool = motion_.tools[0];
    const ChunkedMesh grid = chunkGrid(tool, 4, 1, 30.0f * float(tool.outerRadius));
    upload(grid.positions);
    const std::string original = bytes();
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(grid.triangles, grid.chunks));
    live_->begin(stroke_, firstPoses());
    EXPECT_FALSE(frame().recorded) << "no update yet: nothing to snapshot";
    ASSERT_TRUE(live_->update(posesAt(2)));
    const RecordReport dropped = droppedFrame();
    const RecordReport grab = frame();
    ASSERT_GE(grab.chunksSolved, 1u);
    EXPECT_EQ(dropped.chunksSnapshotted, grab.chunksSolved);
    EXPECT_EQ(grab.chunksSnapshotted, grab.chunksSolved) << "the dropped frame's copies are recorded again";
    const VkDeviceSize whole = VkDeviceSize(count_) * sizeof(test::Vertex);
    bool copyListed = false;
    for (const BufferAccess& access : grab.accessList()) {
        if (access.accesses != VK_ACCESS_2_TRANSFER_READ_BIT) continue;
        copyListed = true;
        // One range from the first chunk copied to the last (chunks 0 to 16 here): not the mesh.
        EXPECT_LT(access.size, whole / 2) << "the copy reads the reached chunks only";
    }
    EXPECT_TRUE(copyListed);

    ASSERT_TRUE(live_->update(posesAt(2)));
    EXPECT_EQ(frame().chunksSnapshotted, 0u) << "the same chunks: taken already";
    ASSERT_TRUE(live_->update(lastPoses()));
    const RecordReport far = frame();
    EXPECT_GT(far.chunksSolved, grab.chunksSolved);
    EXPECT_GE(far.chunksSnapshotted, far.chunksSolved - grab.chunksSolved);
    EXPECT_LT(far.chunksSnapshotted, far.chunksSolved);
    live_->cancel();
    EXPECT_GT(frame().chunksRestored, 0u);
    EXPECT_EQ(differenceFrom(original), "") << "every chunk comes back from its own snapshot";
}

} // namespace
} // namespace sculptflow
