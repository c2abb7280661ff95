// The OBJ, PLY and glTF readers and writers behind readMesh / writeMesh.
// Internal to the library (namespace sculptflow::detail): not public API; use mesh.hpp.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sculptflow/mesh.hpp>
#include "mesh_source.hpp"

namespace sculptflow::detail {

// Faces have at most this many vertices: tinyobjloader stores face sizes as unsigned
// char (larger ones wrap silently), and our PLY output writes `list uchar uint`.
// Readers and writers share the limit so that everything written can be read back.
inline constexpr size_t kMaxFaceSize = 255;

// Readers throw sculptflow::Error naming the file and what is wrong; never a partial mesh.
Mesh readObj(const std::filesystem::path& path);
Mesh readPly(const std::filesystem::path& path);
// The same from bytes in memory; `path` only names the source in errors.
Mesh parseObj(const std::string& text, const std::filesystem::path& path);
Mesh parsePly(const std::string& data, const std::filesystem::path& path);

// The mesh's OBJ source (mesh_source.hpp) with its positions replaced by mesh.positions and the normals of
// moved faces recomputed (mesh.hpp); nullopt when the text no longer matches the
// mesh's vertex and face counts.
std::optional<std::string> rewriteObjSource(const Mesh& mesh);
// The mesh's PLY source in the asked encoding with what the mesh holds written in (mesh.hpp);
// nullopt when the source no longer matches the mesh's vertices and faces.
std::optional<std::string> rewritePlySource(const Mesh& mesh, bool binary);

// glTF (.gltf when !binary, .glb when binary), through tinygltf (gltf_io.cpp):
// `path` names the source in errors and its folder is where external buffers are read.
Mesh readGltf(const std::filesystem::path& path, bool binary);
Mesh parseGltf(const std::string& bytes, const std::filesystem::path& path, bool binary);

// A glTF as written: the .gltf or .glb itself and, for .gltf, the buffer files it
// names (file name beside it, bytes).
struct GltfFiles {
    std::string main;
    std::vector<std::pair<std::string, std::string>> buffers;
};
// The mesh's glTF source rewritten (mesh.hpp), or a plain glTF when the mesh has
// none or no longer matches it; buffer files are named after `stem`; `path` names
// the output in errors.
GltfFiles encodeGltf(const Mesh& mesh, bool binary, const std::string& stem, const std::filesystem::path& path);

// Writers expect a mesh that checkMeshForWriting (mesh_io.cpp) has accepted.
void writeObj(const Mesh& mesh, const std::filesystem::path& path);
void writePly(const Mesh& mesh, const std::filesystem::path& path, bool binary);
void writeGltf(const Mesh& mesh, const std::filesystem::path& path, bool binary);

} // namespace sculptflow::detail
