// The OBJ and PLY readers and writers behind readMesh / writeMesh.
// Internal to the library (namespace sculptflow::detail): not public API; use mesh.hpp.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "mesh.hpp"

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

// mesh.objSource with its positions replaced by mesh.positions and the normals of
// moved faces recomputed (mesh.hpp); nullopt when the text no longer matches the
// mesh's vertex and face counts.
std::optional<std::string> rewriteObjSource(const Mesh& mesh);
// mesh.plySource in the asked encoding with what the mesh holds written in (mesh.hpp);
// nullopt when the source no longer matches the mesh's vertices and faces.
std::optional<std::string> rewritePlySource(const Mesh& mesh, bool binary);

// Writers expect a mesh that checkMeshForWriting (mesh_io.cpp) has accepted.
void writeObj(const Mesh& mesh, const std::filesystem::path& path);
void writePly(const Mesh& mesh, const std::filesystem::path& path, bool binary);

} // namespace sculptflow::detail
