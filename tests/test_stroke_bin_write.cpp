// writeStrokeBin: what it writes reads back as the same stroke (at f32), and what
// the format cannot hold is refused with nothing written.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include <sculptflow/stroke.hpp>
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::failsWith;
using test::ScratchDir;

double binWriteF32(double value) { return double(static_cast<float>(value)); }

// One Kelvinlet tool with doubles that f32 cannot hold exactly.
Stroke binWriteSample() {
    Stroke stroke;
    stroke.voxelSize = 0.0025;
    ToolStroke tool;
    tool.kind = ToolKind::Kelvinlet;
    tool.innerRadius = 0.1 / 3.0;
    tool.outerRadius = 0.13;
    tool.stiffness = 1.0 / 7.0;
    tool.compressibility = 0.3;
    for (int i = 0; i < 6; ++i) {
        Pose pose;
        pose.position = glm::dvec3(0.1 * i, -0.2 / 3.0, 1.7 + 0.01 * i);
        pose.orientation = glm::normalize(glm::dquat(0.3 + 0.1 * i, -0.2, 0.7 / (i + 1), 0.1));
        pose.scale = 1.0 + 0.05 * i;
        pose.time = 332.71 + 0.1 * i;
        tool.poses.push_back(pose);
    }
    stroke.tools.push_back(tool);
    return stroke;
}

// Every value as f32 rounds it; orientations are normalised again by the reader.
void expectSameAtF32(const Stroke& written, const Stroke& read) {
    ASSERT_EQ(read.tools.size(), 1u);
    const ToolStroke& a = written.tools[0];
    const ToolStroke& b = read.tools[0];
    EXPECT_EQ(b.kind, a.kind);
    EXPECT_EQ(b.innerRadius, binWriteF32(a.innerRadius));
    EXPECT_EQ(b.outerRadius, binWriteF32(a.outerRadius));
    EXPECT_EQ(b.stiffness, binWriteF32(a.stiffness));
    EXPECT_EQ(b.compressibility, binWriteF32(a.compressibility));
    ASSERT_EQ(b.poses.size(), a.poses.size());
    for (size_t i = 0; i < a.poses.size(); ++i) {
        for (int k = 0; k < 3; ++k) EXPECT_EQ(b.poses[i].position[k], binWriteF32(a.poses[i].position[k])) << i;
        EXPECT_EQ(b.poses[i].scale, binWriteF32(a.poses[i].scale)) << i;
        EXPECT_EQ(b.poses[i].time, binWriteF32(a.poses[i].time)) << i;
        // f32 holds a unit quaternion's components to 6e-8 each.
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(b.poses[i].orientation[k], a.poses[i].orientation[k], 2e-7) << i;
    }
}

TEST(StrokeBinWrite, RoundTripsAtF32) {
    ScratchDir dir;
    Stroke stroke = binWriteSample();
    writeStrokeBin(stroke, dir / "k.bin");
    EXPECT_EQ(std::filesystem::file_size(dir / "k.bin"), 8u + 36u * 6u + 20u); // spec §5's layout
    StrokeReadNotes notes{.warnings = {"left from before"}};
    const Stroke read = readStroke(dir / "k.bin", StrokeReadOptions{.binVoxelSize = stroke.voxelSize, .notes = &notes});
    EXPECT_EQ(read.voxelSize, stroke.voxelSize);
    EXPECT_TRUE(notes.warnings.empty()); // each read starts its notes afresh
    expectSameAtF32(stroke, read);

    setToolKind(stroke.tools[0], ToolKind::Affine); // the elastic flag 0
    writeStrokeBin(stroke, dir / "a.bin");
    expectSameAtF32(stroke, readStrokeBin(dir / "a.bin"));
}

TEST(StrokeBinWrite, RecordingRewritesToTheSameStroke) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    ScratchDir dir;
    const Stroke recorded = readStrokeBin(path);
    writeStrokeBin(recorded, dir / "again.bin");
    EXPECT_EQ(std::filesystem::file_size(dir / "again.bin"), std::filesystem::file_size(path));
    expectSameAtF32(recorded, readStrokeBin(dir / "again.bin"));
}

TEST(StrokeBinWrite, RefusesWhatTheFormatCannotHoldAndWritesNothing) {
    ScratchDir dir;
    const auto refused = [&](const Stroke& stroke, std::string_view why) {
        const auto target = dir / "refused.bin";
        const ::testing::AssertionResult result = failsWith([&] { writeStrokeBin(stroke, target); },
                                                            {"refused.bin", why});
        EXPECT_FALSE(std::filesystem::exists(target)) << why;
        return result;
    };
    Stroke twoTools = binWriteSample();
    twoTools.tools.push_back(twoTools.tools[0]);
    EXPECT_TRUE(refused(twoTools, "2 tools"));
    Stroke mirrored = binWriteSample();
    mirrored.symmetry.axes = kSymmetryX;
    EXPECT_TRUE(refused(mirrored, "symmetry 'x'"));
    Stroke flow = binWriteSample();
    setToolKind(flow.tools[0], ToolKind::AffineFlow);
    EXPECT_TRUE(refused(flow, "affine-flow"));
    Stroke triScale = binWriteSample();
    triScale.tools[0].profile = KelvinletProfile::TriScale;
    EXPECT_TRUE(refused(triScale, "profile"));
    Stroke sharp = binWriteSample();
    setToolKind(sharp.tools[0], ToolKind::Affine);
    sharp.tools[0].falloff = Falloff::Sharp;
    EXPECT_TRUE(refused(sharp, "falloff"));
    Stroke far = binWriteSample();
    far.tools[0].poses[2].position.x = 1e39; // beyond f32
    EXPECT_TRUE(refused(far, "poses[2].position"));
}

} // namespace
} // namespace sculptflow
