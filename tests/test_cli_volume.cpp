// The command line's volume change (issue 19): `deform --volume-change` (its summary
// line, the stats JSON's "volume_change" and flags "folded", the PLY vertex property
// volume_change), `render --color volume-change`, and a move the library cannot give
// a volume change for, refused with exit status 1 and no file written.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sculptflow/context.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/stroke.hpp>
#include "host/context_impl.hpp"
#include "host/mesh_renderer.hpp"
#include "cli_runner.hpp"
#include "command_line.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::readJson;
using test::ScratchDir;

class CliVolume : public testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(lateValidationMessages(), 0); }

    // `sculptflow <args>` in-process with every subcommand, validation on; returns its stdout.
    static std::string run(const std::vector<std::string>& args) {
        testing::internal::CaptureStdout();
        test::runCli(&cli::addCommands, args);
        return testing::internal::GetCapturedStdout();
    }
};

// A 2,562-vertex sphere where the built-in mesh of `stroke` sits (around its first
// tool's tip, of the built-in radius): a quarter of the built-in one, so it is quick.
Mesh smallSphere(const Stroke& stroke) {
    const ToolStroke& tool = stroke.tools.front();
    return icosphere(4, glm::vec3(tool.poses.front().position), float(kDefaultSphereRadius * tool.outerRadius));
}

struct VolumeFigures {
    double min = std::numeric_limits<double>::infinity(), max = -min, sum = 0.0;
    size_t folded = 0;
};

// What the stats JSON should say about these values (the summary's rule: folded
// where J ≤ 0, min, max and mean over every vertex).
VolumeFigures figuresOf(const std::vector<float>& volumeChanges) {
    VolumeFigures f;
    for (const float j : volumeChanges) {
        EXPECT_TRUE(std::isfinite(j));
        f.min = std::min(f.min, double(j));
        f.max = std::max(f.max, double(j));
        f.sum += j;
        if (!(j > 0.0f)) ++f.folded;
    }
    return f;
}

// A two-tool stroke JSON: an affine tool and a Kelvinlet, each pulling a little.
std::string mixedStroke() {
    auto tool = [](const char* kind, double x) {
        nlohmann::json poses = nlohmann::json::array();
        for (int i = 0; i < 2; ++i)
            poses.push_back({{"position", {x + 0.02 * i, 0.65, 1.36}},
                             {"orientation", {1, 0, 0, 0}},
                             {"scale", 1.0},
                             {"time", double(i)}});
        return nlohmann::json{{"kind", kind},         {"inner_radius", 0.0185}, {"outer_radius", 0.1297},
                              {"stiffness", 1.0},     {"compressibility", 0.5}, {"poses", poses}};
    };
    return nlohmann::json{{"voxel_size", 0.0013}, {"tools", {tool("affine", -0.31), tool("kelvinlet", -0.29)}}}
        .dump();
}

TEST_F(CliVolume, DeformStatsAgreeWithThePlyProperty) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const auto out = dir / "out.ply", stats = dir / "stats.json";
    // The built-in sphere with a truncated affine tool: J spreads on both sides of 1, and folds.
    const std::string printed = run({"deform", "--built-in", "sphere", "--kind", "affine", "--volume-change", "--out",
                                     out.string(), "--stats", stats.string()});
    EXPECT_NE(printed.find("volume change J: min "), std::string::npos) << printed;

    const Mesh mesh = readMesh(out);
    ASSERT_EQ(mesh.volumeChange.size(), mesh.positions.size());
    EXPECT_TRUE(mesh.mask.empty());
    const VolumeFigures f = figuresOf(mesh.volumeChange);
    const nlohmann::json j = readJson(stats);
    ASSERT_TRUE(j["volume_change"].is_object()) << j.dump(2);
    const nlohmann::json& v = j["volume_change"];
    EXPECT_EQ(v["min"].get<double>(), f.min);
    EXPECT_EQ(v["max"].get<double>(), f.max);
    EXPECT_NEAR(v["mean"].get<double>(), f.sum / double(mesh.positions.size()), 1e-9);
    EXPECT_EQ(v["folded"].get<size_t>(), f.folded);
    EXPECT_GT(f.folded, 0u);
    EXPECT_LT(f.min, 0.0);
    EXPECT_GT(f.max, 1.0);
    // Move-tool mode: the FOLDED flags count the same vertices.
    EXPECT_EQ(j["flags"]["folded"].get<size_t>(), f.folded);
    std::printf("  built-in case, affine: J in [%.4g, %.4g], mean %.4g, %zu of %zu folded\n", f.min, f.max,
                v["mean"].get<double>(), f.folded, mesh.positions.size());

    // Without --volume-change: null in the stats, and no property, even from a mesh
    // that carried one (it would describe another map).
    const auto again = dir / "again.ply";
    run({"deform", "--mesh", out.string(), "--kind", "affine", "--out", again.string(), "--stats", stats.string()});
    EXPECT_TRUE(readMesh(again).volumeChange.empty());
    const nlohmann::json plain = readJson(stats);
    EXPECT_TRUE(plain.contains("volume_change"));
    EXPECT_TRUE(plain["volume_change"].is_null());
    EXPECT_EQ(plain["flags"]["folded"], 0);
}

TEST_F(CliVolume, PlyPropertyRoundTripsAndObjHasNone) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    Mesh mesh = smallSphere(defaultStroke());
    mesh.volumeChange.resize(mesh.positions.size());
    for (size_t i = 0; i < mesh.volumeChange.size(); ++i) mesh.volumeChange[i] = float(i % 7) - 2.5f;
    mesh.mask.assign(mesh.positions.size(), 0.75f);
    for (const MeshFormat format : {MeshFormat::PlyAscii, MeshFormat::PlyBinary}) {
        const auto path = dir / "j.ply";
        writeMesh(mesh, path, format);
        const Mesh back = readMesh(path);
        EXPECT_EQ(back.volumeChange, mesh.volumeChange);
        EXPECT_EQ(back.mask, mesh.mask); // the columns keep their places
        EXPECT_EQ(back.positions, mesh.positions);
    }
    const auto obj = dir / "out.obj", stats = dir / "stats.json";
    run({"deform", "--mesh", (dir / "j.ply").string(), "--volume-change", "--out", obj.string(), "--stats",
         stats.string()});
    EXPECT_TRUE(readMesh(obj).volumeChange.empty());
    EXPECT_TRUE(readJson(stats)["volume_change"].is_object());
}

TEST_F(CliVolume, RecordedAffineFoldsAndAffineFlowDoesNot) {
    SF_REQUIRE_VULKAN();
    SF_REQUIRE_RECORDING(stroke, "test0_righthandstroke.bin");
    ScratchDir dir;
    const auto mesh = dir / "sphere.ply";
    writeMesh(smallSphere(readStroke(stroke)), mesh);
    auto figures = [&](const char* kind) {
        const auto stats = dir / (std::string(kind) + ".json");
        run({"deform", "--mesh", mesh.string(), "--stroke", stroke.string(), "--kind", kind, "--volume-change",
             "--stats", stats.string()});
        const nlohmann::json j = readJson(stats);
        std::printf("  test0, %s: %s\n", kind, j["volume_change"].dump().c_str());
        return j;
    };
    const nlohmann::json affine = figures("affine");
    EXPECT_GT(affine["volume_change"]["folded"].get<size_t>(), 0u);
    EXPECT_LT(affine["volume_change"]["min"].get<double>(), 0.0);
    EXPECT_EQ(affine["flags"]["folded"], affine["volume_change"]["folded"]);
    const nlohmann::json flow = figures("affine-flow");
    EXPECT_EQ(flow["volume_change"]["folded"], 0);
    EXPECT_GT(flow["volume_change"]["min"].get<double>(), 0.0);
    EXPECT_EQ(flow["flags"]["folded"], 0);
}

TEST_F(CliVolume, RenderShowsFoldsInBlack) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const auto mesh = dir / "sphere.ply", png = dir / "volume.png";
    writeMesh(smallSphere(defaultStroke()), mesh);
    // Pixels of the meshes (above the legend band) that are black: the folded vertices.
    auto blackMeshPixels = [&](const char* kind) {
        const std::string printed = run({"render", "--mesh", mesh.string(), "--kind", kind, "--color",
                                         "volume-change", "--size", "320x160", "--out", png.string()});
        EXPECT_NE(printed.find("volume change J min "), std::string::npos) << printed;
        const RgbaImage image = readPng(png);
        EXPECT_EQ(image.width, 320u);
        EXPECT_EQ(image.height, 160u);
        size_t black = 0;
        for (uint32_t y = 0; y < image.height * 3 / 4; ++y)
            for (uint32_t x = 0; x < image.width; ++x) {
                const uint8_t* p = image.at(x, y);
                if (std::max({p[0], p[1], p[2]}) <= 12) ++black;
            }
        return black;
    };
    EXPECT_GT(blackMeshPixels("affine"), 0u);
    EXPECT_EQ(blackMeshPixels("affine-flow"), 0u);
}

TEST_F(CliVolume, MixedAffineStrokeIsRefusedAndWritesNothing) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const auto mesh = dir / "sphere.ply", stroke = dir / "mixed.json";
    writeMesh(smallSphere(defaultStroke()), mesh);
    test::writeFile(stroke, mixedStroke());
    const auto out = dir / "out.ply", stats = dir / "stats.json", png = dir / "mixed.png";
    const std::vector<std::vector<std::string>> commands = {
        {"deform", "--volume-change", "--out", out.string(), "--stats", stats.string()},
        {"deform", "--volume-change", "--backend", "cpu", "--out", out.string(), "--stats", stats.string()},
        {"deform", "--volume-change", "--mode", "continuous", "--out", out.string(), "--stats", stats.string()},
        {"render", "--color", "volume-change", "--size", "160x96", "--out", png.string()},
    };
    for (std::vector<std::string> args : commands) {
        args.insert(args.begin() + 1, {"--mesh", mesh.string(), "--stroke", stroke.string()});
        const auto [status, errors] = test::cliExitStatus(args);
        EXPECT_EQ(status, 1) << errors;
        EXPECT_NE(errors.find("sculptflow: error: volume change"), std::string::npos) << errors;
        EXPECT_NE(errors.find("mixes affine tools with kelvinlet or affine-flow tools"), std::string::npos)
            << errors;
        for (const auto& file : {out, stats, png}) EXPECT_FALSE(std::filesystem::exists(file)) << file;
    }
    // The same stroke solves without the volume change.
    run({"deform", "--mesh", mesh.string(), "--stroke", stroke.string(), "--out", out.string()});
    EXPECT_TRUE(std::filesystem::exists(out));
}

} // namespace
} // namespace sculptflow
