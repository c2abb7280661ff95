// Shared by the fuzz targets: what every successfully parsed result must satisfy.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sculptflow/mesh.hpp>
#include <sculptflow/stroke.hpp>

namespace sculptflow::fuzz {

inline std::string bytes(const uint8_t* data, size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// A reader that returned must have returned something whole and valid.
inline void require(bool ok) {
    if (!ok) std::abort();
}

inline void checkMesh(const Mesh& mesh) {
    require(!mesh.positions.empty());
    for (const glm::vec3& p : mesh.positions)
        require(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    size_t total = 0;
    for (uint32_t n : mesh.faceSizes) {
        require(n >= 3);
        total += n;
    }
    require(total == mesh.faceIndices.size());
    for (uint32_t i : mesh.faceIndices) require(i < mesh.positions.size());
}

inline void checkStroke(const Stroke& stroke) {
    validateStroke(stroke, "fuzz"); // throws, and so aborts as uncaught, if a reader let one through
}

} // namespace sculptflow::fuzz
