// The viewer: a mesh dragged live by a recorded stroke through the per-frame path,
// drawn in a window (GLFW, swapchain) or offscreen (--headless-frames).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/motion.hpp>
#include "host/mesh_renderer.hpp" // RgbaImage
#include "viewer_options.hpp"

namespace sculptflow::viewer {

struct ViewerResult {
    uint64_t frames = 0;           // frames rendered
    RgbaImage lastFrame;           // read back when a screenshot or captures were asked for
    std::vector<std::pair<uint64_t, RgbaImage>> captures; // ViewerOptions::captureFrames, in order
    int validationMessages = 0;    // printed as they came; any makes the run a failure
    std::string deviceName;
    std::string description;       // the inputs as the first line printed them, with the viewer's mirror origin
    uint32_t vertices = 0;
    uint32_t chunksTotal = 0;
    uint32_t maxChunksSolved = 0;  // in one frame
    double meanSolverMilliseconds = 0.0; // GPU, over the frames that were timed (NaN: none)
    std::string lastError;         // the last refusal from the live move, if any
    int shaderReloads = 0;         // --shaders: builds swapped in (1 after a good start)
    std::string shaderError;       // --shaders: the last reload's error while it stands
    Symmetry symmetry;             // the mirror planes at the end (origin in world units)
    MoveMode mode = MoveMode::Move;
    bool before = false;           // the undeformed mesh shown at the end (key B)
    bool heatMap = false;          // the heat map shown at the end (key H)
    bool evaluationsMap = false;   // the evaluations map shown at the end (key E)
    uint32_t toolGizmos = 0;       // tools and mirrored copies drawn in the last frame
    std::vector<float> mask;       // the mask at the end, input vertex order; empty: off
    std::vector<glm::vec3> positions; // voxels, input vertex order (ViewerOptions::readBackPositions)
};

// Loads the inputs, sets Vulkan up, renders, saves the screenshot if asked, and
// tears everything down (device idle, all objects destroyed, validation checked).
// Headless when options.headlessFrames > 0: GLFW is never initialised. Throws
// sculptflow::Error for bad inputs or a failed setup.
ViewerResult runViewer(const ViewerOptions& options);

} // namespace sculptflow::viewer
