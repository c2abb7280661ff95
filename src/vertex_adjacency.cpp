// Vertex → incident triangles by counting sort (two passes over the indices).
#include "vertex_adjacency.hpp"

#include <string>

#include <sculptflow/error.hpp>

namespace sculptflow {

VertexAdjacency buildVertexAdjacency(std::span<const uint32_t> triangles, uint32_t vertexCount) {
    if (triangles.size() % 3 != 0)
        throw Error("triangles: " + std::to_string(triangles.size()) + " indices is not a multiple of 3");
    for (size_t i = 0; i < triangles.size(); ++i)
        if (triangles[i] >= vertexCount)
            throw Error("triangles[" + std::to_string(i / 3) + "]: vertex index " + std::to_string(triangles[i]) +
                        " is out of range (" + std::to_string(vertexCount) + " vertices)");

    VertexAdjacency adjacency;
    adjacency.start.assign(size_t(vertexCount) + 1, 0);
    for (uint32_t v : triangles) ++adjacency.start[v + 1];
    for (size_t v = 0; v < vertexCount; ++v) adjacency.start[v + 1] += adjacency.start[v];
    adjacency.pairs.resize(triangles.size());
    std::vector<uint32_t> next(adjacency.start.begin(), adjacency.start.end() - 1);
    for (size_t t = 0; t < triangles.size(); t += 3) {
        const uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
        adjacency.pairs[next[a]++] = {b, c};
        adjacency.pairs[next[b]++] = {c, a};
        adjacency.pairs[next[c]++] = {a, b};
    }
    return adjacency;
}

} // namespace sculptflow
