// OBJ input (through tinyobjloader, cross-checked by a strict scan of its own) and output.
#include "mesh_formats.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <tiny_obj_loader.h>

#include "file_io.hpp"
#include "text_scan.hpp"

namespace sculptflow::detail {
namespace {

// What our own pass over the text found; tinyobjloader's result must agree with it.
struct ObjScan {
    size_t vertexCount = 0;
    size_t faceCount = 0;
};

// tinyobjloader quietly accepts several malformed lines: a missing or non-numeric
// coordinate becomes 0, "nan"/"inf" become 0, "f 1.5 ..." reads as 1, faces with fewer
// than 3 vertices are dropped, faces over 255 vertices wrap their size, and out-of-range
// indices only warn. This pass refuses all of those with the line number.
ObjScan scanObj(std::string_view text, const std::filesystem::path& path) {
    ObjScan scan;
    int64_t maxIndex = 0; // largest positive (1-based) face index, checked at the end
    size_t maxIndexLine = 0;
    forEachLine(text, [&](size_t lineNumber, std::string_view line) {
        const auto where = [&] { return "line " + std::to_string(lineNumber) + ": "; };
        const auto tokens = splitTokens(line);
        if (tokens.empty() || tokens[0][0] == '#') return;
        if (tokens[0] == "v") {
            const size_t count = tokens.size() - 1;
            if (count != 3 && count != 4 && count != 6) {
                fail(path, where() + "vertex has " + std::to_string(count) +
                               " values (expected x y z, optionally followed by w or r g b)");
            }
            for (size_t k = 1; k < tokens.size(); ++k) {
                const auto value = parseDouble(tokens[k]);
                if (!value) fail(path, where() + "vertex value " + shown(tokens[k]) + " is not a number");
                if (k <= 3 && !std::isfinite(static_cast<float>(*value))) {
                    fail(path, where() + "non-finite vertex coordinate " + shown(tokens[k]));
                }
            }
            ++scan.vertexCount;
        } else if (tokens[0] == "f") {
            const size_t count = tokens.size() - 1;
            if (count < 3 || count > kMaxFaceSize) {
                fail(path, where() + "face has " + std::to_string(count) + " vertices (3 to " +
                               std::to_string(kMaxFaceSize) + " supported)");
            }
            for (size_t k = 1; k < tokens.size(); ++k) {
                const auto vertexPart = tokens[k].substr(0, tokens[k].find('/'));
                const auto index = parseInteger(vertexPart);
                if (!index || *index == 0) {
                    fail(path, where() + "bad face vertex index " + shown(tokens[k]));
                }
                if (*index < 0 && -*index > static_cast<int64_t>(scan.vertexCount)) {
                    fail(path, where() + "relative face index " + std::to_string(*index) +
                                   " points before the first vertex (" +
                                   std::to_string(scan.vertexCount) + " vertices so far)");
                }
                if (*index > maxIndex) {
                    maxIndex = *index;
                    maxIndexLine = lineNumber;
                }
            }
            ++scan.faceCount;
        }
    });
    if (scan.vertexCount == 0) fail(path, "no vertices");
    if (maxIndex > static_cast<int64_t>(scan.vertexCount)) {
        fail(path, "line " + std::to_string(maxIndexLine) + ": face index " + std::to_string(maxIndex) +
                       " out of range (file has " + std::to_string(scan.vertexCount) + " vertices)");
    }
    if (scan.vertexCount > std::numeric_limits<uint32_t>::max()) fail(path, "too many vertices");
    return scan;
}

} // namespace

Mesh readObj(const std::filesystem::path& path) { return parseObj(readWholeFile(path), path); }

Mesh parseObj(const std::string& text, const std::filesystem::path& path) {
    const ObjScan scan = scanObj(text, path);

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warning;
    std::string error;
    std::istringstream stream(text);
    // No material reader: materials are not needed, and mtllib must not open other files.
    const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warning, &error, &stream,
                                     nullptr, /*triangulate=*/false);
    if (!ok) {
        while (!error.empty() && (error.back() == '\n' || error.back() == '.')) error.pop_back();
        fail(path, "OBJ parse error: " + error);
    }

    // Cross-check tinyobjloader against our scan, so a disagreement never yields a wrong mesh.
    const size_t vertexCount = attrib.vertices.size() / 3;
    if (vertexCount != scan.vertexCount) {
        fail(path, "tinyobjloader read " + std::to_string(vertexCount) + " vertices, expected " +
                       std::to_string(scan.vertexCount));
    }
    Mesh mesh;
    mesh.positions.resize(vertexCount);
    for (size_t i = 0; i < vertexCount; ++i) {
        const glm::vec3 p(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            fail(path, "vertex " + std::to_string(i) + ": non-finite coordinate");
        }
        mesh.positions[i] = p;
    }
    mesh.faceSizes.reserve(scan.faceCount);
    for (const tinyobj::shape_t& shape : shapes) {
        size_t offset = 0;
        for (const unsigned char size : shape.mesh.num_face_vertices) {
            const size_t face = mesh.faceSizes.size();
            if (size < 3 || offset + size > shape.mesh.indices.size()) {
                fail(path, "face " + std::to_string(face) + ": inconsistent size " + std::to_string(size));
            }
            for (size_t k = 0; k < size; ++k) {
                const int index = shape.mesh.indices[offset + k].vertex_index;
                if (index < 0 || static_cast<size_t>(index) >= vertexCount) {
                    fail(path, "face " + std::to_string(face) + ": vertex index " +
                                   std::to_string(index) + " out of range (" +
                                   std::to_string(vertexCount) + " vertices)");
                }
                mesh.faceIndices.push_back(static_cast<uint32_t>(index));
            }
            mesh.faceSizes.push_back(size);
            offset += size;
        }
        if (offset != shape.mesh.indices.size()) fail(path, "inconsistent face data in shape " + shape.name);
    }
    if (mesh.faceSizes.size() != scan.faceCount) {
        fail(path, "tinyobjloader read " + std::to_string(mesh.faceSizes.size()) + " faces, expected " +
                       std::to_string(scan.faceCount));
    }
    // For writeObj: everything the positions and faces leave out.
    mesh.source = std::make_shared<const MeshSource>(MeshSource{.obj = text});
    return mesh;
}

void writeObj(const Mesh& mesh, const std::filesystem::path& path) {
    if (std::optional<std::string> kept = rewriteObjSource(mesh)) return writeFileAtomically(path, *kept);
    std::string out = "# sculptflow mesh\n";
    out.reserve(mesh.positions.size() * 40 + mesh.faceIndices.size() * 8);
    for (const glm::vec3& p : mesh.positions) {
        out += "v ";
        appendFloat(out, p.x);
        out += ' ';
        appendFloat(out, p.y);
        out += ' ';
        appendFloat(out, p.z);
        out += '\n';
    }
    size_t offset = 0;
    for (const uint32_t size : mesh.faceSizes) {
        out += 'f';
        for (size_t k = 0; k < size; ++k) {
            out += ' ';
            appendUnsigned(out, uint64_t{mesh.faceIndices[offset + k]} + 1);
        }
        out += '\n';
        offset += size;
    }
    writeFileAtomically(path, out);
}

} // namespace sculptflow::detail
