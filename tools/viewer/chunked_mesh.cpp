// Grid blocks to contiguous vertex ranges: sort by block, remap the triangles, box each chunk.
#include "chunked_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <sculptflow/error.hpp>

namespace sculptflow::viewer {
namespace {

bool isFinite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

} // namespace

ChunkedMesh chunkMesh(std::span<const glm::vec3> positions, std::span<const uint32_t> faceSizes,
                      std::span<const uint32_t> faceIndices, float blockSize) {
    const size_t n = positions.size();
    if (n > std::numeric_limits<uint32_t>::max()) throw Error("mesh: more than 2^32 vertices");
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : positions)
        if (isFinite(p)) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
    if (lo.x > hi.x) lo = hi = glm::vec3(0.0f); // no finite vertex
    if (!(blockSize > 0.0f)) {
        const glm::vec3 size = hi - lo;
        blockSize = std::max(std::max(size.x, size.y), size.z) / kBlocksAlongLongestSide;
    }
    blockSize = std::max(blockSize, 1e-3f);

    // A block key per vertex: x, y, z block coordinates packed 21 bits each;
    // non-finite vertices sort last, under the largest key.
    constexpr uint64_t kNonFinite = std::numeric_limits<uint64_t>::max();
    constexpr double kMaxBlock = double((1u << 21) - 1);
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) {
        if (!isFinite(positions[i])) {
            keys[i] = kNonFinite;
            continue;
        }
        const glm::dvec3 block = glm::floor(glm::dvec3(positions[i] - lo) / double(blockSize));
        const auto coordinate = [&](double c) { return uint64_t(std::clamp(c, 0.0, kMaxBlock)); };
        keys[i] = coordinate(block.x) << 42 | coordinate(block.y) << 21 | coordinate(block.z);
    }

    ChunkedMesh out;
    out.blockSize = blockSize;
    out.originalIndex.resize(n);
    std::iota(out.originalIndex.begin(), out.originalIndex.end(), 0u);
    std::stable_sort(out.originalIndex.begin(), out.originalIndex.end(),
                     [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<uint32_t> newIndex(n);
    out.positions.resize(n);
    out.chunkOfVertex.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t old = out.originalIndex[i];
        newIndex[old] = i;
        out.positions[i] = positions[old];
        if (i == 0 || keys[old] != keys[out.originalIndex[i - 1]]) {
            MeshChunk chunk;
            chunk.firstVertex = i;
            const float inf = std::numeric_limits<float>::infinity();
            chunk.bounds = keys[old] == kNonFinite ? Bounds{glm::vec3(-inf), glm::vec3(inf)}
                                                   : Bounds{positions[old], positions[old]};
            out.chunks.push_back(chunk);
        }
        MeshChunk& chunk = out.chunks.back();
        ++chunk.vertexCount;
        if (keys[old] != kNonFinite) {
            chunk.bounds.min = glm::min(chunk.bounds.min, positions[old]);
            chunk.bounds.max = glm::max(chunk.bounds.max, positions[old]);
        }
        out.chunkOfVertex[i] = uint32_t(out.chunks.size() - 1);
    }

    size_t first = 0;
    for (size_t f = 0; f < faceSizes.size(); ++f) {
        const uint32_t size = faceSizes[f];
        if (size < 3 || first + size > faceIndices.size())
            throw Error("mesh: face " + std::to_string(f) + " does not match the face indices");
        for (uint32_t k = 0; k < size; ++k)
            if (faceIndices[first + k] >= n)
                throw Error("mesh: face " + std::to_string(f) + " names vertex " +
                            std::to_string(faceIndices[first + k]) + " of " + std::to_string(n));
        for (uint32_t k = 1; k + 1 < size; ++k)
            out.triangles.insert(out.triangles.end(), {newIndex[faceIndices[first]], newIndex[faceIndices[first + k]],
                                                       newIndex[faceIndices[first + k + 1]]});
        first += size;
    }
    return out;
}

} // namespace sculptflow::viewer
