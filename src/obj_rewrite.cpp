// OBJ output that keeps what was read: the source text with new positions and the
// normals of moved faces recomputed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "mesh_formats.hpp"
#include "text_scan.hpp"

namespace sculptflow::detail {
namespace {

// An OBJ index (1-based, or negative: relative to the count so far) as 0-based; -1 if absent or bad.
int64_t resolveIndex(std::string_view token, size_t countSoFar) {
    if (token.empty()) return -1;
    const std::optional<int64_t> index = parseInteger(token);
    if (!index || *index == 0) return -1;
    return *index > 0 ? *index - 1 : int64_t(countSoFar) + *index;
}

struct Corner {
    int64_t vertex = -1;
    int64_t normal = -1;
};

// "v/vt/vn", "v//vn", "v/vt" or "v".
Corner parseCorner(std::string_view token, size_t vertices, size_t normals) {
    Corner c;
    const size_t slash = token.find('/');
    c.vertex = resolveIndex(token.substr(0, slash), vertices);
    if (slash == std::string_view::npos) return c;
    const size_t second = token.find('/', slash + 1);
    if (second != std::string_view::npos) c.normal = resolveIndex(token.substr(second + 1), normals);
    return c;
}

bool sameBits(const glm::vec3& a, const glm::vec3& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void appendVector(std::string& out, const char* tag, const glm::vec3& v) {
    out += tag;
    for (int k = 0; k < 3; ++k) {
        out += ' ';
        appendFloat(out, v[k]);
    }
}

} // namespace

std::optional<std::string> rewriteObjSource(const Mesh& mesh) {
    if (objSource(mesh).empty()) return std::nullopt;
    // One pass to learn which vertices moved and which normals their faces use.
    std::vector<bool> moved, shifted;
    std::vector<glm::vec3> normalSums;
    std::vector<bool> stale; // a normal used by a face with a moved vertex
    size_t faces = 0;
    bool consistent = true;
    forEachLine(objSource(mesh), [&](size_t, std::string_view line) {
        const auto tokens = splitTokens(line);
        if (tokens.empty() || !consistent) return;
        if (tokens[0] == "v" && tokens.size() >= 4) {
            const size_t i = moved.size();
            if (i >= mesh.positions.size()) {
                consistent = false;
                return;
            }
            glm::vec3 read;
            for (int k = 0; k < 3; ++k) read[k] = float(parseDouble(tokens[size_t(k) + 1]).value_or(NAN));
            // Any difference rewrites the line; only a real move (not a last-bit
            // disagreement between two float parsers) makes the normals stale.
            moved.push_back(!sameBits(read, mesh.positions[i]));
            const float reach = 1e-6f * std::max(1.0f, glm::length(read));
            shifted.push_back(!(glm::length(read - mesh.positions[i]) <= reach));
        } else if (tokens[0] == "vn") {
            normalSums.emplace_back(0.0f);
            stale.push_back(false);
        } else if (tokens[0] == "f") {
            ++faces;
            std::vector<Corner> corners;
            for (size_t k = 1; k < tokens.size(); ++k)
                corners.push_back(parseCorner(tokens[k], moved.size(), normalSums.size()));
            // Newell's normal: the face's area-weighted normal, for any polygon.
            glm::vec3 normal(0.0f);
            bool faceMoved = false;
            for (size_t k = 0; k < corners.size(); ++k) {
                const int64_t a = corners[k].vertex, b = corners[(k + 1) % corners.size()].vertex;
                if (a < 0 || b < 0 || size_t(a) >= mesh.positions.size() || size_t(b) >= mesh.positions.size())
                    return;
                normal += glm::cross(mesh.positions[size_t(a)], mesh.positions[size_t(b)]);
                faceMoved = faceMoved || (size_t(a) < shifted.size() && shifted[size_t(a)]);
            }
            for (const Corner& c : corners) {
                if (c.normal < 0 || size_t(c.normal) >= normalSums.size()) continue;
                normalSums[size_t(c.normal)] += 0.5f * normal;
                if (faceMoved) stale[size_t(c.normal)] = true;
            }
        }
    });
    if (!consistent || moved.size() != mesh.positions.size() || faces != mesh.faceSizes.size()) return std::nullopt;

    // The second pass writes every line as read but the moved positions and stale normals.
    std::string out;
    out.reserve(objSource(mesh).size() + 64);
    size_t vertex = 0, normal = 0;
    forEachLine(objSource(mesh), [&](size_t, std::string_view line) {
        const auto tokens = splitTokens(line);
        if (!tokens.empty() && tokens[0] == "v" && tokens.size() >= 4 && moved[vertex]) {
            appendVector(out, "v", mesh.positions[vertex]);
            for (size_t k = 4; k < tokens.size(); ++k) { // w, or a colour: kept
                out += ' ';
                out += tokens[k];
            }
        } else if (!tokens.empty() && tokens[0] == "vn" && stale[normal] && glm::length(normalSums[normal]) > 0.0f) {
            appendVector(out, "vn", glm::normalize(normalSums[normal]));
        } else {
            out += line;
        }
        out += '\n';
        if (!tokens.empty() && tokens[0] == "v" && tokens.size() >= 4) ++vertex;
        if (!tokens.empty() && tokens[0] == "vn") ++normal;
    });
    return out;
}

} // namespace sculptflow::detail
