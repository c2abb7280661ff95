// Vertices grouped into spatially tight blocks, so that a pass can skip a block
// that no tool reaches with one test instead of one per vertex.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace sculptflow {

// The vertices in Morton (Z-curve) order of their positions, cut into blocks of
// `blockSize` consecutive entries of `order`, each with a sphere that holds all
// of its vertices. A block with a non-finite position gets an infinite radius.
struct VertexBlocks {
    std::vector<uint32_t> order;    // vertex indices, block by block
    std::vector<glm::vec4> spheres; // per block: centre xyz, radius w
};

VertexBlocks buildVertexBlocks(std::span<const glm::vec3> positions, uint32_t blockSize);

} // namespace sculptflow
