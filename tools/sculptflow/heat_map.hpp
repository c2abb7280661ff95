// Per-vertex values as colours (a perceptual ramp, flag categories) and the legend drawn onto a render.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/solve_report.hpp>
#include "host/mesh_renderer.hpp"

namespace sculptflow::cli {

enum class ColorMode { Shaded, Evaluations, Flags, Displacement, Mask, VolumeChange };

// "shaded", "evaluations", "flags", "displacement", "mask" or "volume-change".
std::optional<ColorMode> parseColorMode(std::string_view name);

// Colours are sRGB in [0, 1].
inline constexpr glm::vec3 kClayColor{0.80f, 0.71f, 0.62f};

// A viridis-like ramp: dark blue-violet at 0 through teal to yellow at 1, its
// lightness rising all the way; t is clamped to [0, 1].
glm::vec3 rampColor(float t);

// A diverging ramp for the volume change: blue at t = -1 (shrink), near-white at 0,
// red at +1 (grow); t is clamped to [-1, 1].
glm::vec3 divergingColor(float t);

// The volume change's scale: ln J / ln kVolumeChangeRange is the diverging ramp's t,
// so J ≤ 1/4 is full blue and J ≥ 4 full red. Fixed, so that pictures compare.
inline constexpr double kVolumeChangeRange = 4.0;
// A folded vertex (J ≤ 0, or NaN): the FOLDED flag's rule.
inline constexpr glm::vec3 kFoldedColor{0.0f, 0.0f, 0.0f};

// One flag category of the legend, in priority order (the first that matches a
// vertex's flags colours it): non-finite, iteration cap, min-step clamped, culled, none.
struct FlagCategory {
    const char* name;
    uint32_t bit; // kernel::kFlag*; 0 for "none"
    glm::vec3 color;
};
std::span<const FlagCategory> flagCategories();
glm::vec3 flagColor(uint32_t flags);

// What the legend shows: a title, and either a colour bar from `min` to `max`
// with labels at min, mid and max, or swatches, or neither.
struct Legend {
    std::string title;
    bool colorBar = false;
    double min = 0.0, max = 0.0;
    bool integerLabels = false;
    bool diverging = false;              // the bar is divergingColor over [-1, 1], not rampColor
    std::vector<std::string> barLabels;  // three: at min, mid and max instead of the values; else empty
    std::vector<std::pair<std::string, glm::vec3>> swatches;
};

struct VertexColoring {
    std::vector<glm::vec3> colors; // one per vertex
    Legend legend;
};

// Colours for every vertex by `mode`: per-vertex evaluations or |after − before|
// (voxels) on the ramp, scaled from their minimum to their maximum; flags by
// category; the clay colour for Shaded. In the ramp modes a non-finite vertex
// takes the non-finite flag colour and the legend gains its swatch.
VertexColoring colorVertices(ColorMode mode, std::span<const VertexStatistics> statistics,
                             std::span<const glm::vec3> before, std::span<const glm::vec3> after);

// The mask's values on the ramp over a fixed [0, 1] (0 frozen, 1 free), so that
// pictures of different masks compare.
VertexColoring colorByMask(std::span<const float> mask);

// The volume change J a vertex on the diverging ramp, log scale (ln J over
// ±ln kVolumeChangeRange): blue shrinks, white keeps, red grows; folded vertices
// (J ≤ 0) black, and vertices flagged non-finite in the flag colour. The legend
// counts the folded ones.
VertexColoring colorByVolumeChange(std::span<const float> volumeChanges,
                                   std::span<const VertexStatistics> statistics);

// Where things go on a width × height render: `panels` panels side by side (panel
// k from x = k·panelWidth), each with a title in its top titleHeight rows and the
// mesh below it, and the legend band under them all.
struct RenderLayout {
    uint32_t panelWidth = 0;
    uint32_t panelHeight = 0; // title included
    uint32_t titleHeight = 0;
    uint32_t bandHeight = 0;
    int textScale = 1;        // pixels per font unit
};
RenderLayout renderLayout(uint32_t width, uint32_t height, uint32_t panels = 2);

// ASCII text in the stb_easy_font glyphs, scaled by whole pixels; clipped to the image.
int textWidth(std::string_view text, int scale);
void drawText(RgbaImage& image, int x, int y, std::string_view text, int scale, glm::vec3 color);
void fillRect(RgbaImage& image, int x, int y, int width, int height, glm::vec3 color);

// Draws the legend centred in the band at the bottom of the image.
void drawLegend(RgbaImage& image, const RenderLayout& layout, const Legend& legend, glm::vec3 ink);

} // namespace sculptflow::cli
