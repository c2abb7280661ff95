// The viewer's options and its command line (CLI11).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include <sculptflow/solver_options.hpp>
#include "move_inputs.hpp"

namespace sculptflow::viewer {

struct ViewerOptions {
    // --mesh, --built-in, --stroke, --voxel-size, --kind, --mode, --mask, --symmetry[-origin]. Without
    // --mesh the command line shows the sculpt blob (--built-in sculpt), the library the sphere.
    cli::MoveInputArgs inputs;
    std::string method = "bs32";  // --method
    double tolerance = 0.1;       // --tol, voxels
    uint32_t frames = 0;          // windowed: quit after this many frames; 0: when the window closes
    uint32_t headlessFrames = 0;  // > 0: render this many frames offscreen, no window
    uint32_t playbackFrames = 0;  // frames one playback of the stroke takes; 0: the run's frame count, else 180
    uint32_t holdFrames = 60;     // frames the committed shape shows before the next loop
    std::string screenshot;       // PNG of the last frame
    uint32_t width = 1280;
    uint32_t height = 720;
    float chunkSize = 0.0f;       // voxels; 0: the mesh's longest side / 6
    bool validation = false;      // also SCULPTFLOW_VALIDATION=1
    // With validation: the layer's synchronization validation too. (Off only where
    // the layer's own allocations would upset LeakSanitizer: it leaks with it on.)
    bool synchronizationValidation = true;
    bool showChunks = false;      // shade each chunk a little lighter or darker
    bool paintMask = false;       // the painted mask preview (paintedMask) on from the start
    bool heatMap = false;         // the heat map (displacement) on from the start (key H toggles it)
    bool evaluationsMap = false;  // the evaluations map on from the start (key E toggles it)
    bool quiet = false;           // no line a second on stdout
    // --shaders DIR: deform.comp and its includes under DIR, recompiled and swapped
    // in between frames whenever they change (`sculptflow shaders export DIR`).
    std::string shaderDir;
    // Library only (tests): called before each frame with its number, as a person
    // editing a shader between frames would.
    std::function<void(uint64_t)> beforeFrame;
    // Library only (tests): frames whose image is read back into ViewerResult::captures.
    std::vector<uint64_t> captureFrames;
    // Library only (tests): keys pressed before a frame (frame, GLFW key code), as a window would.
    std::vector<std::pair<uint64_t, int>> keyPresses;
    // Library only (tests): read the vertices back at the end (ViewerResult::positions).
    bool readBackPositions = false;
};

// Frames one playback of the stroke takes under these options.
uint32_t dragFrames(const ViewerOptions& options);

SolverOptions solverOptions(const ViewerOptions& options);

// Adds every option above to `app`; `checkScreenshot` takes --check-screenshot FILE,
// the mode that only checks a saved screenshot is not blank.
void addViewerOptions(CLI::App& app, ViewerOptions& options, std::string& checkScreenshot);

} // namespace sculptflow::viewer
