// sculptflow-viewer: a mesh deformed live by a recorded stroke, in a window or headless.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "screenshot.hpp"
#include "viewer.hpp"

int main(int argc, char** argv) {
    using namespace sculptflow::viewer;
    CLI::App app{"sculptflow-viewer: plays a stroke as a live drag on a mesh through the per-frame GPU path.\n"
                 "Windowed by default (GLFW); --headless-frames N renders offscreen without a display.\n"
                 "Keys: X, Y, Z mirror the tool across that plane (its copies' gizmos in blue), M the mask\n"
                 "(frozen parts dark), C continuous or move-tool mode, R restart the drag, B before/after (the\n"
                 "undeformed mesh or the deformed one), H heat map (each vertex's displacement, blue to red),\n"
                 "E evaluations map (the solver's evaluations per vertex, blue to red at 100)."};
    ViewerOptions options;
    std::string checkScreenshot;
    addViewerOptions(app, options, checkScreenshot);
    CLI11_PARSE(app, argc, argv);

    try {
        if (!checkScreenshot.empty()) {
            const ImageSummary summary = summarize(sculptflow::readPng(checkScreenshot));
            const std::string blank = blankReason(summary);
            std::printf("%s: %zu distinct colours, %zu of %zu pixels off the background: %s\n",
                        checkScreenshot.c_str(), summary.distinctColors, summary.foregroundPixels, summary.pixels,
                        blank.empty() ? "not blank" : ("BLANK, " + blank).c_str());
            return blank.empty() ? 0 : 1;
        }
        const ViewerResult result = runViewer(options);
        if (!options.quiet) {
            std::printf("%llu frames, %u vertices, up to %u of %u chunks solved a frame, solver %.2f ms GPU on "
                        "average\n",
                        (unsigned long long)result.frames, result.vertices, result.maxChunksSolved,
                        result.chunksTotal, result.meanSolverMilliseconds);
            if (!options.screenshot.empty()) std::printf("screenshot: %s\n", options.screenshot.c_str());
        }
        if (result.validationMessages > 0) {
            std::fprintf(stderr, "sculptflow-viewer: %d Vulkan validation message(s); failing\n",
                         result.validationMessages);
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sculptflow-viewer: %s\n", e.what());
        return 1;
    }
}
