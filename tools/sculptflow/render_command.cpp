// `sculptflow render`: the mesh before and after a move, side by side, drawn with Vulkan into a PNG.
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "commands.hpp"
#include "cpu_solver.hpp"
#include "error.hpp"
#include "gpu_solver.hpp"
#include "heat_map.hpp"
#include "mesh_renderer.hpp"
#include "move_inputs.hpp"

namespace sculptflow::cli {
namespace {

constexpr glm::vec3 kBackground{0.95f, 0.95f, 0.96f};
constexpr glm::vec3 kInk{0.10f, 0.10f, 0.12f};
constexpr glm::vec3 kDivider{0.70f, 0.70f, 0.72f};
constexpr uint32_t kMinWidth = 64, kMinHeight = 96, kMaxSize = 4096;

struct RenderArgs {
    MoveInputArgs inputs;
    std::string backend = "gpu";
    std::string method = "bs32";
    double tolerance = 0.1;
    std::string color = "shaded";
    std::string size = "1600x800";
    std::string outPath;
};

struct Solved {
    std::vector<glm::vec3> positions; // voxels
    std::vector<VertexStatistics> statistics;
    SolveReport report;
};

// Refuses an output path before the work, not after it.
void checkImageOutputPath(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".png") throw Error(path + ": unknown image extension '" + ext + "' (expected .png)");
}

uint32_t parseDimension(std::string_view text, const std::string& whole) {
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw Error("--size '" + whole + "': expected WIDTHxHEIGHT in pixels, such as 1600x800");
    return value;
}

// "WxH" in pixels, each within limits the layout can use.
std::pair<uint32_t, uint32_t> parseSize(const std::string& text) {
    const size_t x = text.find_first_of("xX");
    if (x == std::string::npos) throw Error("--size '" + text + "': expected WIDTHxHEIGHT in pixels, such as 1600x800");
    const uint32_t width = parseDimension(std::string_view(text).substr(0, x), text);
    const uint32_t height = parseDimension(std::string_view(text).substr(x + 1), text);
    if (width < kMinWidth || height < kMinHeight || width > kMaxSize || height > kMaxSize)
        throw Error("--size '" + text + "': width must be in [" + std::to_string(kMinWidth) + ", " +
                    std::to_string(kMaxSize) + "] and height in [" + std::to_string(kMinHeight) + ", " +
                    std::to_string(kMaxSize) + "]");
    return {width, height};
}

Solved solve(Context& context, const MoveInputs& in, const SolverOptions& options, bool gpu) {
    if (gpu) {
        GpuSolver solver(context);
        GpuSolution s = solveOnGpu(solver, in.move, in.voxels, options);
        return {std::move(s.positions), std::move(s.statistics), s.report};
    }
    CpuSolution s = solveOnCpu(in.move, in.voxels, options);
    return {std::move(s.positions), std::move(s.statistics), s.report};
}

std::string formatTolerance(double tolerance) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", tolerance);
    return text;
}

// The shaded view's legend line: what the solve did.
std::string summaryLine(const SolveReport& r) {
    char text[256];
    std::snprintf(text, sizeof text, "%zu vertices, evaluations mean %.1f max %u; %zu clamped, %zu capped, "
                                     "%zu non-finite, %zu culled",
                  r.vertices, r.meanEvaluations(), r.maxEvaluations, r.minStepClamped, r.iterationCap, r.nonFinite,
                  r.culled);
    return text;
}

void runRender(const RenderArgs& args) {
    checkImageOutputPath(args.outPath);
    const auto [width, height] = parseSize(args.size);
    const ColorMode mode = *parseColorMode(args.color); // CLI11 has checked the name
    MoveInputs in = loadMoveInputs(args.inputs);
    SolverOptions options;
    options.method = *parseMethod(args.method);
    options.tolerance = args.tolerance;
    validateSolverOptions(options);

    Context context(gpuContextOptions(args.inputs));
    const bool gpu = args.backend == "gpu";
    const Solved solved = solve(context, in, options, gpu);
    VertexColoring coloring = colorVertices(mode, solved.statistics, in.voxels, solved.positions);
    if (mode == ColorMode::Shaded) coloring.legend.title = summaryLine(solved.report);

    // Both halves share one camera fitted to both shapes, so they compare directly.
    const RenderLayout layout = renderLayout(width, height);
    const uint32_t meshHeight = layout.panelHeight - layout.titleHeight;
    const std::span<const glm::vec3> shapes[] = {in.voxels, solved.positions};
    const Camera camera = fitCamera(shapes, float(layout.panelWidth) / float(meshHeight));
    MeshView views[2];
    for (int i = 0; i < 2; ++i)
        views[i] = {shapes[i], coloring.colors, in.mesh.faceSizes, in.mesh.faceIndices, camera,
                    int32_t(uint32_t(i) * layout.panelWidth), int32_t(layout.titleHeight), layout.panelWidth,
                    meshHeight};
    MeshRenderer renderer(context);
    RgbaImage image = renderer.render(width, height, views, kBackground);

    const int s = layout.textScale;
    fillRect(image, int(layout.panelWidth), 0, std::max(1, s / 2), int(layout.panelHeight), kDivider);
    drawText(image, 6 * s, 4 * s, "before", s, kInk);
    const std::string after = "after: " + args.method + ", tol " + formatTolerance(args.tolerance) + " voxel, " +
                              (gpu ? "gpu" : "cpu reference");
    drawText(image, int(layout.panelWidth) + 6 * s, 4 * s, after, s, kInk);
    drawLegend(image, layout, coloring.legend, kInk);
    writePng(image, args.outPath);

    std::printf("%s\n", in.description.c_str());
    std::printf("%s on %s: %s\n", gpu ? "gpu" : "cpu reference", context.deviceName().c_str(),
                summaryLine(solved.report).c_str());
    std::printf("wrote %s (%ux%u, --color %s)\n", args.outPath.c_str(), width, height, args.color.c_str());
}

} // namespace

void addRenderCommand(CLI::App& app) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand(
        "render", "Render the mesh before and after a move, side by side, into a PNG (Vulkan, headless)");
    addMoveInputOptions(*cmd, args->inputs);
    cmd->add_option("--backend", args->backend, "Solve on the gpu (Vulkan) or the cpu reference")
        ->check(CLI::IsMember({"gpu", "cpu"}))
        ->capture_default_str();
    addMethodOptions(*cmd, args->method, args->tolerance);
    cmd->add_option("--color", args->color,
                    "shaded (clay), or a heat map: evaluations, flags or displacement (voxels)")
        ->check(CLI::IsMember({"shaded", "evaluations", "flags", "displacement"}))
        ->capture_default_str();
    cmd->add_option("--size", args->size, "Image size WIDTHxHEIGHT in pixels (two halves side by side)")
        ->capture_default_str();
    cmd->add_option("--out", args->outPath, "The image (.png)")->required();
    cmd->callback([args] { runRender(*args); });
}

} // namespace sculptflow::cli
