// A glTF file as read, kept with the mesh (MeshSource::gltf) so that writing it
// back as glTF changes nothing but the positions and the normals that follow them.
// Internal to the library: every file that uses tinygltf includes it through here,
// so that all of them see its options alike.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

// No image decoding or encoding: images are kept as their bytes or URIs, never read.
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <sculptflow/mesh.hpp>

namespace sculptflow {

struct GltfSource {
    // The vertices of one POSITION accessor, placed by one node: mesh vertices
    // [first, first + count) are its elements in world space.
    struct Block {
        int accessor = -1;
        int node = -1;
        glm::dmat4 world{1.0}; // node-local to world (the stroke's space)
        size_t first = 0;
        size_t count = 0;
        std::vector<int> normalAccessors; // float VEC3 NORMALs of the primitives using it
    };
    tinygltf::Model model;
    std::vector<bool> embeddedBuffers; // buffer i was a data: URI
    std::vector<Block> blocks;
    // The mesh as read, to tell which vertices moved and whether the faces still apply.
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> faceIndices; // triangles
};

namespace detail {

// Where an accessor's elements lie: element i at buffers[buffer].data[offset + i * stride].
struct AccessorBytes {
    size_t buffer = 0;
    size_t offset = 0;
    size_t stride = 0;
    size_t count = 0;
};

// The accessor's bytes, checked to lie inside its buffer view and buffer, for
// `components` values of `componentType` an element (one of `componentType` when
// it is -1: an index accessor's u8/u16/u32). Throws sculptflow::Error naming `path`
// and `role` when the accessor is not of that kind, is sparse or out of bounds.
AccessorBytes accessorBytes(const tinygltf::Model& model, int accessor, int componentType, int components,
                            const std::filesystem::path& path, const std::string& role);

} // namespace detail
} // namespace sculptflow
