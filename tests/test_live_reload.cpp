// Hot reload into the renderer: a ShaderReloader on a Context swaps deform.comp
// under its LiveMoves between frames; a broken edit keeps the running pipelines
// and the drag goes on; replaced pipelines live until the renderer releases them.
#include <gtest/gtest.h>

#include <sculptflow/hot_reload.hpp>
#include "live_move_fixture.hpp"
#include "shader_files.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

class LiveReloadTest : public test::LiveMoveFixture {
protected:
    // The largest distance of a vertex from where it started, in voxels.
    double largestMove() const { return maxDistance(positions(), start_); }
    std::vector<glm::vec3> start_;
};

TEST_F(LiveReloadTest, AnEditChangesTheNextFrameAndABrokenOneKeepsTheDragGoing) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    start_ = sphere.positions;
    upload(sphere.positions);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(10))) << live_->lastError();
    frame();
    const std::vector<glm::vec3> builtIn = positions();
    const double builtInMove = largestMove();
    ASSERT_GT(builtInMove, 10.0);

    // The sources the build embedded, compiled at run time: the same drag.
    ShaderReloader reloader(*context_, dir.path());
    ASSERT_EQ(reloader.generation(), 1) << reloader.lastReport().message;
    ASSERT_TRUE(live_->update(posesAt(10)));
    EXPECT_TRUE(frame().recorded);
    EXPECT_LE(maxDistance(positions(), builtIn), 1e-3);

    // Mid-drag, the Kelvinlets' velocity halved: the next frame moves about half as far.
    const auto kelvinlet = dir / "sculptflow/kinds/kelvinlet.glsl";
    test::edit(kelvinlet, "v += kelvinletVelocity(i, offset);", "v += 0.5f * kelvinletVelocity(i, offset);");
    ASSERT_EQ(reloader.poll().status, ReloadReport::Status::Reloaded) << reloader.lastReport().message;
    ASSERT_TRUE(live_->update(posesAt(10)));
    EXPECT_TRUE(frame().recorded);
    const std::vector<glm::vec3> halved = positions();
    EXPECT_GT(largestMove(), 0.3 * builtInMove);
    EXPECT_LT(largestMove(), 0.7 * builtInMove);

    // A typo: reported by file and line, the halved shader keeps running.
    test::edit(kelvinlet, "vec3 kelvinletVelocity(int i, vec3 offset) {", "vec3 kelvinletVelocity(int i, vec3 offset) { oops");
    const ReloadReport broken = reloader.poll();
    ASSERT_EQ(broken.status, ReloadReport::Status::Failed);
    ASSERT_FALSE(broken.diagnostics.empty());
    EXPECT_EQ(broken.diagnostics[0].file.filename(), "kelvinlet.glsl");
    EXPECT_GT(broken.diagnostics[0].line, 0);
    ASSERT_TRUE(live_->update(posesAt(10)));
    EXPECT_TRUE(frame().recorded) << live_->lastError();
    EXPECT_EQ(maxDistance(positions(), halved), 0.0);

    // The frames are complete (the fixture waits for each): the replaced pipelines can go.
    EXPECT_GT(releaseRetiredLiveMovePipelines(*context_), 0u);
    EXPECT_EQ(releaseRetiredLiveMovePipelines(*context_), 0u);
    live_->cancel();
    frame();
}

} // namespace
} // namespace sculptflow
