// The mask the viewer shows (spec §3.5): a file's, reordered to the chunked
// mesh, or a "painted" preview that holds one half of the mesh still.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace sculptflow::viewer {

// The painted preview: 0 (frozen) for vertices below the centre of the mesh's
// height (y), ramping smoothly to 1 (free) over the next kPaintedRamp of the
// height, 1 above. The y axis keeps it mirror-symmetric under x and z symmetry.
inline constexpr float kPaintedRamp = 0.25f;
std::vector<float> paintedMask(std::span<const glm::vec3> positions);

// A mask in the input's vertex order, put in the chunked mesh's order
// (ChunkedMesh::originalIndex): out[i] = mask[originalIndex[i]].
std::vector<float> inChunkOrder(std::span<const float> mask, std::span<const uint32_t> originalIndex);

} // namespace sculptflow::viewer
