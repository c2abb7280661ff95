// Morton order and bounding spheres of vertex blocks.
#include "vertex_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "error.hpp"

namespace sculptflow {
namespace {

bool finite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// Spreads the low 21 bits of v so that two zero bits separate each.
uint64_t spreadBits(uint64_t v) {
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffull;
    v = (v | v << 16) & 0x1f0000ff0000ffull;
    v = (v | v << 8) & 0x100f00f00f00f00full;
    v = (v | v << 4) & 0x10c30c30c30c30c3ull;
    v = (v | v << 2) & 0x1249249249249249ull;
    return v;
}

} // namespace

VertexBlocks buildVertexBlocks(std::span<const glm::vec3> positions, uint32_t blockSize) {
    if (blockSize == 0) throw Error("buildVertexBlocks: the block size must be positive");
    if (positions.size() > std::numeric_limits<uint32_t>::max())
        throw Error("buildVertexBlocks: more than 2^32 - 1 vertices");
    glm::vec3 low(std::numeric_limits<float>::max()), high(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : positions)
        if (finite(p)) low = glm::min(low, p), high = glm::max(high, p);
    const glm::dvec3 extent = glm::max(glm::dvec3(high) - glm::dvec3(low), glm::dvec3(1e-30));

    // Sort (code, index) pairs; non-finite positions go last, with the largest code.
    std::vector<std::pair<uint64_t, uint32_t>> keyed(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
        uint64_t code = std::numeric_limits<uint64_t>::max();
        if (finite(positions[i])) {
            const glm::dvec3 unit = (glm::dvec3(positions[i]) - glm::dvec3(low)) / extent;
            const glm::u64vec3 cell = glm::u64vec3(glm::clamp(unit * 2097151.0, 0.0, 2097151.0));
            code = spreadBits(cell.x) | spreadBits(cell.y) << 1 | spreadBits(cell.z) << 2;
        }
        keyed[i] = {code, uint32_t(i)};
    }
    std::sort(keyed.begin(), keyed.end());

    VertexBlocks blocks;
    blocks.order.reserve(keyed.size());
    for (const auto& [code, index] : keyed) blocks.order.push_back(index);
    for (size_t start = 0; start < keyed.size(); start += blockSize) {
        const size_t end = std::min(keyed.size(), start + blockSize);
        glm::dvec3 boxMin(std::numeric_limits<double>::max()), boxMax(-std::numeric_limits<double>::max());
        bool allFinite = true;
        for (size_t k = start; k < end; ++k) {
            const glm::vec3& p = positions[blocks.order[k]];
            allFinite = allFinite && finite(p);
            boxMin = glm::min(boxMin, glm::dvec3(p));
            boxMax = glm::max(boxMax, glm::dvec3(p));
        }
        // The radius is measured from the float centre and rounded up, so every
        // vertex lies inside the sphere as the shader sees it.
        const glm::vec3 centre(0.5 * (boxMin + boxMax));
        double radius = 0.0;
        for (size_t k = start; k < end && allFinite; ++k)
            radius = std::max(radius, glm::length(glm::dvec3(positions[blocks.order[k]]) - glm::dvec3(centre)));
        const float w = allFinite ? std::nextafter(float(radius), std::numeric_limits<float>::infinity())
                                  : std::numeric_limits<float>::infinity();
        blocks.spheres.emplace_back(allFinite ? centre : glm::vec3(0.0f), w);
    }
    return blocks;
}

} // namespace sculptflow
