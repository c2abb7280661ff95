// The command line's run modes (spec §2, §3.4, §3.5, §5): --mode continuous, --mask
// and a PLY mask property, --symmetry; their statistics; and bad input, refused
// with a clear message, a non-zero exit status and no output file touched.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
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
#include "src/method_table.hpp"
#include "cli_runner.hpp"
#include "command_line.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

using test::failsWith;
using test::readJson;
using test::ScratchDir;

class CliModes : public testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(lateValidationMessages(), 0); }

    // `sculptflow <args>` in-process with every subcommand, validation on.
    static void run(const std::vector<std::string>& args) { test::runCli(&cli::addCommands, args); }
};

std::string maskText(const std::vector<float>& mask) {
    std::string text;
    for (float m : mask) text += std::to_string(m) + "\n";
    return text;
}

// 0 on the half of the mesh below its centre in x, 1 on the rest.
std::vector<float> halfMask(const Mesh& mesh) {
    glm::vec3 centre(0.0f);
    for (const glm::vec3& p : mesh.positions) centre += p / float(mesh.positions.size());
    std::vector<float> mask;
    for (const glm::vec3& p : mesh.positions) mask.push_back(p.x < centre.x ? 0.0f : 1.0f);
    return mask;
}

// ---------------------------------------------------------------------------
// Bad input: the message names the field and the value, the exit status is 1,
// and the output and statistics files keep what they held.

struct BadInputCase {
    const char* name;
    std::vector<std::string> options;         // {MESH}, {MASK}, {STROKE} are replaced by the files below
    std::string maskFile, strokeFile;         // contents; empty: not written
    std::vector<std::string> messageParts;
};

class BadInput : public CliModes, public testing::WithParamInterface<BadInputCase> {};

TEST_P(BadInput, IsAClearErrorAndTouchesNoFile) {
    const BadInputCase& c = GetParam();
    ScratchDir dir;
    const auto mesh = dir / "sphere.obj", mask = dir / "mask.txt", stroke = dir / "stroke.json";
    writeMesh(test::builtInTipSphere(), mesh);
    if (!c.maskFile.empty()) test::writeFile(mask, c.maskFile);
    if (!c.strokeFile.empty()) test::writeFile(stroke, c.strokeFile);
    const auto out = dir / "out.ply", stats = dir / "stats.json";
    test::writeFile(out, test::kSentinel);
    test::writeFile(stats, test::kSentinel);

    std::vector<std::string> args = {"deform", "--mesh", mesh.string(), "--out", out.string(), "--stats",
                                     stats.string()};
    for (std::string option : c.options) {
        if (option == "{MASK}") option = mask.string();
        if (option == "{STROKE}") option = stroke.string();
        args.push_back(option);
    }
    const auto [status, errors] = test::cliExitStatus(args);
    EXPECT_EQ(status, 1) << errors;
    for (const std::string& part : c.messageParts) EXPECT_NE(errors.find(part), std::string::npos) << errors;
    EXPECT_EQ(test::readFile(out), test::kSentinel);
    EXPECT_EQ(test::readFile(stats), test::kSentinel);
    std::printf("  %s\n", errors.c_str());
}

// A one-tool stroke JSON with these pose times.
std::string strokeWithTimes(const std::vector<double>& times) {
    nlohmann::json poses = nlohmann::json::array();
    for (size_t i = 0; i < times.size(); ++i)
        poses.push_back({{"position", {-0.31 + 0.01 * double(i), 0.65, 1.36}},
                         {"orientation", {1, 0, 0, 0}},
                         {"scale", 1.0},
                         {"time", times[i]}});
    nlohmann::json tool = {{"kind", "kelvinlet"}, {"inner_radius", 0.0185}, {"outer_radius", 0.1297},
                           {"stiffness", 1.0},     {"compressibility", 0.5}, {"poses", poses}};
    return nlohmann::json{{"voxel_size", 0.0013}, {"tools", {tool}}}.dump();
}

std::string strokeWithSymmetry(const std::string& axes) {
    nlohmann::json stroke = nlohmann::json::parse(strokeWithTimes({0.0, 0.5}));
    stroke["symmetry"] = {{"axes", axes}, {"origin", {0, 0, 0}}};
    return stroke.dump();
}

INSTANTIATE_TEST_SUITE_P(
    CliModes, BadInput,
    testing::Values(
        BadInputCase{"SymmetryAxesNotInXyz", {"--symmetry", "xw"}, "", "", {"--symmetry", "'xw'", "subset of xyz"}},
        BadInputCase{"SymmetryAxisTwice", {"--symmetry", "xx"}, "", "", {"--symmetry", "'xx'"}},
        BadInputCase{"StrokeSymmetryAxesNotInXyz", {"--stroke", "{STROKE}"}, "", strokeWithSymmetry("q"),
                     {"symmetry.axes", "\"q\""}},
        BadInputCase{"OriginTwoNumbers",
                     {"--symmetry", "x", "--symmetry-origin", "1,2"}, "", "",
                     {"--symmetry-origin", "'1,2'", "three finite numbers"}},
        BadInputCase{"OriginNotFinite",
                     {"--symmetry", "x", "--symmetry-origin", "1,nan,3"}, "", "",
                     {"--symmetry-origin", "'1,nan,3'", "'nan' is not finite"}},
        BadInputCase{"OriginNotANumber",
                     {"--symmetry", "x", "--symmetry-origin", "1,two,3"}, "", "",
                     {"--symmetry-origin", "'two' is not a number"}},
        BadInputCase{"OriginWithoutSymmetry", {"--symmetry-origin", "0,0,0"}, "", "",
                     {"--symmetry-origin", "--symmetry AXES"}},
        BadInputCase{"MaskCountDiffers", {"--mask", "{MASK}"}, "1\n0\n1\n", "",
                     {"mask.txt", "3 mask values", "642 vertices"}},
        BadInputCase{"MaskValueAboveOne", {"--mask", "{MASK}"}, "0.5\n1.5\n", "",
                     {"mask.txt", "line 2", "1.5", "[0, 1]"}},
        BadInputCase{"MaskValueNegative", {"--mask", "{MASK}"}, "-0.25\n", "", {"mask.txt", "line 1", "-0.25"}},
        BadInputCase{"MaskValueNotFinite", {"--mask", "{MASK}"}, "1\nnan\n", "", {"mask.txt", "line 2", "nan"}},
        BadInputCase{"MaskValueInfinite", {"--mask", "{MASK}"}, "inf\n", "", {"mask.txt", "line 1", "inf"}},
        BadInputCase{"ContinuousStrokeWithOnePose", {"--mode", "continuous", "--stroke", "{STROKE}"}, "",
                     strokeWithTimes({1.0}), {"stroke.json", "poses", "at least 2", "found 1"}},
        BadInputCase{"ContinuousStrokeWithTimesNotIncreasing",
                     {"--mode", "continuous", "--stroke", "{STROKE}"}, "", strokeWithTimes({1.0, 2.0, 2.0}),
                     {"stroke.json", "poses[2].time", "increase strictly", "2 after 2"}}),
    [](const testing::TestParamInfo<BadInputCase>& param) { return std::string(param.param.name); });

TEST_F(CliModes, UnknownModeIsAUsageError) {
    ScratchDir dir;
    const auto out = dir / "out.obj";
    test::writeFile(out, test::kSentinel);
    const auto [status, errors] = test::cliExitStatus({"deform", "--mode", "sideways", "--out", out.string()});
    EXPECT_NE(status, 0);
    EXPECT_NE(errors.find("sideways"), std::string::npos) << errors;
    EXPECT_EQ(test::readFile(out), test::kSentinel);
}

TEST_F(CliModes, PlyMaskValueOutOfRangeNamesTheVertex) {
    ScratchDir dir;
    const auto mesh = dir / "masked.ply";
    test::writeFile(mesh, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                          "property float z\nproperty float mask\nelement face 1\n"
                          "property list uchar int vertex_indices\nend_header\n"
                          "0 0 0 1\n1 0 0 0.5\n0 1 0 2\n3 0 1 2\n");
    EXPECT_TRUE(failsWith([&] { readMesh(mesh); }, {"masked.ply", "vertex 2 (mask)", "mask value 2", "[0, 1]"}));
    const auto out = dir / "out.ply";
    test::writeFile(out, test::kSentinel);
    const auto [status, errors] = test::cliExitStatus({"deform", "--mesh", mesh.string(), "--out", out.string()});
    EXPECT_EQ(status, 1);
    EXPECT_NE(errors.find("vertex 2 (mask)"), std::string::npos) << errors;
    EXPECT_EQ(test::readFile(out), test::kSentinel);
}

// ---------------------------------------------------------------------------
// Continuous mode end to end.

void expectRunStatistics(const nlohmann::json& j, const char* mode, size_t segments, size_t vertices) {
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["mode"], mode);
    EXPECT_EQ(j["segments"], segments);
    EXPECT_EQ(j["vertices"], vertices);
    const auto& evaluations = j["evaluations"];
    ASSERT_EQ(evaluations["per_segment"].size(), segments);
    uint64_t sum = 0;
    for (const auto& e : evaluations["per_segment"]) {
        EXPECT_GT(e.get<uint64_t>(), 0u);
        sum += e.get<uint64_t>();
    }
    EXPECT_EQ(evaluations["total"].get<uint64_t>(), sum);
    EXPECT_NEAR(evaluations["mean"].get<double>(), double(sum) / double(vertices), 1e-9);
    for (const char* flag : {"min_step_clamped", "iteration_cap", "non_finite", "culled"})
        EXPECT_TRUE(j["flags"][flag].is_number()) << flag;
    // Existing keys keep working.
    EXPECT_TRUE(evaluations["max"].is_number());
    EXPECT_TRUE(j["steps"]["accepted"].is_number());
    EXPECT_FALSE(j["device"].get<std::string>().empty());
}

TEST_F(CliModes, ContinuousBuiltInCaseWritesPerSegmentStatistics) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const auto stats = dir / "stats.json", out = dir / "out.ply";
    run({"deform", "--built-in", "sphere", "--mode", "continuous", "--stats", stats.string(), "--out", out.string()});
    const nlohmann::json j = readJson(stats);
    const size_t segments = defaultStroke().tools.front().poses.size() - 1;
    expectRunStatistics(j, "continuous", segments, 10242);
    EXPECT_EQ(j["tolerance"]["stroke"], 0.1);
    EXPECT_NEAR(j["tolerance"]["segment"].get<double>(), 0.1 / double(segments), 1e-15);
    // What the kernel worked to: bs32's calibration (toleranceFactor, methods.glsl) of the segment's.
    const double factor = methodTraits(Method::Bs32).toleranceFactor;
    EXPECT_NEAR(j["tolerance"]["internal"].get<double>(), factor * 0.1 / double(segments), 1e-15);
    EXPECT_EQ(j["tools"], 1);
    EXPECT_TRUE(j["symmetry"].is_null());
    EXPECT_TRUE(j["mask"].is_null());
    EXPECT_EQ(readMesh(out).positions.size(), 10242u);

    // Move-tool mode reports one segment, in the same shape.
    run({"deform", "--built-in", "sphere", "--stats", stats.string()});
    expectRunStatistics(readJson(stats), "move", 1, 10242);
}

TEST_F(CliModes, ContinuousCpuReferenceWritesTheSameShape) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const auto mesh = dir / "sphere.obj", stats = dir / "stats.json";
    writeMesh(test::builtInTipSphere(), mesh);
    run({"deform", "--backend", "cpu", "--mode", "continuous", "--mesh", mesh.string(), "--stats", stats.string()});
    const nlohmann::json j = readJson(stats);
    expectRunStatistics(j, "continuous", defaultStroke().tools.front().poses.size() - 1, 642);
    EXPECT_TRUE(j["cpu_ms"].is_number());
}

// validate --mode continuous against the chained double reference, with a mask
// and symmetry too: CPU and GPU within the whole stroke's tolerance.
TEST_F(CliModes, ValidateContinuousWithMaskAndSymmetryPasses) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const Mesh sphere = test::builtInTipSphere();
    const auto mesh = dir / "sphere.obj", mask = dir / "mask.txt";
    writeMesh(sphere, mesh);
    test::writeFile(mask, maskText(halfMask(sphere)));
    const Stroke stroke = defaultStroke();
    const ToolStroke& tool = stroke.tools.front();
    // The mirror plane a little off the tool's start, so that the copies overlap.
    const glm::dvec3 origin = tool.poses.front().position + glm::dvec3(0.02, 0.0, 0.0);
    const std::string originText =
        std::to_string(origin.x) + "," + std::to_string(origin.y) + "," + std::to_string(origin.z);

    struct Case {
        std::vector<std::string> options;
        const char* label;
    };
    const Case cases[] = {
        {{}, "continuous"},
        {{"--mask", mask.string()}, "continuous, masked"},
        {{"--symmetry", "x", "--symmetry-origin", originText}, "continuous, mirrored"},
    };
    for (const Case& c : cases) {
        const auto json = dir / "validate.json";
        std::vector<std::string> args = {"validate", "--mode", "continuous", "--mesh", mesh.string(),
                                         "--method",  "dp45",       "--json", json.string()};
        args.insert(args.end(), c.options.begin(), c.options.end());
        EXPECT_NO_THROW(run(args)) << c.label;
        const nlohmann::json j = readJson(json);
        ASSERT_TRUE(j.is_object()) << c.label;
        EXPECT_EQ(j["passed"], true) << c.label << ": " << j.dump(2);
        EXPECT_EQ(j["input"]["mode"], "continuous");
        EXPECT_EQ(j["input"]["segments"], tool.poses.size() - 1);
        EXPECT_LE(j["gpu_vs_truth"]["max_error_voxels"].get<double>(), 0.1) << c.label;
        EXPECT_LE(j["cpu_vs_truth"]["max_error_voxels"].get<double>(), 0.1) << c.label;
        EXPECT_GT(j["gpu_vs_truth"]["compared_vertices"].get<int>(), 600) << c.label;
        EXPECT_EQ(j["evaluations_per_vertex"]["gpu"]["per_segment"].size(), tool.poses.size() - 1);
        std::printf("  %-22s vs truth max: GPU %.4f, CPU %.4f voxel; GPU vs CPU p99 %.5f voxel; evaluations/vertex "
                    "%.1f\n",
                    c.label, j["gpu_vs_truth"]["max_error_voxels"].get<double>(),
                    j["cpu_vs_truth"]["max_error_voxels"].get<double>(),
                    j["gpu_vs_cpu"]["p99_difference_voxels"].get<double>(),
                    j["evaluations_per_vertex"]["gpu"]["mean"].get<double>());
    }
}

// ---------------------------------------------------------------------------
// Masks.

TEST_F(CliModes, MaskFileZerosLeaveVerticesBitIdentical) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const Mesh sphere = test::builtInTipSphere();
    const std::vector<float> mask = halfMask(sphere);
    const auto mesh = dir / "sphere.obj", maskPath = dir / "mask.txt", stats = dir / "stats.json";
    writeMesh(sphere, mesh);
    test::writeFile(maskPath, maskText(mask));
    for (const char* mode : {"move", "continuous"})
        for (const char* backend : {"gpu", "cpu"}) {
            const auto out = dir / "out.obj";
            run({"deform", "--mesh", mesh.string(), "--mask", maskPath.string(), "--mode", mode, "--backend",
                 backend, "--out", out.string(), "--stats", stats.string()});
            const Mesh input = readMesh(mesh), output = readMesh(out);
            ASSERT_EQ(output.positions.size(), input.positions.size());
            size_t frozen = 0, moved = 0;
            for (size_t i = 0; i < mask.size(); ++i) {
                if (mask[i] == 0.0f) {
                    ++frozen;
                    EXPECT_TRUE(test::sameBits(output.positions[i], input.positions[i])) << mode << " " << backend << " " << i;
                } else if (!test::sameBits(output.positions[i], input.positions[i])) {
                    ++moved;
                }
            }
            EXPECT_GT(frozen, 200u);
            EXPECT_GT(moved, 200u) << mode << " " << backend; // the free half did move
            const nlohmann::json j = readJson(stats);
            EXPECT_EQ(j["mask"]["source"], maskPath.string());
            EXPECT_EQ(j["mask"]["frozen"], frozen);
        }
}

TEST_F(CliModes, PlyMaskPropertyRoundTripsAndIsUsed) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    // sculptflow sphere writes the mask into the PLY (and as text); both read back the same.
    const auto ply = dir / "masked.ply", text = dir / "mask.txt";
    run({"sphere", "--subdivisions", "3", "--center", "0.1,0.2,0.3", "--radius", "0.05", "--freeze", "-y",
         "--feather", "0.01", "--out", ply.string(), "--mask-out", text.string()});
    const Mesh masked = readMesh(ply);
    ASSERT_EQ(masked.mask.size(), 642u);
    EXPECT_EQ(readMask(text, 642), masked.mask);
    const auto zeros = std::count(masked.mask.begin(), masked.mask.end(), 0.0f);
    const auto ones = std::count(masked.mask.begin(), masked.mask.end(), 1.0f);
    EXPECT_GT(zeros, 200);
    EXPECT_GT(ones, 200);
    EXPECT_GT(642 - zeros - ones, 0); // the feather
    for (size_t i = 0; i < masked.positions.size(); ++i) {
        if (masked.positions[i].y < 0.2f - 0.006f) {
            EXPECT_EQ(masked.mask[i], 0.0f) << i;
        }
    }

    // Every PLY encoding carries it exactly.
    for (MeshFormat format : {MeshFormat::PlyAscii, MeshFormat::PlyBinary}) {
        const auto copy = dir / "copy.ply";
        writeMesh(masked, copy, format);
        const Mesh back = readMesh(copy);
        EXPECT_EQ(back.mask, masked.mask);
        EXPECT_EQ(back.positions, masked.positions);
    }

    // deform takes it as the mask, and writes it back out with the result.
    const auto sphere = dir / "sphere.ply", out = dir / "out.ply", stats = dir / "stats.json";
    Mesh onTool = test::builtInTipSphere();
    onTool.mask = halfMask(onTool);
    writeMesh(onTool, sphere);
    run({"deform", "--mesh", sphere.string(), "--out", out.string(), "--stats", stats.string()});
    const Mesh result = readMesh(out);
    EXPECT_EQ(result.mask, onTool.mask);
    for (size_t i = 0; i < onTool.mask.size(); ++i) {
        if (onTool.mask[i] == 0.0f) {
            EXPECT_TRUE(test::sameBits(result.positions[i], onTool.positions[i])) << i;
        }
    }
    const nlohmann::json j = readJson(stats);
    EXPECT_EQ(j["mask"]["source"], sphere.string() + " (vertex property mask)");

    // --mask overrides the property: all ones moves the frozen half too.
    const auto ones1 = dir / "ones.txt";
    test::writeFile(ones1, maskText(std::vector<float>(onTool.positions.size(), 1.0f)));
    run({"deform", "--mesh", sphere.string(), "--mask", ones1.string(), "--out", out.string()});
    const Mesh unmasked = readMesh(out);
    size_t moved = 0;
    for (size_t i = 0; i < onTool.mask.size(); ++i)
        if (onTool.mask[i] == 0.0f && !test::sameBits(unmasked.positions[i], onTool.positions[i])) ++moved;
    EXPECT_GT(moved, 200u);
}

// Issue 47: --mask's values reach a .ply --out, in the encoding asked for.
TEST_F(CliModes, MaskFileReachesAPlyOutputInEitherEncoding) {
    ScratchDir dir;
    const Mesh sphere = test::builtInTipSphere();
    const std::vector<float> mask = halfMask(sphere);
    const auto maskPath = dir / "mask.txt", obj = dir / "sphere.obj", ply = dir / "sphere.ply";
    test::writeFile(maskPath, maskText(mask));
    writeMesh(sphere, obj);
    Mesh withOwnMask = sphere; // --mask wins over the PLY's own property
    withOwnMask.mask.assign(sphere.positions.size(), 1.0f);
    writeMesh(withOwnMask, ply);
    for (const auto& mesh : {obj, ply})
        for (const bool ascii : {false, true}) {
            const auto out = dir / "out.ply";
            std::vector<std::string> args = {"deform", "--backend", "cpu",          "--mesh", mesh.string(),
                                             "--mask", maskPath.string(), "--out", out.string()};
            if (ascii) args.push_back("--ply-ascii");
            run(args);
            const std::string bytes = test::readFile(out);
            EXPECT_EQ(bytes.rfind(ascii ? "ply\nformat ascii 1.0\n" : "ply\nformat binary_little_endian 1.0\n", 0),
                      0u)
                << mesh << " ascii " << ascii;
            EXPECT_NE(bytes.find("property float mask\n"), std::string::npos) << mesh << " ascii " << ascii;
            EXPECT_EQ(readMesh(out).mask, readMask(maskPath, mask.size())) << mesh << " ascii " << ascii;
        }
    const auto [status, errors] = test::cliExitStatus(
        {"deform", "--backend", "cpu", "--mesh", obj.string(), "--out", (dir / "o.obj").string(), "--ply-ascii"});
    EXPECT_EQ(status, 1);
    EXPECT_NE(errors.find("--ply-ascii: --out"), std::string::npos) << errors;
    EXPECT_NE(errors.find("is not a .ply"), std::string::npos) << errors;
    EXPECT_FALSE(std::filesystem::exists(dir / "o.obj"));
}

// ---------------------------------------------------------------------------
// Symmetry.

// Mirror pairs of a mesh symmetric about the plane x = cx: index → index of its mirror image.
std::vector<size_t> mirrorPartners(const std::vector<glm::vec3>& positions, float cx) {
    std::map<std::tuple<long, long, long>, size_t> byPosition;
    auto key = [](double x, double y, double z) {
        return std::make_tuple(std::lround(x * 1e5), std::lround(y * 1e5), std::lround(z * 1e5));
    };
    for (size_t i = 0; i < positions.size(); ++i)
        byPosition[key(positions[i].x - cx, positions[i].y, positions[i].z)] = i;
    std::vector<size_t> partners;
    for (const glm::vec3& p : positions) {
        const auto it = byPosition.find(key(-(p.x - cx), p.y, p.z));
        partners.push_back(it == byPosition.end() ? SIZE_MAX : it->second);
    }
    return partners;
}

TEST_F(CliModes, SymmetryFlagMirrorsTheToolAndKeepsASymmetricMeshSymmetric) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    // A sphere whose centre is on the mirror plane, the tool at its surface off the plane.
    const Stroke stroke = defaultStroke();
    const glm::dvec3 tip = stroke.tools.front().poses.front().position;
    const glm::dvec3 centre = tip - glm::dvec3(0.06, 0.0, 0.0);
    const auto mesh = dir / "sphere.ply", out = dir / "out.ply", stats = dir / "stats.json";
    const std::string centreText =
        std::to_string(centre.x) + "," + std::to_string(centre.y) + "," + std::to_string(centre.z);
    run({"sphere", "--subdivisions", "3", "--center", centreText, "--radius", "0.06", "--out", mesh.string()});
    const Mesh sphere = readMesh(mesh);
    const std::vector<size_t> partners = mirrorPartners(sphere.positions, float(centre.x));
    ASSERT_EQ(std::count(partners.begin(), partners.end(), SIZE_MAX), 0);

    run({"deform", "--mesh", mesh.string(), "--symmetry", "x", "--symmetry-origin", centreText, "--out",
         out.string(), "--stats", stats.string()});
    const nlohmann::json j = readJson(stats);
    EXPECT_EQ(j["tools"], 2);
    EXPECT_EQ(j["symmetry"]["axes"], "x");
    EXPECT_NEAR(j["symmetry"]["origin"][0].get<double>(), centre.x, 1e-6);
    const Mesh result = readMesh(out);
    const double voxel = stroke.voxelSize;
    double asymmetry = 0.0, moved = 0.0;
    for (size_t i = 0; i < partners.size(); ++i) {
        const glm::dvec3 p(result.positions[i]), q(result.positions[partners[i]]);
        const glm::dvec3 mirrored(2.0 * centre.x - q.x, q.y, q.z);
        asymmetry = std::max(asymmetry, glm::length(p - mirrored) / voxel);
        moved = std::max(moved, glm::length(p - glm::dvec3(sphere.positions[i])) / voxel);
    }
    std::printf("  mirrored pull: max move %.1f voxel, max asymmetry %.5f voxel\n", moved, asymmetry);
    EXPECT_GT(moved, 10.0);
    EXPECT_LT(asymmetry, 0.01);

    // "none" drops a stroke's own symmetry.
    run({"deform", "--mesh", mesh.string(), "--symmetry", "none", "--stats", stats.string()});
    EXPECT_EQ(readJson(stats)["tools"], 1);
    EXPECT_TRUE(readJson(stats)["symmetry"].is_null());
}

TEST_F(CliModes, SymmetryFlagAppliesToARecordedStroke) {
    SF_REQUIRE_VULKAN();
    SF_REQUIRE_RECORDING(path, "test1_lefthandstroke.bin");
    ScratchDir dir;
    const auto stats = dir / "stats.json";
    const Stroke stroke = readStroke(path);
    const glm::dvec3 tip = stroke.tools.front().poses.front().position;
    const std::string origin = std::to_string(tip.x + 0.03) + ",0,0";
    run({"deform", "--stroke", path.string(), "--mode", "continuous", "--symmetry", "x", "--symmetry-origin", origin,
         "--stats", stats.string()});
    const nlohmann::json j = readJson(stats);
    EXPECT_EQ(j["tools"], 2);
    EXPECT_EQ(j["segments"], stroke.tools.front().poses.size() - 1);
    EXPECT_EQ(j["symmetry"]["axes"], "x");
}

TEST_F(CliModes, RenderComparesModesAndShowsTheMask) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const Mesh sphere = test::builtInTipSphere();
    const auto mesh = dir / "sphere.obj", mask = dir / "mask.txt", png = dir / "modes.png";
    writeMesh(sphere, mesh);
    test::writeFile(mask, maskText(halfMask(sphere)));
    run({"render", "--mesh", mesh.string(), "--compare-modes", "--size", "384x128", "--out", png.string()});
    EXPECT_EQ(readPng(png).width, 384u);
    run({"render", "--mesh", mesh.string(), "--mask", mask.string(), "--color", "mask", "--mode", "continuous",
         "--size", "256x128", "--out", png.string()});
    EXPECT_EQ(readPng(png).width, 256u);
    // No mask to show: an error, and the picture stays as it was.
    test::writeFile(png, test::kSentinel);
    const auto [status, errors] = test::cliExitStatus(
        {"render", "--mesh", mesh.string(), "--color", "mask", "--size", "256x128", "--out", png.string()});
    EXPECT_EQ(status, 1);
    EXPECT_NE(errors.find("--color mask"), std::string::npos) << errors;
    EXPECT_EQ(test::readFile(png), test::kSentinel);
}

} // namespace
} // namespace sculptflow
