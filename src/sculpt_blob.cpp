// The sculpt-scale built-in mesh: a finely subdivided icosahedron displaced
// radially by a few smooth bumps and dents, so that it looks like a clay blob a
// sculptor started on, placed where the built-in stroke grabs part of its surface.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "demo_fixtures.hpp"
#include "unit_icosphere.hpp"

namespace sculptflow {
namespace {

// One lump: a von Mises bump exp((u·d − 1)/w²) on the unit sphere, smooth
// everywhere, about w radians wide, of relative height `amplitude` (a dent below 0).
struct Lump {
    glm::dvec3 direction;
    double width;
    double amplitude;
};

// Fixed, hand-placed, and mirror-symmetric across x as a head is (so that a tool
// mirrored across the blob's x plane lands on its surface too): a broad crown, a
// flattened underside, lumps and dents at the back, ear-like knobs, cheeks and a
// nose-like knob. Their sum stays within about −0.2 … +0.3.
const std::array<Lump, 14>& lumps() {
    static const std::array<Lump, 14> table = [] {
        std::array<Lump, 14> l{{
            {{0.00, 0.95, 0.10}, 0.70, 0.20},   // crown
            {{0.00, -1.00, 0.00}, 0.55, -0.15}, // underside
            {{0.70, 0.45, -0.55}, 0.30, 0.14},  // upper back lumps
            {{-0.70, 0.45, -0.55}, 0.30, 0.14},
            {{0.45, 0.10, -0.90}, 0.22, -0.10}, // back dents
            {{-0.45, 0.10, -0.90}, 0.22, -0.10},
            {{1.00, 0.05, 0.00}, 0.20, 0.12},   // ears
            {{-1.00, 0.05, 0.00}, 0.20, 0.12},
            {{0.70, -0.20, 0.70}, 0.35, 0.12},  // cheeks
            {{-0.70, -0.20, 0.70}, 0.35, 0.12},
            {{0.00, -0.05, 1.00}, 0.20, 0.13},  // knob
            {{0.00, 0.55, -0.85}, 0.30, -0.08}, // crown dent
            {{0.55, -0.60, -0.55}, 0.35, 0.08}, // lower back bumps
            {{-0.55, -0.60, -0.55}, 0.35, 0.08},
        }};
        for (Lump& lump : l) lump.direction = glm::normalize(lump.direction);
        return l;
    }();
    return table;
}

} // namespace

double blobRadiusFactor(const glm::dvec3& direction) {
    const glm::dvec3 u = glm::normalize(direction);
    double factor = 1.0;
    for (const Lump& lump : lumps())
        factor += lump.amplitude * std::exp((glm::dot(u, lump.direction) - 1.0) / (lump.width * lump.width));
    return factor;
}

Mesh lumpyBlob(int subdivisions, const glm::vec3& center, float radius) {
    if (subdivisions < 0 || subdivisions > 9)
        throw Error("lumpyBlob: " + std::to_string(subdivisions) + " subdivisions (0 to 9 fit 32-bit indices)");
    std::vector<glm::vec3> unit;
    std::vector<uint32_t> tris;
    unitIcosphere(subdivisions, unit, tris);
    Mesh mesh;
    mesh.positions.resize(unit.size());
    const glm::dvec3 c(center);
    for (size_t i = 0; i < unit.size(); ++i) {
        const glm::dvec3 u(unit[i]);
        mesh.positions[i] = glm::vec3(c + double(radius) * blobRadiusFactor(u) * u);
    }
    mesh.faceIndices = std::move(tris);
    mesh.faceSizes.assign(mesh.faceIndices.size() / 3, 3u);
    return mesh;
}

glm::dvec3 sculptBlobCenter(const Stroke& stroke) {
    if (stroke.tools.empty() || stroke.tools.front().poses.empty())
        throw Error("the sculpt blob is placed at a tool's first pose, and the stroke has none");
    const ToolStroke& tool = stroke.tools.front();
    const glm::dvec3 tip = tool.poses.front().position;
    glm::dvec3 out = tool.poses.back().position - tip; // the pull leaves the surface outward
    out = glm::length(out) > 0.0 ? glm::normalize(out) : glm::dvec3(0.0, 1.0, 0.0);
    const double radius = kSculptBlobRadius * tool.outerRadius;
    return tip - radius * blobRadiusFactor(out) * out;
}

Mesh sculptMesh(const Stroke& stroke) {
    const ToolStroke& tool = stroke.tools.front();
    return lumpyBlob(kSculptBlobSubdivisions, glm::vec3(sculptBlobCenter(stroke)),
                     float(kSculptBlobRadius * tool.outerRadius));
}

} // namespace sculptflow
