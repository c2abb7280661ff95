// The file a Mesh was read from (Mesh::source), kept so that writing the mesh
// back in its own format loses nothing (mesh.hpp, writeMesh). Internal: only the
// readers set it and only the writers and the CLI's loss report read it.
#pragma once

#include <memory>
#include <string>

#include <sculptflow/mesh.hpp>

namespace sculptflow {

struct GltfSource; // gltf_source.hpp, which brings tinygltf

// One of the three is set, for the format the mesh was read from.
struct MeshSource {
    std::string obj;                        // the OBJ text (obj_rewrite.cpp)
    std::string ply;                        // the PLY file, header and body (ply_rewrite.cpp)
    std::shared_ptr<const GltfSource> gltf; // the model and its buffers (gltf_write.cpp)
};

// Empty (null) for a mesh not read from that format, or built in code.
inline const std::string& objSource(const Mesh& mesh) {
    static const std::string none;
    return mesh.source ? mesh.source->obj : none;
}
inline const std::string& plySource(const Mesh& mesh) {
    static const std::string none;
    return mesh.source ? mesh.source->ply : none;
}
inline const GltfSource* gltfSource(const Mesh& mesh) { return mesh.source ? mesh.source->gltf.get() : nullptr; }

} // namespace sculptflow
