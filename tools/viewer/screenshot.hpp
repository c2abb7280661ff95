// Screenshots: the offscreen frame read back to the host, saved as PNG, and the
// checks that tell a drawn frame from a blank one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <volk.h>

#include "host/mesh_renderer.hpp" // RgbaImage, writePng, readPng

namespace sculptflow {
class Context;
class RenderTarget;
} // namespace sculptflow

namespace sculptflow::viewer {

// Copies the target's colour image (TRANSFER_SRC_OPTIMAL, after a frame's render
// pass) to the host: records into a command buffer from `pool`, submits it to the
// context's queue after everything submitted before, and waits for it.
RgbaImage readBack(Context& context, VkCommandPool pool, const RenderTarget& target);

// What a frame shows, from its pixels alone.
struct ImageSummary {
    size_t distinctColors = 0;  // distinct RGB values
    size_t foregroundPixels = 0; // pixels that differ from the top-left corner's colour (the background)
    size_t pixels = 0;
};
ImageSummary summarize(const RgbaImage& image);

// A frame that shows a shaded mesh: at least `minColors` distinct colours and
// `minCoverage` of the pixels off the background. Empty when it does; else why not.
std::string blankReason(const ImageSummary& summary, size_t minColors = 64, double minCoverage = 0.01);

// Pixels whose RGB differs by more than `threshold` (0–255) in some channel.
// The images must have the same size (else every pixel counts).
size_t differingPixels(const RgbaImage& a, const RgbaImage& b, int threshold = 8);

} // namespace sculptflow::viewer
