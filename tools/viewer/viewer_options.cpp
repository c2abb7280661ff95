// The viewer's command line.
#include "viewer_options.hpp"

#include <cstdio>

#include <sculptflow/error.hpp>

namespace sculptflow::viewer {

uint32_t dragFrames(const ViewerOptions& options) {
    if (options.playbackFrames > 0) return options.playbackFrames;
    if (options.headlessFrames > 0) return options.headlessFrames;
    if (options.frames > 0) return options.frames;
    return 180;
}

SolverOptions solverOptions(const ViewerOptions& options) {
    SolverOptions solver;
    const auto method = parseMethod(options.method);
    if (!method) throw Error("--method: '" + options.method + "' is not " + methodNameList());
    solver.method = *method;
    solver.tolerance = options.tolerance;
    validateSolverOptions(solver);
    return solver;
}

void addViewerOptions(CLI::App& app, ViewerOptions& options, std::string& checkScreenshot) {
    cli::addMoveInputOptions(app, options.inputs);
    options.inputs.builtIn = cli::BuiltInMesh::Sculpt; // the command line's default; the library's is the sphere
    cli::addBuiltInMeshOption(app, options.inputs);
    cli::addMoveModeOptions(app, options.inputs);
    // The viewer's default origin differs from the CLI's (viewerSymmetry).
    app.get_option("--symmetry-origin")
        ->description("A point X,Y,Z on every mirror plane, world units (default: a JSON stroke's own, else the "
                      "mesh's centre)");
    cli::addMethodOptions(app, options.method, options.tolerance);
    app.add_option("--frames", options.frames, "Windowed: quit after N frames (default: when the window closes)");
    app.add_option("--headless-frames", options.headlessFrames,
                   "Render N frames offscreen without a window or display, then quit")
        ->check(CLI::PositiveNumber);
    app.add_option("--playback-frames", options.playbackFrames,
                   "Frames one playback of the stroke takes (default: --frames or --headless-frames, else 180)")
        ->check(CLI::PositiveNumber);
    app.add_option("--hold-frames", options.holdFrames, "Frames the committed shape shows before the stroke loops")
        ->capture_default_str();
    app.add_option("--screenshot", options.screenshot, "Save the last frame as PNG");
    app.add_option_function<std::string>(
           "--size",
           [&options](const std::string& size) {
               unsigned w = 0, h = 0;
               char x = 0;
               if (std::sscanf(size.c_str(), "%u%c%u", &w, &x, &h) != 3 || x != 'x' || w == 0 || h == 0)
                   throw CLI::ValidationError("--size", "expected WIDTHxHEIGHT, e.g. 1280x720");
               options.width = w;
               options.height = h;
           },
           "Window or offscreen size in pixels, WIDTHxHEIGHT (default 1280x720)");
    app.add_option("--chunk-size", options.chunkSize,
                   "Edge of the voxel blocks the mesh is split into, in voxels (default: longest side / 6)")
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--validation", options.validation,
                 "Khronos validation with synchronization checks (also SCULPTFLOW_VALIDATION=1); "
                 "any message makes the exit status non-zero");
    app.add_flag("--show-chunks", options.showChunks, "Shade each chunk (voxel block) a little lighter or darker");
    app.add_flag("--paint-mask", options.paintMask,
                 "Start with the painted mask preview: the mesh's lower half frozen, ramping to free above "
                 "(key M toggles the mask: --mask's, the PLY's, else this one)");
    app.add_flag("--heat-map", options.heatMap,
                 "Start with the heat map: each vertex coloured by its displacement from the undeformed mesh, "
                 "dark blue for none to red at the tool's travel (key H toggles it, B shows before/after)");
    app.add_flag("--evaluations-map", options.evaluationsMap,
                 "Start with the evaluations map: each vertex coloured by the solver's right-hand-side "
                 "evaluations in the last frame that solved it (RendererMesh::statistics), dark blue for none "
                 "(culled) to red at 100 or more (key E toggles it; it wins over the heat map)");
    app.add_flag("--quiet", options.quiet, "No line a second on stdout");
    app.add_option("--shaders", options.shaderDir,
                   "Hot reload: run deform.comp from DIR (`sculptflow shaders export DIR` writes the built-in "
                   "sources), recompiled and swapped in between frames whenever it or an include changes; a "
                   "broken edit is shown in the title with its file:line and the drag goes on")
        ->check(CLI::ExistingDirectory);
    app.add_option("--check-screenshot", checkScreenshot,
                   "Only check that a saved screenshot is not blank (exit status 1 if it is)")
        ->check(CLI::ExistingFile);
}

} // namespace sculptflow::viewer
