// Morton order and bounding spheres of vertex blocks.
#include "vertex_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <sculptflow/error.hpp>
#include "finite.hpp"

namespace sculptflow {
namespace {


// Spreads the low 10 bits of v so that two zero bits separate each.
uint32_t spreadBits(uint32_t v) {
    v &= 0x3ff;
    v = (v | v << 16) & 0x030000ffu;
    v = (v | v << 8) & 0x0300f00fu;
    v = (v | v << 4) & 0x030c30c3u;
    v = (v | v << 2) & 0x09249249u;
    return v;
}

// The vertex indices sorted by code: a stable LSD radix sort of (code, index)
// keys, 11 bits a pass, a few times faster than std::sort on millions of vertices.
std::vector<uint32_t> sortByCode(const std::vector<uint32_t>& codes) {
    constexpr int kBits = 11;
    constexpr uint64_t kBuckets = 1u << kBits;
    std::vector<uint64_t> keys(codes.size()), next(codes.size());
    for (size_t i = 0; i < codes.size(); ++i) keys[i] = uint64_t(codes[i]) << 32 | i;
    for (int shift = 32; shift < 64; shift += kBits) {
        std::vector<size_t> start(kBuckets + 1, 0);
        for (uint64_t key : keys) ++start[((key >> shift) & (kBuckets - 1)) + 1];
        for (size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
        for (uint64_t key : keys) next[start[(key >> shift) & (kBuckets - 1)]++] = key;
        keys.swap(next);
    }
    std::vector<uint32_t> order(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) order[i] = uint32_t(keys[i]);
    return order;
}

} // namespace

VertexBlocks buildVertexBlocks(std::span<const glm::vec3> positions, uint32_t blockSize) {
    if (blockSize == 0) throw Error("buildVertexBlocks: the block size must be positive");
    if (positions.size() > std::numeric_limits<uint32_t>::max())
        throw Error("buildVertexBlocks: more than 2^32 - 1 vertices");
    glm::vec3 low(std::numeric_limits<float>::max()), high(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : positions)
        if (isFinite(p)) low = glm::min(low, p), high = glm::max(high, p);
    const glm::vec3 cellsPerUnit(1023.0 / glm::max(glm::dvec3(high) - glm::dvec3(low), glm::dvec3(1e-30)));

    // 10 bits an axis (a 1024³ grid) is far finer than 512-vertex blocks need.
    // Non-finite positions get the largest code, so they go last.
    std::vector<uint32_t> codes(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
        uint32_t code = std::numeric_limits<uint32_t>::max();
        if (isFinite(positions[i])) {
            const glm::vec3 unit = (positions[i] - low) * cellsPerUnit;
            const glm::uvec3 cell = glm::uvec3(glm::clamp(unit, 0.0f, 1023.0f));
            code = spreadBits(cell.x) | spreadBits(cell.y) << 1 | spreadBits(cell.z) << 2;
        }
        codes[i] = code;
    }

    VertexBlocks blocks;
    blocks.order = sortByCode(codes);
    for (size_t start = 0; start < blocks.order.size(); start += blockSize) {
        const size_t end = std::min(blocks.order.size(), start + blockSize);
        glm::dvec3 boxMin(std::numeric_limits<double>::max()), boxMax(-std::numeric_limits<double>::max());
        bool allFinite = true;
        for (size_t k = start; k < end; ++k) {
            const glm::vec3& p = positions[blocks.order[k]];
            allFinite = allFinite && isFinite(p);
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
