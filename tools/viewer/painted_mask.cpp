// The painted mask preview and the reordering of a given mask.
#include "painted_mask.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sculptflow::viewer {

std::vector<float> paintedMask(std::span<const glm::vec3> positions) {
    float lo = std::numeric_limits<float>::max(), hi = -std::numeric_limits<float>::max();
    for (const glm::vec3& p : positions)
        if (std::isfinite(p.y)) {
            lo = std::min(lo, p.y);
            hi = std::max(hi, p.y);
        }
    const float start = 0.5f * (lo + hi);
    const float width = std::max(kPaintedRamp * (hi - lo), std::numeric_limits<float>::min());
    std::vector<float> mask(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
        const float u = std::clamp((positions[i].y - start) / width, 0.0f, 1.0f); // NaN: frozen
        mask[i] = std::isnan(u) ? 0.0f : u * u * (3.0f - 2.0f * u);
    }
    return mask;
}

std::vector<float> inChunkOrder(std::span<const float> mask, std::span<const uint32_t> originalIndex) {
    std::vector<float> out(originalIndex.size());
    for (size_t i = 0; i < originalIndex.size(); ++i) out[i] = mask[originalIndex[i]];
    return out;
}

} // namespace sculptflow::viewer
