// `sculptflow render` and the mesh renderer: a lit image, halves that differ only where the tool moved, flag colours.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <sculptflow/context.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/stroke.hpp>
#include "src/kernel.hpp"
#include "host/context_impl.hpp"
#include "host/mesh_renderer.hpp"
#include "cli_runner.hpp"
#include "commands.hpp"
#include "heat_map.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::failsWith;
using test::ScratchDir;

constexpr uint32_t kWidth = 256, kHeight = 128;

// Turns validation on for the contexts the command creates, and puts the
// environment back afterwards; a leak reported at context destruction fails.
class Render : public testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(lateValidationMessages(), 0); }

    // Runs `sculptflow render <options> --size 256x128 --out <out>` in-process and reads the image back.
    static RgbaImage render(std::vector<std::string> options, const std::filesystem::path& out) {
        options.insert(options.begin(), "render");
        options.insert(options.end(), {"--size", std::to_string(kWidth) + "x" + std::to_string(kHeight), "--out",
                                       out.string()});
        test::runCli(&cli::addRenderCommand, options);
        return readPng(out);
    }

    test::ValidationOn validation_;
};

// A small icosphere at the built-in stroke's tool tip, and that stroke, as files.
struct SmallCase {
    std::filesystem::path mesh, stroke;
};

SmallCase writeSmallCase(const ScratchDir& dir, Stroke stroke, const Mesh* extra = nullptr) {
    const ToolStroke& tool = stroke.tools[0];
    Mesh mesh = icosphere(3, glm::vec3(tool.poses[0].position), float(0.3 * tool.outerRadius));
    if (extra) {
        const uint32_t base = uint32_t(mesh.positions.size());
        mesh.positions.insert(mesh.positions.end(), extra->positions.begin(), extra->positions.end());
        mesh.faceSizes.insert(mesh.faceSizes.end(), extra->faceSizes.begin(), extra->faceSizes.end());
        for (uint32_t i : extra->faceIndices) mesh.faceIndices.push_back(base + i);
    }
    SmallCase files{dir / "sphere.obj", dir / "stroke.json"};
    writeMesh(mesh, files.mesh);
    writeStrokeJson(stroke, files.stroke);
    return files;
}

std::vector<std::string> inputs(const SmallCase& files) {
    return {"--mesh", files.mesh.string(), "--stroke", files.stroke.string()};
}

float toLinear(uint8_t c) {
    float v = float(c) / 255.0f;
    return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
}

// Lighting scales linear RGB, so a lit colour keeps its chromaticity.
glm::vec3 chromaticity(glm::vec3 linear) { return linear / std::max(linear.r + linear.g + linear.b, 1e-6f); }

bool hasChromaticityOf(const uint8_t* pixel, glm::vec3 srgb, float tolerance = 0.04f) {
    glm::vec3 linear(toLinear(pixel[0]), toLinear(pixel[1]), toLinear(pixel[2]));
    if (linear.r + linear.g + linear.b < 0.02f) return false; // too dark to tell
    glm::vec3 target(toLinear(uint8_t(srgb.r * 255.0f)), toLinear(uint8_t(srgb.g * 255.0f)),
                     toLinear(uint8_t(srgb.b * 255.0f)));
    return glm::length(chromaticity(linear) - chromaticity(target)) < tolerance;
}

int maxChannelDifference(const uint8_t* a, const uint8_t* b) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a[c]) - int(b[c])));
    return d;
}

// Pixels of the two halves' mesh areas (below the titles, above the legend), compared.
struct Halves {
    size_t area = 0, leftShape = 0, rightShape = 0, differing = 0;
};

Halves compareHalves(const RgbaImage& image, int threshold) {
    const cli::RenderLayout layout = cli::renderLayout(image.width, image.height);
    const uint8_t* background = image.at(2, layout.titleHeight + 1);
    Halves h;
    // Column 0 of the right half holds the divider.
    for (uint32_t y = layout.titleHeight; y < layout.panelHeight; ++y)
        for (uint32_t x = 1; x < layout.panelWidth; ++x) {
            const uint8_t* left = image.at(x, y);
            const uint8_t* right = image.at(layout.panelWidth + x, y);
            ++h.area;
            h.leftShape += maxChannelDifference(left, background) > 8;
            h.rightShape += maxChannelDifference(right, background) > 8;
            h.differing += maxChannelDifference(left, right) > threshold;
        }
    return h;
}

// Pixels of the shapes (not the background) in both halves with the colour's chromaticity.
size_t countInPanels(const RgbaImage& image, glm::vec3 color) {
    const cli::RenderLayout layout = cli::renderLayout(image.width, image.height);
    const uint8_t* background = image.at(2, layout.titleHeight + 1);
    size_t count = 0;
    for (uint32_t y = layout.titleHeight; y < layout.panelHeight; ++y)
        for (uint32_t x = 0; x < image.width; ++x)
            count += maxChannelDifference(image.at(x, y), background) > 8 && hasChromaticityOf(image.at(x, y), color);
    return count;
}

TEST_F(Render, ShadedImageShowsTheLitShapeAndTheMove) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    const RgbaImage image = render(inputs(writeSmallCase(dir, defaultStroke())), dir / "shaded.png");
    ASSERT_EQ(image.width, kWidth);
    ASSERT_EQ(image.height, kHeight);

    std::set<uint32_t> distinct;
    for (size_t i = 0; i < image.pixels.size(); i += 4)
        distinct.insert(uint32_t(image.pixels[i]) << 16 | uint32_t(image.pixels[i + 1]) << 8 | image.pixels[i + 2]);
    EXPECT_GT(distinct.size(), 100u);

    // Lit clay: brightness varies across the shape.
    const cli::RenderLayout layout = cli::renderLayout(kWidth, kHeight);
    int darkest = 255, brightest = 0;
    for (uint32_t y = layout.titleHeight; y < layout.panelHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x)
            if (hasChromaticityOf(image.at(x, y), cli::kClayColor, 0.02f)) {
                darkest = std::min<int>(darkest, image.at(x, y)[1]);
                brightest = std::max<int>(brightest, image.at(x, y)[1]);
            }
    EXPECT_GT(brightest - darkest, 60) << "darkest " << darkest << ", brightest " << brightest;

    const Halves h = compareHalves(image, 24);
    EXPECT_GT(h.leftShape, 150u);
    EXPECT_GT(h.rightShape, 150u);
    EXPECT_GT(h.differing, h.area / 50) << "the deformed half looks like the original";
}

TEST_F(Render, StillToolGivesIdenticalHalves) {
    SF_REQUIRE_VULKAN();
    Stroke stroke = defaultStroke();
    for (Pose& pose : stroke.tools[0].poses) {
        const double time = pose.time;
        pose = stroke.tools[0].poses[0];
        pose.time = time;
    }
    ScratchDir dir;
    const RgbaImage image = render(inputs(writeSmallCase(dir, stroke)), dir / "still.png");
    const Halves h = compareHalves(image, 2);
    EXPECT_GT(h.leftShape, 150u);
    EXPECT_EQ(h.leftShape, h.rightShape);
    EXPECT_LE(h.differing, h.area / 1000);
}

TEST_F(Render, FlagsShowCulledVerticesInTheirColour) {
    SF_REQUIRE_VULKAN();
    // An affine tool moves nothing beyond its outer radius: a second sphere
    // behind the tool, clear of it, is culled whole.
    Stroke stroke = defaultStroke();
    ToolStroke& tool = stroke.tools[0];
    tool.kind = ToolKind::Affine;
    const glm::dvec3 pull = glm::normalize(tool.poses.back().position - tool.poses[0].position);
    const Mesh far = icosphere(2, glm::vec3(tool.poses[0].position - 3.0 * tool.outerRadius * pull),
                               float(0.8 * tool.outerRadius));
    ScratchDir dir;
    const SmallCase files = writeSmallCase(dir, stroke, &far);

    std::vector<std::string> flags = inputs(files);
    flags.insert(flags.end(), {"--color", "flags"});
    const RgbaImage flagged = render(flags, dir / "flags.png");
    const glm::vec3 culled = cli::flagColor(kernel::kFlagCulled);
    EXPECT_GT(countInPanels(flagged, culled), 150u);
    EXPECT_GT(countInPanels(flagged, cli::flagColor(0)), 50u);

    // The same scene in clay shows no culled colour: the check can tell them apart.
    const RgbaImage shaded = render(inputs(files), dir / "shaded.png");
    EXPECT_LT(countInPanels(shaded, culled), 5u);
}

TEST_F(Render, NonFiniteVertexStillShowsItsFlagColour) {
    SF_REQUIRE_VULKAN();
    Context context(ContextOptions{.validation = test::validate()});
    MeshRenderer renderer(context);
    Mesh sphere = icosphere(2, glm::vec3(0.0f), 1.0f);
    // The vertex facing the camera becomes NaN; it is drawn among its neighbours.
    size_t facing = 0;
    for (size_t i = 0; i < sphere.positions.size(); ++i)
        if (glm::dot(sphere.positions[i], cameraDirection()) > glm::dot(sphere.positions[facing], cameraDirection()))
            facing = i;
    sphere.positions[facing] = glm::vec3(std::numeric_limits<float>::quiet_NaN());
    std::vector<glm::vec3> colors(sphere.positions.size(), cli::flagColor(0));
    colors[facing] = cli::flagColor(kernel::kFlagNonFinite);
    const std::span<const glm::vec3> shapes[] = {sphere.positions};
    const MeshView view{sphere.positions, colors, sphere.faceSizes, sphere.faceIndices, fitCamera(shapes, 1.0f),
                        0, 0, 128, 128};
    const RgbaImage image = renderer.render(128, 128, std::span(&view, 1), glm::vec3(1.0f));
    size_t flagged = 0;
    for (uint32_t y = 0; y < 128; ++y)
        for (uint32_t x = 0; x < 128; ++x)
            flagged += hasChromaticityOf(image.at(x, y), cli::flagColor(kernel::kFlagNonFinite), 0.1f);
    EXPECT_GT(flagged, 30u);
    EXPECT_NO_THROW(context.throwOnValidationMessages());
}

TEST_F(Render, RefusesAnOutputThatIsNotPngBeforeAnyWork) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    test::writeFile(dir / "broken.json", "{");
    const std::vector<std::string> broken = {"--stroke", (dir / "broken.json").string()};
    // The unreadable stroke is never read: the output path is refused first.
    EXPECT_TRUE(failsWith([&] { render(broken, dir / "image.jpg"); }, {"image.jpg", ".jpg", "expected .png"}));
    EXPECT_FALSE(std::filesystem::exists(dir / "image.jpg"));
    EXPECT_TRUE(failsWith([&] { render(broken, dir / "image.png"); }, {"broken.json"}));
    EXPECT_FALSE(std::filesystem::exists(dir / "image.png"));
}

TEST_F(Render, RefusesABadSize) {
    SF_REQUIRE_VULKAN();
    ScratchDir dir;
    for (const char* size : {"12x", "800", "0x400", "100000x100", "64x-3"}) {
        CLI::App app;
        cli::addRenderCommand(app);
        std::vector<std::string> args = {"render", "--size", size, "--out", (dir / "a.png").string()};
        std::reverse(args.begin(), args.end());
        EXPECT_TRUE(failsWith([&] { app.parse(args); }, {"--size", size})) << size;
    }
}

TEST_F(Render, RampGetsLighterAndFlagColoursDiffer) {
    SF_REQUIRE_VULKAN();
    auto lightness = [](glm::vec3 c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; };
    for (int i = 1; i <= 64; ++i)
        EXPECT_GT(lightness(cli::rampColor(float(i) / 64.0f)), lightness(cli::rampColor(float(i - 1) / 64.0f))) << i;
    const auto categories = cli::flagCategories();
    for (size_t a = 0; a < categories.size(); ++a)
        for (size_t b = a + 1; b < categories.size(); ++b)
            EXPECT_GT(glm::length(chromaticity(categories[a].color) - chromaticity(categories[b].color)), 0.05f)
                << categories[a].name << " vs " << categories[b].name;
    EXPECT_EQ(cli::flagColor(kernel::kFlagCulled | kernel::kFlagNonFinite), cli::flagColor(kernel::kFlagNonFinite));
}

} // namespace
} // namespace sculptflow
