// Spec §4's contract on the renderer's path: a recording replayed through
// LiveMove, each recorded pose one frame, keeps every vertex the statistics
// stream leaves unflagged within tol of the double ground truth at that frame's
// pose, for every adaptive method.
#include <cctype>
#include <cstdio>
#include <cstring>

#include <gtest/gtest.h>

#include "src/ground_truth.hpp"
#include "live_move_fixture.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

struct ContractReplay {
    const char* name;
    std::vector<const char*> recordings; // one a hand
};

// What one replay found, over all its frames.
struct ReplayTally {
    size_t frames = 0;
    size_t checked = 0;  // vertex-frames compared with the ground truth
    size_t flagged = 0;  // vertex-frames flagged (culled ones not counted: they are checked)
    size_t overTol = 0;  // unflagged vertex-frames over tol
    double worst = 0.0;  // over the unflagged ones, voxels
    size_t worstFrame = 0;
};

class LiveContract : public test::LiveMoveFixture,
                     public testing::WithParamInterface<std::tuple<ContractReplay, ToolKind>> {
protected:
    // Replays stroke_ with `method` at tol; every frame's positions and flags read back.
    ReplayTally replay(Method method, double tol) {
        LiveMoveOptions options;
        options.solver.method = method;
        options.solver.tolerance = tol;
        if (!statistics_.buffer)
            statistics_ = renderer_->createBuffer(sizeof(VertexStatistics) * count_, test::TestRenderer::kVertexUsage);
        RendererMesh mesh = rendererMesh({}, {}, false);
        mesh.statistics = statistics_.buffer;
        live_ = std::make_unique<LiveMove>(*context_, mesh, options);

        const std::vector<glm::vec3> start = positions();
        live_->begin(stroke_, firstPoses());
        size_t frames = 0;
        for (const ToolStroke& tool : stroke_.tools) frames = std::max(frames, tool.poses.size());
        ReplayTally tally;
        for (size_t k = 1; k < frames; ++k) {
            const std::vector<Pose> poses = posesAt(k);
            EXPECT_TRUE(live_->update(poses)) << live_->lastError();
            EXPECT_TRUE(frame().recorded);
            if (truths_.size() < k) {
                Move move;
                for (size_t t = 0; t < stroke_.tools.size(); ++t)
                    move.tools.push_back(toolMotion(stroke_.tools[t], firstPoses()[t], poses[t], stroke_.voxelSize));
                truths_.push_back(groundTruth(move, start));
            }
            const GroundTruth& truth = truths_[k - 1];
            const std::vector<glm::vec3> now = positions();
            std::vector<VertexStatistics> stats(count_);
            std::memcpy(stats.data(), statistics_.mapped, stats.size() * sizeof(VertexStatistics));
            for (uint32_t i = 0; i < count_; ++i) {
                if ((stats[i].flags & ~kVertexCulled) != 0) {
                    ++tally.flagged;
                    continue;
                }
                const double error = glm::length(glm::dvec3(now[i]) - truth.positions[i]);
                ++tally.checked;
                if (error > tol) ++tally.overTol;
                if (error > tally.worst) {
                    tally.worst = error;
                    tally.worstFrame = k;
                }
            }
            ++tally.frames;
        }
        // Cancelled, so that the next method starts from the same mesh.
        live_->cancel();
        frame();
        EXPECT_EQ(maxDistance(positions(), start), 0.0) << "cancel restores the mesh";
        return tally;
    }

    test::TestRenderer::Buffer statistics_;
    std::vector<GroundTruth> truths_; // frame k's at k - 1, shared by the methods
};

TEST_P(LiveContract, EveryFrameKeepsTheContract) {
    const auto& [recording, kind] = GetParam();
    stroke_ = Stroke{};
    for (const char* name : recording.recordings) {
        SF_REQUIRE_RECORDING(path, name);
        Stroke hand = readStroke(path);
        if (stroke_.tools.empty()) stroke_ = hand;
        else stroke_.tools.push_back(hand.tools.front());
    }
    stroke_ = test::withKind(stroke_, kind);
    motion_ = moveToolMotion(stroke_);
    // Shells about each tip at its first pose: the vertices the flow moves most,
    // least, and by the most twisted paths.
    std::vector<glm::vec3> start;
    for (const ToolMotion& tool : motion_.tools) {
        const std::vector<glm::vec3> shells = test::spheresAroundTip(tool, {0.2f, 0.5f, 1.0f}, 2);
        start.insert(start.end(), shells.begin(), shells.end());
    }
    upload(start);

    const double tol = 0.1;
    for (Method method : {Method::Bs32, Method::Dp45, Method::Rk4Double, Method::Tsit5}) {
        const ReplayTally t = replay(method, tol);
        std::printf("[ contract ] %s %s %s: %zu frames × %u vertices, %.2f%% flagged, worst unflagged %.4f voxel "
                    "(frame %zu), %zu over tol\n",
                    recording.name, std::string(toolKindName(kind)).c_str(), std::string(methodName(method)).c_str(), t.frames, count_,
                    100.0 * double(t.flagged) / double(t.flagged + t.checked), t.worst, t.worstFrame, t.overTol);
        EXPECT_GT(t.frames, 10u);
        EXPECT_EQ(t.overTol, 0u) << methodName(method) << ": unflagged vertices over tol, worst " << t.worst
                                 << " voxel at frame " << t.worstFrame;
        EXPECT_LE(double(t.flagged), 0.01 * double(t.flagged + t.checked)) << methodName(method) << ": over 1% flagged";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Recordings, LiveContract,
    testing::Combine(testing::Values(ContractReplay{"test0", {"test0_righthandstroke.bin"}},
                                     ContractReplay{"test1-both-hands",
                                                    {"test1_lefthandstroke.bin", "test1_righthandstroke.bin"}}),
                     testing::Values(ToolKind::Kelvinlet, ToolKind::Affine, ToolKind::AffineFlow)),
    [](const auto& replay) {
        std::string name =
            std::string(std::get<0>(replay.param).name) + "_" + std::string(toolKindName(std::get<1>(replay.param)));
        for (char& c : name)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        return name;
    });

} // namespace
} // namespace sculptflow
