// A polygon mesh and its OBJ / PLY / glTF input and output.
#pragma once

#include "export.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace sculptflow {

// The file a mesh was read from; opaque: only the library reads it.
struct MeshSource;

// Positions plus polygon faces, kept as read so that output has the same topology.
struct Mesh {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> faceSizes;   // vertices per face (3 for a triangle)
    std::vector<uint32_t> faceIndices; // concatenated, zero-based
    std::vector<float> mask;           // a PLY vertex property "mask"; else empty
    // A PLY vertex property "volume_change": each vertex's J = det(∂x/∂x0), a debug
    // output that `deform --volume-change` writes; any float, read back as written. Else empty.
    std::vector<float> volumeChange;
    // The file this mesh was read from, so that writing it back in its own format
    // loses nothing (writeMesh); null for a mesh built in code. Shared by copies.
    std::shared_ptr<const MeshSource> source;
};

// An axis-aligned box, in voxels.
struct Bounds {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
};

enum class MeshFormat { Obj, PlyAscii, PlyBinary, Gltf, Glb };

// Reads .obj, .ply (ASCII, binary little- or big-endian), .gltf or .glb, chosen by
// extension. A glTF's mesh is every TRIANGLES primitive of every mesh node in the
// default scene, in world space (each node's transform composed down the hierarchy).
// Throws sculptflow::Error naming the file and what is wrong; never returns a partial mesh.
SCULPTFLOW_API Mesh readMesh(const std::filesystem::path& path);
// The same from bytes in memory; `name` picks the format by extension and names
// the source in errors.
SCULPTFLOW_API Mesh parseMesh(const std::string& bytes, const std::filesystem::path& name);

// Writes by extension (.obj, .ply as binary little-endian, .gltf with its buffers in
// files beside it, .glb), or in the given format. A mesh read from a file of the
// same format (Mesh::source) is written back with nothing lost, while its vertex
// and face counts (and, for PLY and glTF, its faces) still match the file:
// - OBJ: every line but the moved positions as read (vt, vn and face corners'
//   indices, o/g, s, mtllib/usemtl, comments, a vertex's w or colour); each
//   normal that a face with a moved vertex uses is recomputed from the new
//   positions (area-weighted over the faces that use it, so hard edges stay hard).
// - PLY, in the encoding asked for: every element, property and comment with its
//   type and values; x y z (a vertex left in place keeps its bytes), mask and
//   volume_change (dropped when empty, added as float when the file had none)
//   and float normals of vertices whose faces moved, recomputed as for OBJ.
// - glTF: every attribute, primitive, node, material and extension; only
//   POSITION rewritten (in node-local space; the accessor's min/max updated) and
//   float NORMALs of vertices whose triangles moved recomputed. Untouched bytes
//   stay as read.
// Otherwise OBJ and PLY output is positions and faces (PLY: with mask and
// volume_change), and glTF output is one primitive of positions and triangles
// (larger faces split into a fan).
SCULPTFLOW_API void writeMesh(const Mesh& mesh, const std::filesystem::path& path);
SCULPTFLOW_API void writeMesh(const Mesh& mesh, const std::filesystem::path& path, MeshFormat format);

// A per-vertex mask: one value in [0, 1] a vertex, 1 free, 0 frozen.
// validateMask throws sculptflow::Error naming `source`, the vertex and the value
// when a value is outside [0, 1] or not finite, or the count when it is not
// vertexCount. readMask reads the text form, one value a line, and validates it.
SCULPTFLOW_API void validateMask(std::span<const float> mask, size_t vertexCount, const std::string& source);
SCULPTFLOW_API std::vector<float> readMask(const std::filesystem::path& path, size_t vertexCount);
SCULPTFLOW_API std::vector<float> parseMask(const std::string& text, size_t vertexCount,
                                            const std::filesystem::path& name);

} // namespace sculptflow
