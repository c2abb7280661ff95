// The sculpt-scale built-in mesh: a finely subdivided icosahedron displaced
// radially by a few smooth bumps and dents, so that it looks like a clay blob a
// sculptor started on, placed where the built-in stroke grabs part of its surface.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "default_case.hpp"
#include "error.hpp"

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

// Edge → midpoint vertex for one subdivision level: open addressing on the
// ordered pair, sized for the level's edges (a closed mesh has V + F − 2).
class MidpointTable {
public:
    explicit MidpointTable(size_t edges) {
        const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * edges));
        keys_.assign(size, kEmpty);
        values_.resize(size);
        mask_ = size - 1;
        shift_ = 64 - std::countr_zero(size);
    }

    // The midpoint of a–b: found, or appended to `unit` (normalised, as icosphere does).
    uint32_t midpoint(uint32_t a, uint32_t b, std::vector<glm::vec3>& unit) {
        const uint64_t key = (uint64_t(std::min(a, b)) << 32) | std::max(a, b);
        size_t slot = size_t((key * 0x9E3779B97F4A7C15ull) >> shift_); // Fibonacci hashing
        for (;;) {
            if (keys_[slot] == key) return values_[slot];
            if (keys_[slot] == kEmpty) break;
            slot = (slot + 1) & mask_;
        }
        keys_[slot] = key;
        values_[slot] = uint32_t(unit.size());
        unit.push_back(glm::normalize(unit[a] + unit[b]));
        return values_[slot];
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> values_;
    size_t mask_ = 0;
    int shift_ = 64;
};

// The unit icosphere's directions and triangles, in icosphere()'s vertex order
// (each level appends the midpoints in the order its triangles meet them), in
// time linear in the size rather than icosphere()'s ordered map.
void unitIcosphere(int subdivisions, std::vector<glm::vec3>& unit, std::vector<uint32_t>& tris) {
    const float t = float((1.0 + std::sqrt(5.0)) / 2.0);
    unit = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
            {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (glm::vec3& p : unit) p = glm::normalize(p);
    tris = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
            3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (int level = 0; level < subdivisions; ++level) {
        const size_t faces = tris.size() / 3, edges = unit.size() + faces - 2;
        MidpointTable table(edges);
        unit.reserve(unit.size() + edges);
        std::vector<uint32_t> next;
        next.reserve(tris.size() * 4);
        for (size_t f = 0; f < tris.size(); f += 3) {
            const uint32_t a = tris[f], b = tris[f + 1], c = tris[f + 2];
            const uint32_t ab = table.midpoint(a, b, unit), bc = table.midpoint(b, c, unit),
                           ca = table.midpoint(c, a, unit);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        tris = std::move(next);
    }
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
