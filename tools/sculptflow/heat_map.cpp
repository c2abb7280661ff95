// Per-vertex values as colours, and the legend and text drawn onto a render.
#include "heat_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

// stb_easy_font is header-only with static functions, some of which go unused here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

#include <sculptflow/error.hpp>
#include "src/kernel.hpp"

namespace sculptflow::cli {
namespace {

// Samples of viridis (sRGB bytes) at t = 0, 1/8, …, 1; linear in between.
constexpr std::array<std::array<float, 3>, 9> kRamp{{{68, 1, 84},
                                                    {71, 45, 123},
                                                    {59, 82, 139},
                                                    {44, 114, 142},
                                                    {33, 145, 140},
                                                    {39, 173, 129},
                                                    {92, 200, 99},
                                                    {170, 220, 50},
                                                    {253, 231, 37}}};

// ColorBrewer's RdBu (sRGB bytes) from blue at t = -1 through #f7f7f7 at 0 to red
// at +1, in steps of 1/4; linear in between.
constexpr std::array<std::array<float, 3>, 9> kDiverging{{{33, 102, 172},
                                                         {67, 147, 195},
                                                         {146, 197, 222},
                                                         {209, 229, 240},
                                                         {247, 247, 247},
                                                         {253, 219, 199},
                                                         {244, 165, 130},
                                                         {214, 96, 77},
                                                         {178, 24, 43}}};

const FlagCategory kFlagCategories[] = {
    {"non-finite", kernel::kFlagNonFinite, {0.86f, 0.18f, 0.82f}},
    {"iteration cap", kernel::kFlagIterationCap, {0.90f, 0.14f, 0.12f}},
    {"min-step clamped", kernel::kFlagMinStepClamped, {1.00f, 0.62f, 0.08f}},
    {"culled", kernel::kFlagCulled, {0.20f, 0.48f, 0.96f}},
    {"none", 0u, {0.78f, 0.78f, 0.76f}},
};

bool isFinite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

std::string formatValue(double value, bool integer) {
    char text[32];
    std::snprintf(text, sizeof text, integer ? "%.0f" : "%.3g", value);
    return text;
}

// The font covers printable ASCII only; anything else shows as '?'.
std::string fontText(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c < 32 || c > 126) c = '?';
    return out;
}

// Linear interpolation in a table of sRGB byte samples, x in [0, 1].
template <size_t N>
glm::vec3 sampleTable(const std::array<std::array<float, 3>, N>& table, float x01) {
    const float x = std::clamp(std::isfinite(x01) ? x01 : 0.0f, 0.0f, 1.0f) * float(N - 1);
    const size_t i = std::min(size_t(x), N - 2);
    const float f = x - float(i);
    glm::vec3 a(table[i][0], table[i][1], table[i][2]), b(table[i + 1][0], table[i + 1][1], table[i + 1][2]);
    return glm::mix(a, b, f) / 255.0f;
}

uint8_t toByte(float c) { return uint8_t(std::lround(std::clamp(c, 0.0f, 1.0f) * 255.0f)); }

// Ramp colours for values, scaled from their finite minimum to maximum.
VertexColoring rampColoring(const std::vector<double>& values, std::span<const VertexStatistics> statistics,
                            std::string title, bool integer) {
    VertexColoring out;
    out.legend.title = std::move(title);
    out.legend.colorBar = true;
    out.legend.integerLabels = integer;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t i = 0; i < values.size(); ++i)
        if (std::isfinite(values[i]) && !(statistics[i].flags & kernel::kFlagNonFinite)) {
            lo = std::min(lo, values[i]);
            hi = std::max(hi, values[i]);
        }
    if (lo > hi) lo = hi = 0.0;
    out.legend.min = lo;
    out.legend.max = hi;
    size_t nonFinite = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i]) || (statistics[i].flags & kernel::kFlagNonFinite)) {
            out.colors.push_back(flagColor(kernel::kFlagNonFinite));
            ++nonFinite;
        } else {
            out.colors.push_back(rampColor(hi > lo ? float((values[i] - lo) / (hi - lo)) : 0.0f));
        }
    }
    if (nonFinite)
        out.legend.swatches.emplace_back("non-finite " + std::to_string(nonFinite), flagColor(kernel::kFlagNonFinite));
    return out;
}

} // namespace

std::optional<ColorMode> parseColorMode(std::string_view name) {
    if (name == "shaded") return ColorMode::Shaded;
    if (name == "evaluations") return ColorMode::Evaluations;
    if (name == "flags") return ColorMode::Flags;
    if (name == "displacement") return ColorMode::Displacement;
    if (name == "mask") return ColorMode::Mask;
    if (name == "volume-change") return ColorMode::VolumeChange;
    return std::nullopt;
}

glm::vec3 rampColor(float t) { return sampleTable(kRamp, t); }

glm::vec3 divergingColor(float t) {
    return sampleTable(kDiverging, 0.5f * ((std::isfinite(t) ? t : 0.0f) + 1.0f)); // [-1, 1] to [0, 1]
}

std::span<const FlagCategory> flagCategories() { return kFlagCategories; }

glm::vec3 flagColor(uint32_t flags) {
    for (const FlagCategory& category : kFlagCategories)
        if (flags & category.bit) return category.color;
    return kFlagCategories[std::size(kFlagCategories) - 1].color;
}

VertexColoring colorVertices(ColorMode mode, std::span<const VertexStatistics> statistics,
                             std::span<const glm::vec3> before, std::span<const glm::vec3> after) {
    const size_t n = before.size();
    if (mode == ColorMode::Evaluations) {
        std::vector<double> values(n);
        for (size_t i = 0; i < n; ++i) values[i] = statistics[i].evaluations;
        return rampColoring(values, statistics, "evaluations per vertex", true);
    }
    if (mode == ColorMode::Displacement) {
        std::vector<double> values(n);
        for (size_t i = 0; i < n; ++i)
            values[i] = isFinite(before[i]) && isFinite(after[i])
                            ? glm::length(glm::dvec3(after[i]) - glm::dvec3(before[i]))
                            : std::numeric_limits<double>::quiet_NaN();
        return rampColoring(values, statistics, "distance moved (voxels)", false);
    }
    if (mode == ColorMode::Mask) throw Error("colorVertices: the mask colouring is colorByMask's");
    if (mode == ColorMode::VolumeChange)
        throw Error("colorVertices: the volume change colouring is colorByVolumeChange's");
    VertexColoring out;
    if (mode == ColorMode::Shaded) {
        out.colors.assign(n, kClayColor);
        return out;
    }
    std::vector<size_t> counts(std::size(kFlagCategories), 0);
    for (size_t i = 0; i < n; ++i) {
        size_t c = 0;
        while (c + 1 < counts.size() && !(statistics[i].flags & kFlagCategories[c].bit)) ++c;
        ++counts[c];
        out.colors.push_back(kFlagCategories[c].color);
    }
    out.legend.title = "flags (vertices)";
    // Least to most severe, as one reads the legend.
    for (size_t c = counts.size(); c-- > 0;)
        out.legend.swatches.emplace_back(std::string(kFlagCategories[c].name) + " " + std::to_string(counts[c]),
                                         kFlagCategories[c].color);
    return out;
}

VertexColoring colorByMask(std::span<const float> mask) {
    VertexColoring out;
    out.legend.title = "mask (0 frozen, 1 free)";
    out.legend.colorBar = true;
    out.legend.min = 0.0;
    out.legend.max = 1.0;
    for (float m : mask) out.colors.push_back(rampColor(m));
    return out;
}

VertexColoring colorByVolumeChange(std::span<const float> volumeChanges,
                                   std::span<const VertexStatistics> statistics) {
    if (volumeChanges.size() != statistics.size())
        throw Error("colorByVolumeChange: " + std::to_string(volumeChanges.size()) + " volume changes for " +
                    std::to_string(statistics.size()) + " vertices");
    VertexColoring out;
    out.legend.title = "volume change J, log scale; black: folded (J <= 0)";
    out.legend.colorBar = true;
    out.legend.diverging = true;
    out.legend.min = 1.0 / kVolumeChangeRange;
    out.legend.max = kVolumeChangeRange;
    out.legend.barLabels = {"<= 1/" + formatValue(kVolumeChangeRange, true) + " shrink", "1",
                            "grow >= " + formatValue(kVolumeChangeRange, true)};
    const double scale = 1.0 / std::log(kVolumeChangeRange);
    size_t folded = 0, nonFinite = 0;
    for (size_t i = 0; i < volumeChanges.size(); ++i) {
        const float j = volumeChanges[i];
        if (statistics[i].flags & kernel::kFlagNonFinite) {
            out.colors.push_back(flagColor(kernel::kFlagNonFinite));
            ++nonFinite;
        } else if (!(j > 0.0f)) { // the FOLDED flag's rule: J ≤ 0 or NaN
            out.colors.push_back(kFoldedColor);
            ++folded;
        } else {
            out.colors.push_back(divergingColor(std::clamp(float(std::log(double(j)) * scale), -1.0f, 1.0f)));
        }
    }
    out.legend.swatches.emplace_back("folded " + std::to_string(folded), kFoldedColor);
    if (nonFinite)
        out.legend.swatches.emplace_back("non-finite " + std::to_string(nonFinite), flagColor(kernel::kFlagNonFinite));
    return out;
}

RenderLayout renderLayout(uint32_t width, uint32_t height, uint32_t panels) {
    RenderLayout layout;
    layout.textScale = std::max(1, int(std::lround(double(height) / 320.0)));
    const uint32_t s = uint32_t(layout.textScale);
    layout.titleHeight = 15 * s;
    layout.bandHeight = std::min(41 * s, height / 2);
    layout.panelWidth = width / std::max(panels, 1u);
    layout.panelHeight = height - layout.bandHeight;
    return layout;
}

int textWidth(std::string_view text, int scale) {
    std::string copy = fontText(text);
    return stb_easy_font_width(copy.data()) * scale;
}

void fillRect(RgbaImage& image, int x, int y, int width, int height, glm::vec3 color) {
    const uint8_t rgb[3] = {toByte(color.r), toByte(color.g), toByte(color.b)};
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min(x + width, int(image.width)), y1 = std::min(y + height, int(image.height));
    for (int py = y0; py < y1; ++py)
        for (int px = x0; px < x1; ++px) {
            uint8_t* p = image.at(uint32_t(px), uint32_t(py));
            p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
        }
}

void drawText(RgbaImage& image, int x, int y, std::string_view text, int scale, glm::vec3 color) {
    // stb_easy_font emits axis-aligned quads of 16-byte vertices (x, y, z, rgba).
    struct FontVertex {
        float x, y, z;
        unsigned char rgba[4];
    };
    std::string copy = fontText(text);
    std::vector<FontVertex> quads(copy.size() * 80 + 16);
    const int count = stb_easy_font_print(0.0f, 0.0f, copy.data(), nullptr, quads.data(),
                                          int(quads.size() * sizeof(FontVertex)));
    for (int q = 0; q < count; ++q) {
        const FontVertex& a = quads[size_t(q) * 4];
        const FontVertex& c = quads[size_t(q) * 4 + 2];
        const int qx = int(std::lround(a.x * float(scale))), qy = int(std::lround(a.y * float(scale)));
        fillRect(image, x + qx, y + qy, int(std::lround(c.x * float(scale))) - qx,
                 int(std::lround(c.y * float(scale))) - qy, color);
    }
}

void drawLegend(RgbaImage& image, const RenderLayout& layout, const Legend& legend, glm::vec3 ink) {
    const int s = layout.textScale, width = int(image.width);
    const int top = int(layout.panelHeight) + 4 * s, lineHeight = 11 * s;
    auto swatchWidth = [&](size_t i) { return 10 * s + textWidth(legend.swatches[i].first, s); };
    if (legend.colorBar) {
        drawText(image, (width - textWidth(legend.title, s)) / 2, top + 2 * s, legend.title, s, ink);
        const int barX = width / 4, barWidth = std::max(width / 2, 1), barY = top + lineHeight + 2 * s;
        for (int i = 0; i < barWidth; ++i) {
            const float t = float(i) / float(std::max(barWidth - 1, 1));
            const glm::vec3 color = legend.diverging ? divergingColor(2.0f * t - 1.0f) : rampColor(t);
            fillRect(image, barX + i, barY, 1, 7 * s, color);
        }
        const int labelY = barY + 11 * s;
        const bool named = legend.barLabels.size() == 3;
        const std::string lo = named ? legend.barLabels[0] : formatValue(legend.min, legend.integerLabels);
        const std::string mid =
            named ? legend.barLabels[1] : formatValue(0.5 * (legend.min + legend.max), legend.integerLabels);
        const std::string hi = named ? legend.barLabels[2] : formatValue(legend.max, legend.integerLabels);
        drawText(image, barX, labelY, lo, s, ink);
        drawText(image, barX + (barWidth - textWidth(mid, s)) / 2, labelY, mid, s, ink);
        drawText(image, barX + barWidth - textWidth(hi, s), labelY, hi, s, ink);
        for (int tick : {barX, barX + barWidth / 2, barX + barWidth - s})
            fillRect(image, tick, barY + 7 * s, s, 2 * s, ink);
        // Swatches (a non-finite count, say) go to the right of the bar.
        int x = barX + barWidth + 8 * s;
        for (size_t i = 0; i < legend.swatches.size(); ++i) {
            fillRect(image, x, barY, 7 * s, 7 * s, legend.swatches[i].second);
            drawText(image, x + 10 * s, barY, legend.swatches[i].first, s, ink);
            x += swatchWidth(i) + 8 * s;
        }
        return;
    }
    // Swatches only: as many to a line as fit, each line centred; the title
    // gives way when they need all three lines.
    std::vector<std::pair<size_t, int>> lines; // end index, width
    for (size_t i = 0; i < legend.swatches.size(); ++i) {
        const int w = swatchWidth(i);
        if (!lines.empty() && lines.back().second + 10 * s + w <= width - 8 * s) {
            lines.back() = {i + 1, lines.back().second + 10 * s + w};
        } else {
            lines.emplace_back(i + 1, w);
        }
    }
    int line = 0;
    if (lines.size() < 3) drawText(image, (width - textWidth(legend.title, s)) / 2, top + 2 * s, legend.title, s, ink);
    if (lines.size() < 3) line = 1;
    size_t next = 0;
    for (const auto& [end, lineWidth] : lines) {
        int x = (width - lineWidth) / 2;
        const int y = top + line++ * lineHeight + 2 * s;
        for (; next < end; ++next) {
            fillRect(image, x, y, 7 * s, 7 * s, legend.swatches[next].second);
            drawText(image, x + 10 * s, y, legend.swatches[next].first, s, ink);
            x += swatchWidth(next) + 10 * s;
        }
    }
}

} // namespace sculptflow::cli
