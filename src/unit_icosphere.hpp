// The unit icosphere: a subdivided icosahedron's directions and triangles,
// shared by the built-in sphere and the sculpt blob.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace sculptflow {

// Each level splits every triangle in four and appends the edge midpoints,
// normalised, in the order the triangles meet them; linear in the mesh's size.
void unitIcosphere(int subdivisions, std::vector<glm::vec3>& unit, std::vector<uint32_t>& tris);

} // namespace sculptflow
