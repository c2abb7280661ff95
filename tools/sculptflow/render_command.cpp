// `sculptflow render`: the mesh before and after a move, side by side, drawn with Vulkan into a PNG.
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "host/mesh_renderer.hpp"
#include "commands.hpp"
#include "heat_map.hpp"
#include "move_inputs.hpp"
#include "output_paths.hpp"
#include "progress_bar.hpp"
#include "run_solver.hpp"
#include "run_stats.hpp"

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
    std::optional<int> steps; // --method rk4's fixed steps
    std::string color = "shaded";
    std::string size = "1600x800";
    std::string outPath;
    bool compareModes = false;
};

// One solved panel: its title, the mode's name for the legend, and what it shows.
struct Panel {
    std::string title;
    std::string mode;
    RunSolution solution;
};

// Refuses an output path before the work, not after it.
void checkImageOutputPath(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".png") throw Error(path + ": unknown image extension '" + ext + "' (expected .png)");
    checkOutputPath("--out", path);
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

RunSolution solve(Context& context, const MoveRun& run, const SolverOptions& options, bool gpu) {
    if (!gpu) return solveRunOnCpu(run, options);
    GpuSolver solver(context);
    return solveRunOnGpu(solver, run, options);
}

std::string formatTolerance(double tolerance) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", tolerance);
    return text;
}

// The shaded view's legend line: what the solve did, aggregated as deform's
// summary is: evaluations per vertex over the whole run, flags summed over the
// segments (and said so, since a vertex flagged in two segments counts twice).
std::string summaryLine(const RunSolution& solution) {
    const SolveReport& r = solution.report;
    const size_t segments = solution.segments.size();
    char text[256];
    std::snprintf(text, sizeof text, "%zu vertices, evaluations per vertex mean %.1f max %u; %zu clamped, "
                                     "%zu capped, %zu non-finite, %zu culled",
                  r.vertices, r.meanEvaluations(), maxRunEvaluations(solution.statistics), r.minStepClamped,
                  r.iterationCap, r.nonFinite, r.culled);
    return text + (segments > 1 ? " (summed over " + std::to_string(segments) + " segments)" : std::string());
}

// "bs32, tol 0.1 voxel, gpu", after the kind when --kind names one: "affine, bs32, ..."
std::string solveDescription(const RenderArgs& args) {
    const std::string kind = args.inputs.kind.empty() ? "" : args.inputs.kind + ", ";
    return kind + args.method + ", tol " + formatTolerance(args.tolerance) + " voxel, " +
           (args.backend == "gpu" ? "gpu" : "cpu reference");
}

// The panels after "before": the run as --mode says, or with --compare-modes the
// move-tool solve and the continuous one of the same stroke, side by side.
std::vector<Panel> solvePanels(Context& context, const MoveInputs& in, const RenderArgs& args,
                               const SolverOptions& options) {
    const bool gpu = args.backend == "gpu";
    const std::string how = solveDescription(args);
    std::vector<Panel> panels;
    if (!args.compareModes) {
        const char* label = in.mode == MoveMode::Continuous ? "continuous: " : "after: ";
        panels.push_back({label + how, std::string(moveModeName(in.mode)), solve(context, in.run(), options, gpu)});
        return panels;
    }
    const std::vector<Move> segments = in.mode == MoveMode::Continuous ? in.segments : continuousMotions(in.stroke);
    panels.push_back({"move tool", "move tool",
                      solve(context, {MoveMode::Move, {&in.move, 1}, in.voxels, in.mask}, options, gpu)});
    panels.push_back({"continuous (" + std::to_string(segments.size()) + " segments)", "continuous",
                      solve(context, {MoveMode::Continuous, segments, in.voxels, in.mask}, options, gpu)});
    return panels;
}

// The volume change on its fixed scale, panel by panel; the legend counts each
// panel's folded vertices, in the panels' order ("folded 12 / 0"), short enough
// to fit beside the bar.
std::vector<VertexColoring> colorByVolumeChanges(const std::vector<Panel>& panels) {
    std::vector<VertexColoring> colorings;
    std::string folded = "folded";
    for (const Panel& panel : panels) {
        colorings.push_back(colorByVolumeChange(panel.solution.volumeChanges, panel.solution.statistics));
        const std::string& swatch = colorings.back().legend.swatches.front().first; // "folded N"
        folded += (colorings.size() == 1 ? " " : " / ") + swatch.substr(swatch.find(' ') + 1);
    }
    for (VertexColoring& c : colorings) c.legend.swatches.front().first = folded;
    return colorings;
}

// What the run's volume change came to, for the printed summary.
std::string volumeChangeLine(const RunSolution& solution) {
    const VolumeChangeSummary v = summarizeVolumeChanges(solution.volumeChanges);
    char text[160];
    std::snprintf(text, sizeof text, "volume change J min %.6g, max %.6g, mean %.6g; %zu folded (J <= 0)", v.min,
                  v.max, v.mean, v.folded);
    return text;
}

// One colouring per panel. The heat maps share one scale over every panel, so
// their colours compare: they are computed over the panels' vertices end to end.
std::vector<VertexColoring> colorPanels(ColorMode mode, const MoveInputs& in, const std::vector<Panel>& panels,
                                        const std::string& how) {
    if (mode == ColorMode::Mask) return std::vector<VertexColoring>(panels.size(), colorByMask(in.mask));
    if (mode == ColorMode::VolumeChange) return colorByVolumeChanges(panels);
    std::vector<VertexStatistics> statistics;
    std::vector<glm::vec3> before, after;
    for (const Panel& panel : panels) {
        statistics.insert(statistics.end(), panel.solution.statistics.begin(), panel.solution.statistics.end());
        before.insert(before.end(), in.voxels.begin(), in.voxels.end());
        after.insert(after.end(), panel.solution.positions.begin(), panel.solution.positions.end());
    }
    const VertexColoring all = colorVertices(mode, statistics, before, after);
    std::vector<VertexColoring> colorings;
    for (size_t k = 0; k < panels.size(); ++k) {
        const auto first = all.colors.begin() + std::ptrdiff_t(k * in.voxels.size());
        colorings.push_back({{first, first + std::ptrdiff_t(in.voxels.size())}, all.legend});
    }
    if (mode == ColorMode::Shaded) {
        std::string title = summaryLine(panels.front().solution);
        if (panels.size() > 1) {
            title = how + "; evaluations per vertex:";
            for (const Panel& panel : panels) {
                char text[64];
                std::snprintf(text, sizeof text, " %s %.1f", panel.mode.c_str(), panel.solution.report.meanEvaluations());
                title += (&panel == &panels.front() ? "" : ",") + std::string(text);
            }
        }
        for (VertexColoring& c : colorings) c.legend.title = title;
    }
    return colorings;
}

void runRender(const RenderArgs& args) {
    checkImageOutputPath(args.outPath);
    const auto [width, height] = parseSize(args.size);
    const ColorMode mode = *parseColorMode(args.color); // CLI11 has checked the name
    MoveInputs in = loadMoveInputs(args.inputs);
    // The renderer draws faces: a point cloud would come out as a blank image.
    if (in.mesh.faceSizes.empty())
        throw Error(args.inputs.meshPath + ": has no faces (" + std::to_string(in.mesh.positions.size()) +
                    " vertices, a point cloud); render draws surfaces only, so there would be nothing to see "
                    "(deform and validate take point clouds)");
    if (mode == ColorMode::Mask && in.mask.empty())
        throw Error("--color mask: no mask (give --mask FILE, or a PLY mesh with a vertex property mask)");
    SolverOptions options = methodOptions(args.method, args.tolerance, args.steps, in);
    options.volumeChange = mode == ColorMode::VolumeChange; // a mixed affine move throws in the solve
    validateSolverOptions(options);

    Context context(gpuContextOptions(args.inputs));
    ProgressTicker ticker(stderr, ProgressTicker::isTerminal(stderr));
    ticker.stage("solving");
    const std::vector<Panel> panels = solvePanels(context, in, args, options);
    ticker.stop();
    const std::vector<VertexColoring> colorings = colorPanels(mode, in, panels, solveDescription(args));

    // Every panel shares one camera fitted to every shape, so they compare directly.
    const uint32_t panelCount = uint32_t(panels.size()) + 1;
    const RenderLayout layout = renderLayout(width, height, panelCount);
    const uint32_t meshHeight = layout.panelHeight - layout.titleHeight;
    std::vector<std::span<const glm::vec3>> shapes = {in.voxels};
    for (const Panel& panel : panels) shapes.push_back(panel.solution.positions);
    const Camera camera = fitCamera(shapes, float(layout.panelWidth) / float(meshHeight));
    std::vector<MeshView> views(panelCount);
    for (uint32_t i = 0; i < panelCount; ++i)
        views[i] = {shapes[i], colorings[i == 0 ? 0 : i - 1].colors, in.mesh.faceSizes, in.mesh.faceIndices, camera,
                    int32_t(i * layout.panelWidth), int32_t(layout.titleHeight), layout.panelWidth, meshHeight};
    MeshRenderer renderer(context);
    RgbaImage image = renderer.render(width, height, views, kBackground);

    const int s = layout.textScale;
    for (uint32_t i = 1; i < panelCount; ++i)
        fillRect(image, int(i * layout.panelWidth), 0, std::max(1, s / 2), int(layout.panelHeight), kDivider);
    drawText(image, 6 * s, 4 * s, "before", s, kInk);
    for (uint32_t i = 1; i < panelCount; ++i)
        drawText(image, int(i * layout.panelWidth) + 6 * s, 4 * s, panels[i - 1].title, s, kInk);
    drawLegend(image, layout, colorings.front().legend, kInk);
    writePng(image, args.outPath); // only now: a bad input never touches the file

    std::printf("%s\n", in.description.c_str());
    for (const Panel& panel : panels) {
        std::printf("%s on %s, %s: %s\n", args.backend == "gpu" ? "gpu" : "cpu reference",
                    context.deviceName().c_str(), panel.title.c_str(), summaryLine(panel.solution).c_str());
        if (mode == ColorMode::VolumeChange) std::printf("  %s\n", volumeChangeLine(panel.solution).c_str());
    }
    std::printf("wrote %s (%ux%u, --color %s)\n", args.outPath.c_str(), width, height, args.color.c_str());
}

} // namespace

void addRenderCommand(CLI::App& app) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand(
        "render", "Render the mesh before and after a move, side by side, into a PNG (Vulkan, headless)");
    addMoveInputOptions(*cmd, args->inputs);
    addMoveModeOptions(*cmd, args->inputs);
    cmd->add_flag("--compare-modes", args->compareModes,
                  "Three panels: before, the move-tool solve and the continuous solve of the same stroke "
                  "(--mode is then moot)");
    cmd->add_option("--backend", args->backend, "Solve on the gpu (Vulkan) or the cpu reference")
        ->check(CLI::IsMember({"gpu", "cpu"}))
        ->capture_default_str();
    addMethodOptions(*cmd, args->method, args->tolerance, args->steps);
    cmd->add_option("--color", args->color,
                    "shaded (clay), or a heat map: evaluations, flags, displacement (voxels), mask (0 frozen, "
                    "1 free) or volume-change (J = det(dx/dx0) on a log scale: blue shrinks, white 1, red "
                    "grows, full at 1/4 and 4; black folded, J <= 0)")
        ->check(CLI::IsMember({"shaded", "evaluations", "flags", "displacement", "mask", "volume-change"}))
        ->capture_default_str();
    cmd->add_option("--size", args->size, "Image size WIDTHxHEIGHT in pixels (two halves side by side)")
        ->capture_default_str();
    cmd->add_option("--out", args->outPath, "The image (.png)")->required();
    cmd->callback([args] { runRender(*args); });
}

} // namespace sculptflow::cli
