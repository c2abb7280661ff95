// The unit icosphere, subdivided with a hash table of edge midpoints.
#include "unit_icosphere.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sculptflow {
namespace {

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

} // namespace

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


} // namespace sculptflow
