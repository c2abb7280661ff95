// Triangles around each vertex, for recomputing normals without float atomics.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace sculptflow {

// Compressed rows: the triangles around vertex v are pairs[start[v] .. start[v + 1]),
// each stored as its other two corners (b, c) so that (v, b, c) keeps the
// triangle's winding. A vertex's normal is then Σ cross(b − v, c − v), summed in a
// fixed order: deterministic, with no atomics.
struct VertexAdjacency {
    std::vector<uint32_t> start;   // vertexCount + 1 entries
    std::vector<glm::uvec2> pairs; // 3 a triangle
};

// `triangles` holds three vertex indices a triangle. Throws sculptflow::Error
// naming the first triangle with an index ≥ vertexCount, or a count that is
// not a multiple of 3.
VertexAdjacency buildVertexAdjacency(std::span<const uint32_t> triangles, uint32_t vertexCount);

} // namespace sculptflow
