// Mesh input and output: readMesh / writeMesh, choosing the OBJ, PLY or glTF reader and writer.
#include <sculptflow/mesh.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "file_io.hpp"
#include "mesh_formats.hpp"

namespace sculptflow {
namespace {

using detail::fail;
using detail::kMaxFaceSize;

// A writer refuses what the readers refuse, so every file it writes reads back.
void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path) {
    if (mesh.positions.empty()) fail(path, "cannot write a mesh with no vertices");
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3& p = mesh.positions[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            fail(path, "cannot write vertex " + std::to_string(i) + ": non-finite coordinate");
        }
    }
    size_t total = 0;
    for (size_t f = 0; f < mesh.faceSizes.size(); ++f) {
        const uint32_t size = mesh.faceSizes[f];
        if (size < 3 || size > kMaxFaceSize) {
            fail(path, "cannot write face " + std::to_string(f) + " with " + std::to_string(size) +
                           " vertices (3 to " + std::to_string(kMaxFaceSize) + " supported)");
        }
        total += size;
    }
    if (total != mesh.faceIndices.size()) {
        fail(path, "cannot write mesh: face sizes add up to " + std::to_string(total) +
                       " indices but faceIndices holds " + std::to_string(mesh.faceIndices.size()));
    }
    for (size_t k = 0; k < mesh.faceIndices.size(); ++k) {
        if (mesh.faceIndices[k] >= mesh.positions.size()) {
            fail(path, "cannot write mesh: face index " + std::to_string(mesh.faceIndices[k]) +
                           " out of range (" + std::to_string(mesh.positions.size()) +
                           " vertices)");
        }
    }
}

} // namespace

Mesh readMesh(const std::filesystem::path& path) {
    const std::string ext = detail::lowerExtension(path);
    if (ext == ".obj") return detail::readObj(path);
    if (ext == ".ply") return detail::readPly(path);
    if (ext == ".gltf" || ext == ".glb") return detail::readGltf(path, ext == ".glb");
    fail(path, "unknown mesh extension '" + path.extension().string() + "' (expected .obj, .ply, .gltf or .glb)");
}

Mesh parseMesh(const std::string& bytes, const std::filesystem::path& name) {
    const std::string ext = detail::lowerExtension(name);
    if (ext == ".obj") return detail::parseObj(bytes, name);
    if (ext == ".ply") return detail::parsePly(bytes, name);
    if (ext == ".gltf" || ext == ".glb") return detail::parseGltf(bytes, name, ext == ".glb");
    fail(name, "unknown mesh extension '" + name.extension().string() + "' (expected .obj, .ply, .gltf or .glb)");
}

void writeMesh(const Mesh& mesh, const std::filesystem::path& path) {
    const std::string ext = detail::lowerExtension(path);
    if (ext == ".obj") return writeMesh(mesh, path, MeshFormat::Obj);
    if (ext == ".ply") return writeMesh(mesh, path, MeshFormat::PlyBinary);
    if (ext == ".gltf") return writeMesh(mesh, path, MeshFormat::Gltf);
    if (ext == ".glb") return writeMesh(mesh, path, MeshFormat::Glb);
    fail(path, "unknown mesh extension '" + path.extension().string() + "' (expected .obj, .ply, .gltf or .glb)");
}

void writeMesh(const Mesh& mesh, const std::filesystem::path& path, MeshFormat format) {
    checkMeshForWriting(mesh, path);
    switch (format) {
    case MeshFormat::Obj: return detail::writeObj(mesh, path);
    case MeshFormat::PlyAscii: return detail::writePly(mesh, path, false);
    case MeshFormat::PlyBinary: return detail::writePly(mesh, path, true);
    case MeshFormat::Gltf: return detail::writeGltf(mesh, path, false);
    case MeshFormat::Glb: return detail::writeGltf(mesh, path, true);
    }
    fail(path, "unknown mesh format");
}

} // namespace sculptflow
