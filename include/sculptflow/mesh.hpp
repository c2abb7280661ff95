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

// A glTF file as read (its JSON, buffers and where each vertex came from); opaque:
// only the library reads it.
struct GltfSource;

// Positions plus polygon faces, kept as read so that output has the same topology.
struct Mesh {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> faceSizes;   // vertices per face (3 for a triangle)
    std::vector<uint32_t> faceIndices; // concatenated, zero-based
    std::vector<float> mask;           // a PLY vertex property "mask"; else empty
    // A PLY vertex property "volume_change": each vertex's J = det(∂x/∂x0), a debug
    // output that `deform --volume-change` writes; any float, read back as written. Else empty.
    std::vector<float> volumeChange;
    // The OBJ text this mesh was read from, so that writing it as OBJ loses nothing:
    // every line but the moved positions is kept as read (texture coordinates vt,
    // face corners' vt/vn indices, object and group names o/g, smoothing groups s,
    // mtllib/usemtl, comments, a vertex's w or colour), and each normal vn that a
    // face with a moved vertex uses is recomputed from the new positions (the
    // area-weighted normal of the faces that use it, so hard edges stay hard).
    // Used only while the vertex and face counts match the text; else, and for a
    // mesh read from PLY or built in code (empty), OBJ output is positions and faces.
    std::string objSource;
    // The PLY file this mesh was read from (header and body), so that writing it as
    // PLY loses nothing: every element, property and comment is kept with its type
    // and values (colours, texture coordinates, a face's colour or extra lists,
    // elements other than vertex and face), in the encoding asked for. Written from
    // this struct instead: x y z (a vertex left in place keeps its bytes), mask and
    // volume_change (dropped when empty, added as float when the source had none), and
    // float normals nx ny nz of vertices whose faces moved, recomputed as the OBJ
    // path does. Used only while the vertex count and faces match the source; else,
    // and for a mesh read from OBJ or built in code (empty), PLY output is x y z,
    // mask, volume_change and faces.
    std::string plySource;
    // The glTF (.gltf or .glb) this mesh was read from, so that writing it as glTF
    // loses nothing: every attribute, primitive, node, material and extension kept,
    // only POSITION rewritten (in node-local space, through the inverse of the node's
    // world transform; the accessor's min/max updated) and float NORMALs of vertices
    // whose triangles moved recomputed as the OBJ path does. Untouched bytes stay as
    // read. Used only while the vertex count and faces match the source; else, and
    // for a mesh read from OBJ/PLY or built in code (null), glTF output is one
    // primitive of positions and triangles (larger faces split into a fan).
    std::shared_ptr<const GltfSource> gltfSource;
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
// files beside it, .glb), or in the given format.
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
