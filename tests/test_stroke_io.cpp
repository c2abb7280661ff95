// Tests for stroke input and output: JSON round trips, recorded .bin strokes, refusals.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sculptflow/error.hpp>
#include <sculptflow/stroke.hpp>
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::ScratchDir;
using Json = nlohmann::json;

using test::failsWith;
using test::readFile;
using test::writeFile;

double quaternionNorm(const glm::dquat& q) { return std::sqrt(glm::dot(q, q)); }

// Two tools with awkward doubles; quaternions normalised as a reader would leave them.
Stroke sampleStroke() {
    Stroke stroke;
    stroke.voxelSize = 0.0013;
    for (int t = 0; t < 2; ++t) {
        ToolStroke tool;
        tool.kind = t == 0 ? ToolKind::Kelvinlet : ToolKind::Affine;
        tool.innerRadius = 0.1 / 3.0 + 0.01 * t; // below outer_radius, as the readers require
        tool.outerRadius = 0.12966501712799072;
        tool.stiffness = 1.0 / 7.0;
        tool.compressibility = t == 0 ? 0.5 : 0.0;
        for (int i = 0; i < 5; ++i) {
            Pose pose;
            pose.position = glm::dvec3(0.1 * i, -1e-300, 12345.678901234567 + i);
            pose.orientation = glm::normalize(glm::dquat(0.3 + 0.1 * i, -0.2, 0.7 / (i + 1), 0.1 * t));
            pose.scale = 1.0 + 1e-9 * i;
            pose.time = 332.71649169921875 + 0.1 * i;
            tool.poses.push_back(pose);
        }
        stroke.tools.push_back(tool);
    }
    return stroke;
}

void expectSameStroke(const Stroke& a, const Stroke& b) {
    EXPECT_EQ(a.voxelSize, b.voxelSize);
    ASSERT_EQ(a.tools.size(), b.tools.size());
    for (size_t t = 0; t < a.tools.size(); ++t) {
        const ToolStroke& x = a.tools[t];
        const ToolStroke& y = b.tools[t];
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.innerRadius, y.innerRadius);
        EXPECT_EQ(x.outerRadius, y.outerRadius);
        EXPECT_EQ(x.stiffness, y.stiffness);
        EXPECT_EQ(x.compressibility, y.compressibility);
        ASSERT_EQ(x.poses.size(), y.poses.size());
        for (size_t i = 0; i < x.poses.size(); ++i) {
            EXPECT_EQ(x.poses[i].position, y.poses[i].position) << "tool " << t << " pose " << i;
            EXPECT_EQ(x.poses[i].orientation, y.poses[i].orientation) << "tool " << t << " pose " << i;
            EXPECT_EQ(x.poses[i].scale, y.poses[i].scale);
            EXPECT_EQ(x.poses[i].time, y.poses[i].time);
        }
    }
}

// ---------------------------------------------------------------------------
// JSON

TEST(StrokeIo, JsonRoundTripIsExact) {
    ScratchDir dir;
    const Stroke stroke = sampleStroke();
    writeStrokeJson(stroke, dir / "stroke.json");
    expectSameStroke(stroke, readStrokeJson(dir / "stroke.json"));
    expectSameStroke(stroke, readStroke(dir / "stroke.json"));
    // Nothing but the target is left in the directory.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++files;
        EXPECT_EQ(entry.path().filename(), "stroke.json");
    }
    EXPECT_EQ(files, 1u);
}

TEST(StrokeIo, SymmetryRoundTripsAndDefaultsItsOrigin) {
    ScratchDir dir;
    Stroke stroke = sampleStroke();
    stroke.symmetry = {kSymmetryX | kSymmetryZ, glm::dvec3(0.25, -1.5, 3.0)};
    writeStrokeJson(stroke, dir / "mirrored.json");
    const Stroke back = readStrokeJson(dir / "mirrored.json");
    expectSameStroke(stroke, back);
    EXPECT_EQ(back.symmetry.axes, kSymmetryX | kSymmetryZ);
    EXPECT_EQ(back.symmetry.origin, stroke.symmetry.origin);

    Json j = Json::parse(readFile(dir / "mirrored.json"));
    EXPECT_EQ(j["symmetry"]["axes"], "xz");
    j["symmetry"] = {{"axes", "y"}};
    writeFile(dir / "no_origin.json", j.dump());
    const Stroke defaulted = readStroke(dir / "no_origin.json");
    EXPECT_EQ(defaulted.symmetry.axes, kSymmetryY);
    EXPECT_EQ(defaulted.symmetry.origin, glm::dvec3(0.0));
    EXPECT_EQ(readStrokeJson(dir / "mirrored.json").symmetry.axes, back.symmetry.axes);
}

TEST(StrokeIo, SymmetryAxesParseAsSubsetsOfXyz) {
    EXPECT_EQ(parseSymmetryAxes("zyx"), kSymmetryX | kSymmetryY | kSymmetryZ);
    EXPECT_EQ(parseSymmetryAxes("y"), kSymmetryY);
    EXPECT_EQ(parseSymmetryAxes("X"), kSymmetryX); // either case (issue 32)
    for (const char* bad : {"", "xx", "xX", "w", "x y"}) EXPECT_FALSE(parseSymmetryAxes(bad)) << bad;
    EXPECT_EQ(symmetryAxesName(kSymmetryZ | kSymmetryX), "xz");
}

TEST(StrokeIo, JsonDefaultsAndNormalisation) {
    ScratchDir dir;
    writeFile(dir / "min.Json", R"({"tools": [{"kind": "affine", "inner_radius": 0, "outer_radius": 2,
        "poses": [{"position": [0, 0, 0], "orientation": [1.0005, 0, 0, 0], "time": 3},
                  {"position": [1, 2, 3], "orientation": [0, 0, 0.9995, 0], "time": 3.5}]}]})");
    const Stroke stroke = readStroke(dir / "min.Json");
    EXPECT_EQ(stroke.voxelSize, 1.0);
    ASSERT_EQ(stroke.tools.size(), 1u);
    const ToolStroke& tool = stroke.tools[0];
    EXPECT_EQ(tool.kind, ToolKind::Affine);
    EXPECT_EQ(tool.stiffness, 1.0);
    EXPECT_EQ(tool.compressibility, 0.5);
    ASSERT_EQ(tool.poses.size(), 2u);
    EXPECT_EQ(tool.poses[0].scale, 1.0);
    EXPECT_EQ(tool.poses[1].position, glm::dvec3(1, 2, 3));
    EXPECT_EQ(tool.poses[1].time, 3.5);
    // Read as w, x, y, z and normalised.
    EXPECT_EQ(tool.poses[0].orientation, glm::dquat(1, 0, 0, 0));
    EXPECT_EQ(tool.poses[1].orientation, glm::dquat(0, 0, 1, 0));

    StrokeReadOptions options;
    options.kindOverride = ToolKind::Kelvinlet;
    EXPECT_EQ(readStroke(dir / "min.Json", options).tools[0].kind, ToolKind::Kelvinlet);
}

// A valid stroke as JSON, for the refusal cases to break one thing at a time.
Json validJson() {
    return Json::parse(R"({
      "voxel_size": 0.0013,
      "tools": [{
        "kind": "kelvinlet", "inner_radius": 0.0185, "outer_radius": 0.1297,
        "stiffness": 1.0, "compressibility": 0.5,
        "poses": [
          {"position": [0, 0, 0], "orientation": [1, 0, 0, 0], "scale": 1.0, "time": 332.7},
          {"position": [0.1, 0, 0], "orientation": [1, 0, 0, 0], "scale": 1.0, "time": 332.8},
          {"position": [0.2, 0, 0], "orientation": [1, 0, 0, 0], "scale": 1.0, "time": 332.9}
        ]}]})");
}

TEST(StrokeIo, ValidJsonFixtureReads) {
    ScratchDir dir;
    writeFile(dir / "ok.json", validJson().dump());
    const Stroke stroke = readStrokeJson(dir / "ok.json");
    EXPECT_EQ(stroke.voxelSize, 0.0013);
    EXPECT_EQ(stroke.tools.at(0).poses.size(), 3u);
}

struct BadJsonCase {
    const char* name;
    std::string text;
    std::vector<std::string_view> expected; // message fragments besides the file name
};

// validJson() with one change applied.
template <class Edit>
std::string edited(Edit edit) {
    Json json = validJson();
    edit(json);
    return json.dump();
}

Json& pose(Json& json, size_t i) { return json["tools"][0]["poses"][i]; }

// Each case gets its own file in one scratch directory; the message must name the file.
void expectAllRefused(const std::vector<BadJsonCase>& cases) {
    ScratchDir dir;
    for (const BadJsonCase& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string fileName = std::string("bad_") + c.name + ".json";
        writeFile(dir / fileName, c.text);
        std::vector<std::string_view> parts = c.expected;
        parts.push_back(fileName);
        EXPECT_TRUE(failsWith([&] { readStroke(dir / fileName); }, parts));
    }
}

TEST(StrokeIo, RefusesMalformedJson) {
    expectAllRefused(
        {BadJsonCase{"syntax", R"({"tools": [}")", {"invalid JSON"}},
         BadJsonCase{"empty", "", {"invalid JSON"}},
         BadJsonCase{"top_level_array", "[]", {"expected an object"}},
         BadJsonCase{"missing_tools", R"({"voxel_size": 1})", {"tools: missing required key"}},
         BadJsonCase{"missing_inner_radius",
                     edited([](Json& j) { j["tools"][0].erase("inner_radius"); }),
                     {"tools[0].inner_radius: missing required key"}},
         BadJsonCase{"missing_time",
                     edited([](Json& j) { pose(j, 1).erase("time"); }),
                     {"tools[0].poses[1].time: missing required key"}},
         BadJsonCase{"missing_kind",
                     edited([](Json& j) { j["tools"][0].erase("kind"); }),
                     {"tools[0].kind: missing required key"}},
         BadJsonCase{"radius_as_string",
                     edited([](Json& j) { j["tools"][0]["outer_radius"] = "0.1"; }),
                     {"tools[0].outer_radius: expected a number, found string"}},
         BadJsonCase{"time_as_bool",
                     edited([](Json& j) { pose(j, 0)["time"] = true; }),
                     {"tools[0].poses[0].time: expected a number"}},
         BadJsonCase{"tools_as_object",
                     edited([](Json& j) { j["tools"] = Json::object(); }),
                     {"tools: expected an array"}},
         BadJsonCase{"pose_as_number",
                     edited([](Json& j) { pose(j, 2) = 4; }),
                     {"tools[0].poses[2]: expected an object"}},
         BadJsonCase{"quaternion_of_3",
                     edited([](Json& j) {
                         pose(j, 2)["orientation"] = {1, 0, 0};
                     }),
                     {"tools[0].poses[2].orientation: expected 4 numbers"}},
         BadJsonCase{"position_with_string",
                     edited([](Json& j) {
                         pose(j, 0)["position"] = {0, "1", 2};
                     }),
                     {"tools[0].poses[0].position: expected 3 numbers"}},
         BadJsonCase{"equal_times",
                     edited([](Json& j) { pose(j, 2)["time"] = 332.8; }),
                     {"tools[0].poses[2].time: times must increase strictly (332.8 after 332.8)"}},
         BadJsonCase{"decreasing_time",
                     edited([](Json& j) { pose(j, 1)["time"] = 332.6; }),
                     {"tools[0].poses[1].time: times must increase strictly (332.6 after 332.7)"}},
         BadJsonCase{"negative_outer_radius",
                     edited([](Json& j) { j["tools"][0]["outer_radius"] = -0.1; }),
                     {"tools[0].outer_radius: must be finite and > 0"}},
         BadJsonCase{"negative_inner_radius",
                     edited([](Json& j) { j["tools"][0]["inner_radius"] = -0.1; }),
                     {"tools[0].inner_radius: must be finite and >= 0"}},
         BadJsonCase{"compressibility_0_7",
                     edited([](Json& j) { j["tools"][0]["compressibility"] = 0.7; }),
                     {"tools[0].compressibility: must be in [0, 0.5], is 0.7"}},
         BadJsonCase{"zero_stiffness",
                     edited([](Json& j) { j["tools"][0]["stiffness"] = 0; }),
                     {"tools[0].stiffness"}},
         BadJsonCase{"unknown_kind",
                     edited([](Json& j) { j["tools"][0]["kind"] = "elastic"; }),
                     {"tools[0].kind: unknown kind \"elastic\""}},
         BadJsonCase{"unknown_key",
                     edited([](Json& j) { j["tools"][0]["stifness"] = 2; }),
                     {"tools[0].stifness: unknown key"}},
         BadJsonCase{
             "zero_scale", edited([](Json& j) { pose(j, 1)["scale"] = 0; }), {"tools[0].poses[1].scale"}},
         BadJsonCase{"quaternion_not_unit",
                     edited([](Json& j) {
                         pose(j, 1)["orientation"] = {0.9, 0, 0, 0};
                     }),
                     {"tools[0].poses[1].orientation: quaternion norm 0.9"}},
         BadJsonCase{"one_pose",
                     edited([](Json& j) {
                         j["tools"][0]["poses"].erase(1);
                         j["tools"][0]["poses"].erase(1);
                     }),
                     {"tools[0].poses: at least 2 poses"}},
         BadJsonCase{"no_tools", edited([](Json& j) { j["tools"] = Json::array(); }), {"at least one tool"}},
         BadJsonCase{"seventeen_tools",
                     edited([](Json& j) {
                         const Json tool = j["tools"][0];
                         for (int k = 0; k < 16; ++k) j["tools"].push_back(tool);
                     }),
                     {"at most 16 tools"}},
         BadJsonCase{"too_many_mirrored_tools",
                     edited([](Json& j) {
                         j["tools"].push_back(j["tools"][0]);
                         j["tools"].push_back(j["tools"][0]);
                         j["symmetry"] = {{"axes", "xyz"}};
                     }),
                     {"at most 16 tools", "3 × 8 copies"}},
         BadJsonCase{"symmetry_axes_w", edited([](Json& j) { j["symmetry"] = {{"axes", "xw"}}; }),
                     {"symmetry.axes", "\"xw\""}},
         BadJsonCase{"symmetry_axes_repeated", edited([](Json& j) { j["symmetry"] = {{"axes", "xx"}}; }),
                     {"symmetry.axes", "\"xx\""}},
         BadJsonCase{"symmetry_axes_empty", edited([](Json& j) { j["symmetry"] = {{"axes", ""}}; }),
                     {"symmetry.axes"}},
         BadJsonCase{"symmetry_origin_two", edited([](Json& j) { j["symmetry"] = {{"axes", "x"}, {"origin", {1, 2}}}; }),
                     {"symmetry.origin", "3 numbers"}},
         BadJsonCase{"symmetry_origin_text",
                     edited([](Json& j) { j["symmetry"] = {{"axes", "x"}, {"origin", {1, "a", 2}}}; }),
                     {"symmetry.origin"}},
         BadJsonCase{"symmetry_unknown_key",
                     edited([](Json& j) { j["symmetry"] = {{"axes", "x"}, {"plane", 1}}; }),
                     {"symmetry.plane", "unknown key"}},
         BadJsonCase{"zero_voxel_size", edited([](Json& j) { j["voxel_size"] = 0; }), {"voxel_size"}},
         BadJsonCase{
             "overflowing_number",
             R"({"tools": [{"kind": "affine", "inner_radius": 0, "outer_radius": 1e999, "poses": []}]})",
             {"invalid JSON", "number overflow"}}});
}

TEST(StrokeIo, ValidateStrokeNamesFieldAndAllowsInnerAboveOuter) {
    Stroke stroke = sampleStroke();
    stroke.tools[1].innerRadius = 5.0 * stroke.tools[1].outerRadius; // clamped by the solver
    EXPECT_NO_THROW(validateStroke(stroke, "here"));
    stroke.tools[1].poses[3].position.y = std::nan("");
    EXPECT_TRUE(failsWith([&] { validateStroke(stroke, "here"); },
                          {"here: tools[1].poses[3].position: non-finite"}));
}

TEST(StrokeIo, WriteRefusesInvalidStrokeAndWritesNothing) {
    ScratchDir dir;
    Stroke stroke = sampleStroke();
    stroke.tools[0].poses[2].time = stroke.tools[0].poses[1].time;
    EXPECT_TRUE(failsWith([&] { writeStrokeJson(stroke, dir / "w.json"); }, {"w.json", "poses[2].time"}));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(StrokeIo, ReadRefusesMissingFileAndUnknownExtension) {
    ScratchDir dir;
    EXPECT_TRUE(failsWith([&] { readStroke(dir / "absent.json"); }, {"absent.json", "not found"}));
    EXPECT_TRUE(failsWith([&] { readStroke(dir / "absent.bin"); }, {"absent.bin", "not found"}));
    writeFile(dir / "stroke.txt", "{}");
    EXPECT_TRUE(failsWith([&] { readStroke(dir / "stroke.txt"); }, {"stroke.txt", "extension"}));
}

// ---------------------------------------------------------------------------
// Recorded .bin, synthetic

struct BinPose {
    std::array<float, 3> position{0, 0, 0};
    std::array<float, 4> orientation{1, 0, 0, 0}; // w, x, y, z
    float scale = 1;
    float time = 0;
};

void putU32(std::string& out, uint32_t value) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((value >> (8 * k)) & 0xffu);
}

void putF32(std::string& out, float value) { putU32(out, std::bit_cast<uint32_t>(value)); }

struct BinStroke {
    uint32_t version = 0;
    std::vector<BinPose> poses;
    float inner = 0.02f;
    float outer = 0.13f;
    uint32_t elastic = 1;
    float stiffness = 2.0f;
    float compressibility = 0.25f;

    std::string encode() const {
        std::string out;
        putU32(out, version);
        putU32(out, static_cast<uint32_t>(poses.size()));
        for (const BinPose& p : poses) {
            for (float v : p.position) putF32(out, v);
            for (float v : p.orientation) putF32(out, v);
            putF32(out, p.scale);
            putF32(out, p.time);
        }
        putF32(out, inner);
        putF32(out, outer);
        putU32(out, elastic);
        putF32(out, stiffness);
        putF32(out, compressibility);
        return out;
    }
};

BinStroke sampleBin() {
    BinStroke bin;
    bin.poses.push_back({{0.5f, -0.25f, 1.125f}, {0.0f, 0.6f, 0.0f, 0.8f}, 1.0f, 100.5f});
    bin.poses.push_back({{0.6f, -0.25f, 1.125f}, {1.0f, 0.0f, 0.0f, 0.0f}, 1.5f, 100.75f});
    bin.poses.push_back({{0.7f, -0.25f, 1.0f}, {0.5f, 0.5f, 0.5f, 0.5f}, 2.0f, 101.0f});
    return bin;
}

TEST(StrokeIo, ReadsSyntheticBinExactly) {
    ScratchDir dir;
    const BinStroke bin = sampleBin();
    writeFile(dir / "s.bin", bin.encode());
    const Stroke stroke = readStrokeBin(dir / "s.bin");
    EXPECT_EQ(stroke.voxelSize, kRecordedVoxelSize);
    ASSERT_EQ(stroke.tools.size(), 1u);
    const ToolStroke& tool = stroke.tools[0];
    EXPECT_EQ(tool.kind, ToolKind::Kelvinlet);
    EXPECT_EQ(tool.innerRadius, double{0.02f});
    EXPECT_EQ(tool.outerRadius, double{0.13f});
    EXPECT_EQ(tool.stiffness, 2.0);
    EXPECT_EQ(tool.compressibility, 0.25);
    ASSERT_EQ(tool.poses.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        const BinPose& p = bin.poses[i];
        EXPECT_EQ(tool.poses[i].position, glm::dvec3(p.position[0], p.position[1], p.position[2]));
        EXPECT_EQ(tool.poses[i].scale, double{p.scale});
        EXPECT_EQ(tool.poses[i].time, double{p.time});
        EXPECT_NEAR(quaternionNorm(tool.poses[i].orientation), 1.0, 1e-12);
    }
    // Stored w, x, y, z.
    EXPECT_NEAR(tool.poses[0].orientation.w, 0.0, 1e-7);
    EXPECT_NEAR(tool.poses[0].orientation.x, 0.6, 1e-7);
    EXPECT_NEAR(tool.poses[0].orientation.z, 0.8, 1e-7);

    StrokeReadOptions options;
    options.binVoxelSize = 0.5;
    options.kindOverride = ToolKind::Affine;
    const Stroke overridden = readStroke(dir / "s.bin", options);
    EXPECT_EQ(overridden.voxelSize, 0.5);
    EXPECT_EQ(overridden.tools[0].kind, ToolKind::Affine);
}

TEST(StrokeIo, BinElasticZeroIsAffine) {
    ScratchDir dir;
    BinStroke bin = sampleBin();
    bin.elastic = 0;
    writeFile(dir / "a.BIN", bin.encode());
    EXPECT_EQ(readStroke(dir / "a.BIN").tools[0].kind, ToolKind::Affine);
}

TEST(StrokeIo, BinRefusesVersion1) {
    ScratchDir dir;
    BinStroke bin = sampleBin();
    bin.version = 1;
    writeFile(dir / "v1.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "v1.bin"); }, {"v1.bin", "unsupported version 1"}));
}

TEST(StrokeIo, BinRefusesElastic7) {
    ScratchDir dir;
    BinStroke bin = sampleBin();
    bin.elastic = 7;
    writeFile(dir / "e7.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "e7.bin"); }, {"e7.bin", "elastic flag 7"}));
}

TEST(StrokeIo, BinRefusesSizeMismatch) {
    ScratchDir dir;
    const std::string bytes = sampleBin().encode();
    writeFile(dir / "long.bin", bytes + "x");
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "long.bin"); },
                          {"long.bin", "1 trailing bytes", "expected 136 bytes", "file has 137"}));
    writeFile(dir / "short.bin", bytes.substr(0, bytes.size() - 1));
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "short.bin"); },
                          {"short.bin", "truncated: expected 136 bytes", "file has 135"}));
    // A header claiming 2^32 - 1 poses in a tiny file fails on size, before allocating.
    std::string huge = bytes;
    huge[4] = huge[5] = huge[6] = huge[7] = '\xff';
    writeFile(dir / "huge.bin", huge);
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "huge.bin"); },
                          {"huge.bin", "truncated: expected 154618822648 bytes"}));
}

TEST(StrokeIo, BinRefusesInvalidValues) {
    ScratchDir dir;
    BinStroke bin = sampleBin();
    bin.poses[2].time = bin.poses[1].time;
    writeFile(dir / "t.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "t.bin"); },
                          {"t.bin: poses[2].time: times must increase strictly (100.75 after 100.75)"}));

    bin = sampleBin();
    bin.poses[1].orientation = {0.5f, 0.0f, 0.0f, 0.0f};
    writeFile(dir / "q.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "q.bin"); }, {"q.bin: poses[1].orientation"}));

    bin = sampleBin();
    bin.compressibility = 0.7f;
    writeFile(dir / "c.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "c.bin"); }, {"c.bin: compressibility"}));

    bin = sampleBin();
    bin.poses[0].position[1] = std::bit_cast<float>(0x7fc00000u); // NaN
    writeFile(dir / "n.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "n.bin"); }, {"n.bin: poses[0].position: non-finite"}));

    bin = sampleBin();
    bin.poses.resize(1);
    writeFile(dir / "one.bin", bin.encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "one.bin"); }, {"one.bin: poses: at least 2 poses"}));

    StrokeReadOptions options;
    options.binVoxelSize = -1.0;
    writeFile(dir / "ok.bin", sampleBin().encode());
    EXPECT_TRUE(failsWith([&] { readStrokeBin(dir / "ok.bin", options); }, {"ok.bin", "voxel_size"}));
}

// ---------------------------------------------------------------------------
// Recorded .bin, from shared/data/strokes (read in place, never copied here)

void expectRecording(const Stroke& stroke, size_t poseCount) {
    EXPECT_EQ(stroke.voxelSize, kRecordedVoxelSize);
    ASSERT_EQ(stroke.tools.size(), 1u);
    const ToolStroke& tool = stroke.tools[0];
    EXPECT_EQ(tool.kind, ToolKind::Affine); // elastic flag 0 in all recordings
    ASSERT_EQ(tool.poses.size(), poseCount);
    for (size_t i = 0; i < tool.poses.size(); ++i) {
        EXPECT_NEAR(quaternionNorm(tool.poses[i].orientation), 1.0, 1e-12) << "pose " << i;
        if (i > 0) {
            EXPECT_GT(tool.poses[i].time, tool.poses[i - 1].time) << "pose " << i;
        }
    }
}

TEST(StrokeIo, ReadsRecordingTest0) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    const Stroke stroke = readStroke(path);
    expectRecording(stroke, 66);
    EXPECT_NEAR(stroke.tools[0].outerRadius, 0.12966, 1e-5);
    EXPECT_NEAR(stroke.tools[0].innerRadius, 0.018524, 1e-5);
    EXPECT_NEAR(stroke.tools[0].poses.front().time, 332.7165, 1e-3);
}

TEST(StrokeIo, ReadsRecordingTest1Left) {
    SF_REQUIRE_RECORDING(path, "test1_lefthandstroke.bin");
    expectRecording(readStroke(path), 70);
}

TEST(StrokeIo, ReadsRecordingTest1Right) {
    SF_REQUIRE_RECORDING(path, "test1_righthandstroke.bin");
    expectRecording(readStroke(path), 70);
}

TEST(StrokeIo, RecordedStrokeSurvivesJsonRoundTrip) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    ScratchDir dir;
    const Stroke stroke = readStroke(path);
    writeStrokeJson(stroke, dir / "test0.json");
    expectSameStroke(stroke, readStroke(dir / "test0.json"));
}

TEST(StrokeIo, TruncatedRecordingIsRefused) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    ScratchDir dir;
    const std::string bytes = readFile(path);
    ASSERT_EQ(bytes.size(), 8u + 36u * 66u + 20u);
    for (size_t keep : {size_t{0}, size_t{3}, size_t{7}, size_t{8}, size_t{44}, size_t{1000},
                        bytes.size() - 20, bytes.size() - 1}) {
        SCOPED_TRACE("keeping " + std::to_string(keep) + " bytes");
        const auto cut = dir / ("cut" + std::to_string(keep) + ".bin");
        writeFile(cut, bytes.substr(0, keep));
        EXPECT_TRUE(failsWith([&] { readStroke(cut); }, {cut.filename().string(), "truncated"}));
    }
}

} // namespace
} // namespace sculptflow
