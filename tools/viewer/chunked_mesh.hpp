// A mesh split into chunks the way a voxel sculpting app meshes blocks: a grid of
// cubic blocks, each block's vertices one contiguous range, so that the per-frame
// path can skip the blocks a move cannot reach.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/live_move.hpp>

namespace sculptflow::viewer {

struct ChunkedMesh {
    std::vector<glm::vec3> positions;   // voxels, sorted by block
    std::vector<uint32_t> triangles;    // three indices a triangle, into `positions`
    std::vector<uint32_t> chunkOfVertex;
    std::vector<uint32_t> originalIndex; // positions[i] was the input's vertex originalIndex[i]
    std::vector<MeshChunk> chunks;      // ranges of `positions`, with their vertices' bounds
    float blockSize = 0.0f;             // voxels
};

// Block size used when none is given: the mesh's longest side over this.
inline constexpr float kBlocksAlongLongestSide = 6.0f;

// Sorts the vertices by the grid block (of `blockSize` voxels; 0: automatic) that
// holds them and remaps the faces, cut into fans, to the new order. Each chunk's
// bounds are its vertices' box. Vertices with a non-finite coordinate get one
// chunk of their own, with infinite bounds (always in reach). Triangles may join
// vertices of neighbouring chunks: the mesh is not cut apart at block borders.
// Throws sculptflow::Error for faces that do not match the positions.
ChunkedMesh chunkMesh(std::span<const glm::vec3> positions, std::span<const uint32_t> faceSizes,
                      std::span<const uint32_t> faceIndices, float blockSize = 0.0f);

} // namespace sculptflow::viewer
