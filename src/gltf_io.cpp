// glTF 2.0 input (.gltf with external or embedded buffers, .glb) through tinygltf:
// the TRIANGLES primitives of the default scene's mesh nodes, in world space.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "file_io.hpp"
#include "gltf_source.hpp"
#include "mesh_formats.hpp"

namespace sculptflow::detail {

AccessorBytes accessorBytes(const tinygltf::Model& model, int index, int componentType, int components,
                            const std::filesystem::path& path, const std::string& role) {
    const std::string name = role + " accessor " + std::to_string(index);
    if (index < 0 || size_t(index) >= model.accessors.size()) fail(path, name + " does not exist");
    const tinygltf::Accessor& a = model.accessors[size_t(index)];
    if (a.sparse.isSparse) fail(path, name + " is sparse (sparse accessors are not supported)");
    const int type = componentType < 0 ? a.componentType : componentType;
    const bool indexType = type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                           type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
                           type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    if (a.componentType != type || (componentType < 0 && !indexType))
        fail(path, name + " has component type " + std::to_string(a.componentType) + " (expected " +
                       (componentType < 0 ? std::string("unsigned byte, short or int") : "float") + ")");
    const int expectedType = components == 1 ? TINYGLTF_TYPE_SCALAR : TINYGLTF_TYPE_VEC3;
    if (a.type != expectedType || a.normalized)
        fail(path, name + " is not a" + (components == 1 ? " SCALAR" : " float VEC3") + " accessor");
    if (a.bufferView < 0 || size_t(a.bufferView) >= model.bufferViews.size())
        fail(path, name + " has no buffer view (zero-filled or compressed data is not supported)");
    const tinygltf::BufferView& view = model.bufferViews[size_t(a.bufferView)];
    if (view.buffer < 0 || size_t(view.buffer) >= model.buffers.size())
        fail(path, name + "'s buffer view refers to a missing buffer");
    const size_t bufferSize = model.buffers[size_t(view.buffer)].data.size();
    const size_t element = size_t(tinygltf::GetComponentSizeInBytes(uint32_t(type))) * size_t(components);
    const size_t stride = view.byteStride == 0 ? element : view.byteStride;
    // Every sum and product checked before use: counts and offsets come from the file.
    const auto outside = [&] { fail(path, name + " reaches outside its buffer view or buffer"); };
    if (stride < element || view.byteOffset > bufferSize || view.byteLength > bufferSize - view.byteOffset ||
        a.byteOffset > view.byteLength)
        outside();
    if (a.count > 0) {
        const size_t room = view.byteLength - a.byteOffset;
        if (room < element || (a.count - 1) > (room - element) / stride) outside();
    }
    return {size_t(view.buffer), view.byteOffset + a.byteOffset, stride, a.count};
}

namespace {

float loadFloat(const unsigned char* p) {
    float value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

uint32_t loadIndex(const unsigned char* p, int componentType) {
    if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) return *p;
    if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        uint16_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The node's own transform: its matrix, or translation * rotation * scale.
glm::dmat4 localTransform(const tinygltf::Node& node, int index, const std::filesystem::path& path) {
    const std::string name = "node " + std::to_string(index);
    if (!node.matrix.empty()) {
        if (node.matrix.size() != 16) fail(path, name + "'s matrix does not have 16 values");
        return glm::make_mat4(node.matrix.data()); // both column-major
    }
    glm::dmat4 m(1.0);
    if (!node.translation.empty()) {
        if (node.translation.size() != 3) fail(path, name + "'s translation does not have 3 values");
        m = glm::translate(m, glm::make_vec3(node.translation.data()));
    }
    if (!node.rotation.empty()) {
        if (node.rotation.size() != 4) fail(path, name + "'s rotation does not have 4 values");
        const std::vector<double>& q = node.rotation; // x y z w
        m *= glm::mat4_cast(glm::normalize(glm::dquat(q[3], q[0], q[1], q[2])));
    }
    if (!node.scale.empty()) {
        if (node.scale.size() != 3) fail(path, name + "'s scale does not have 3 values");
        m = glm::scale(m, glm::make_vec3(node.scale.data()));
    }
    return m;
}

bool isFiniteMatrix(const glm::dmat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

class Reader {
public:
    Reader(GltfSource& source, Mesh& mesh, const std::filesystem::path& path)
        : source_(source), model_(source.model), mesh_(mesh), path_(path) {}

    void readScene() {
        if (model_.scenes.empty()) fail(path_, "no scene (a mesh is read from the default scene's nodes)");
        const int scene = model_.defaultScene < 0 ? 0 : model_.defaultScene;
        if (size_t(scene) >= model_.scenes.size()) fail(path_, "default scene " + std::to_string(scene) + " does not exist");
        visited_.assign(model_.nodes.size(), false);
        for (const int node : model_.scenes[size_t(scene)].nodes) visit(node);
        if (mesh_.positions.empty()) fail(path_, "the default scene has no triangles");
    }

private:
    // Depth first, with a stack of its own: a file's hierarchy may be deeper than the call stack.
    void visit(int root) {
        std::vector<std::pair<int, glm::dmat4>> pending{{root, glm::dmat4(1.0)}};
        while (!pending.empty()) {
            const auto [index, parent] = pending.back();
            pending.pop_back();
            if (index < 0 || size_t(index) >= model_.nodes.size())
                fail(path_, "node " + std::to_string(index) + " does not exist");
            // A node reached twice is a cycle or a node with two parents: glTF allows neither.
            if (visited_[size_t(index)]) fail(path_, "node " + std::to_string(index) + " is reached twice in the scene");
            visited_[size_t(index)] = true;
            const tinygltf::Node& node = model_.nodes[size_t(index)];
            const glm::dmat4 world = parent * localTransform(node, index, path_);
            if (node.mesh >= 0) readMeshNode(node, index, world);
            for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
                pending.emplace_back(*child, world);
        }
    }

    void readMeshNode(const tinygltf::Node& node, int index, const glm::dmat4& world) {
        const std::string name = "node " + std::to_string(index);
        if (size_t(node.mesh) >= model_.meshes.size()) fail(path_, name + "'s mesh does not exist");
        if (node.skin >= 0) fail(path_, name + " is skinned (a skinned mesh's positions are not in its node's space)");
        if (!isFiniteMatrix(world) || !(std::abs(glm::determinant(world)) > 1e-30))
            fail(path_, name + "'s world transform is singular or not finite");
        const tinygltf::Mesh& gltfMesh = model_.meshes[size_t(node.mesh)];
        for (size_t p = 0; p < gltfMesh.primitives.size(); ++p) {
            const tinygltf::Primitive& primitive = gltfMesh.primitives[p];
            const std::string where = "mesh " + std::to_string(node.mesh) + " primitive " + std::to_string(p);
            if (primitive.mode != TINYGLTF_MODE_TRIANGLES)
                fail(path_, where + " has mode " + std::to_string(primitive.mode) +
                                " (only TRIANGLES primitives, mode 4, are read)");
            const auto position = primitive.attributes.find("POSITION");
            if (position == primitive.attributes.end()) fail(path_, where + " has no POSITION");
            GltfSource::Block& block = blockFor(position->second, index, world, where);
            const auto normal = primitive.attributes.find("NORMAL");
            if (normal != primitive.attributes.end() && normalsFit(normal->second, block)) {
                std::vector<int>& list = block.normalAccessors;
                if (std::find(list.begin(), list.end(), normal->second) == list.end()) list.push_back(normal->second);
            }
            readTriangles(primitive, block, where);
        }
    }

    // The vertices of a POSITION accessor: read once, shared by the primitives of
    // one node; an accessor placed by two nodes is an instance, which cannot hold
    // two deformed shapes.
    GltfSource::Block& blockFor(int accessor, int node, const glm::dmat4& world, const std::string& where) {
        const auto known = blockOfAccessor_.find(accessor);
        if (known != blockOfAccessor_.end()) {
            GltfSource::Block& block = source_.blocks[known->second];
            if (block.node != node)
                fail(path_, where + ": its POSITION accessor " + std::to_string(accessor) + " is placed by nodes " +
                                std::to_string(block.node) + " and " + std::to_string(node) +
                                " (an instanced mesh cannot be deformed: its vertices have one position each)");
            return block;
        }
        const AccessorBytes bytes =
            accessorBytes(model_, accessor, TINYGLTF_COMPONENT_TYPE_FLOAT, 3, path_, where + " POSITION");
        if (mesh_.positions.size() + bytes.count > std::numeric_limits<uint32_t>::max())
            fail(path_, "more than 2^32 - 1 vertices");
        GltfSource::Block block{accessor, node, world, mesh_.positions.size(), bytes.count, {}};
        const unsigned char* data = model_.buffers[bytes.buffer].data.data();
        for (size_t i = 0; i < bytes.count; ++i) {
            const unsigned char* p = data + bytes.offset + i * bytes.stride;
            const glm::dvec4 local(loadFloat(p), loadFloat(p + 4), loadFloat(p + 8), 1.0);
            const glm::vec3 at(glm::dvec3(world * local));
            if (!std::isfinite(at.x) || !std::isfinite(at.y) || !std::isfinite(at.z))
                fail(path_, where + " vertex " + std::to_string(i) + " is not finite in world space");
            mesh_.positions.push_back(at);
        }
        blockOfAccessor_[accessor] = source_.blocks.size();
        source_.blocks.push_back(block);
        return source_.blocks.back();
    }

    // Normals that can be recomputed: float VEC3, one per vertex; others are kept as read.
    bool normalsFit(int accessor, const GltfSource::Block& block) const {
        if (size_t(accessor) >= model_.accessors.size() || accessor == block.accessor) return false;
        const tinygltf::Accessor& a = model_.accessors[size_t(accessor)];
        if (a.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT || a.type != TINYGLTF_TYPE_VEC3 || a.normalized ||
            a.count != block.count)
            return false;
        accessorBytes(model_, accessor, TINYGLTF_COMPONENT_TYPE_FLOAT, 3, path_, "NORMAL");
        return true;
    }

    void readTriangles(const tinygltf::Primitive& primitive, const GltfSource::Block& block, const std::string& where) {
        std::vector<uint32_t> corners;
        if (primitive.indices < 0) {
            for (size_t i = 0; i < block.count; ++i) corners.push_back(uint32_t(i));
        } else {
            const AccessorBytes bytes = accessorBytes(model_, primitive.indices, -1, 1, path_, where + " indices");
            const int type = model_.accessors[size_t(primitive.indices)].componentType;
            const unsigned char* data = model_.buffers[bytes.buffer].data.data();
            corners.reserve(bytes.count);
            for (size_t i = 0; i < bytes.count; ++i) {
                const uint32_t v = loadIndex(data + bytes.offset + i * bytes.stride, type);
                if (v >= block.count)
                    fail(path_, where + " index " + std::to_string(i) + " is " + std::to_string(v) + ", past its " +
                                    std::to_string(block.count) + " vertices");
                corners.push_back(v);
            }
        }
        if (corners.size() % 3 != 0)
            fail(path_, where + " has " + std::to_string(corners.size()) + " corners, not a whole number of triangles");
        for (const uint32_t v : corners) mesh_.faceIndices.push_back(uint32_t(block.first) + v);
        mesh_.faceSizes.insert(mesh_.faceSizes.end(), corners.size() / 3, 3u);
    }

    GltfSource& source_;
    const tinygltf::Model& model_;
    Mesh& mesh_;
    const std::filesystem::path& path_;
    std::vector<bool> visited_;
    std::map<int, size_t> blockOfAccessor_;
};

std::string firstLine(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    return line.empty() ? "unknown error" : line;
}

} // namespace

Mesh parseGltf(const std::string& bytes, const std::filesystem::path& path, bool binary) {
    auto source = std::make_shared<GltfSource>();
    tinygltf::TinyGLTF loader;
    std::string error, warning;
    // External buffers are read from beside the file; images are never read (kept as URIs).
    const std::string base = path.parent_path().string();
    bool ok = false;
    try {
        ok = binary ? loader.LoadBinaryFromMemory(&source->model, &error, &warning,
                                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                                  unsigned(std::min<size_t>(bytes.size(), UINT32_MAX)), base)
                    : loader.LoadASCIIFromString(&source->model, &error, &warning, bytes.data(),
                                                 unsigned(std::min<size_t>(bytes.size(), UINT32_MAX)), base);
    } catch (const std::exception& e) { // tinygltf's JSON parser may throw on what it cannot take
        fail(path, std::string("not a valid glTF: ") + e.what());
    }
    if (!ok) fail(path, "not a valid glTF: " + firstLine(error));
    // Extensions that store the vertices otherwise; any other is kept as read, unread.
    for (const std::string& required : source->model.extensionsRequired)
        if (required == "KHR_draco_mesh_compression" || required == "EXT_meshopt_compression" ||
            required == "KHR_mesh_quantization")
            fail(path, "requires extension " + required + " (compressed or quantized vertices are not supported)");
    for (const tinygltf::Buffer& buffer : source->model.buffers)
        source->embeddedBuffers.push_back(buffer.uri.rfind("data:", 0) == 0);

    Mesh mesh;
    Reader(*source, mesh, path).readScene();
    source->positions = mesh.positions;
    source->faceIndices = mesh.faceIndices;
    mesh.source = std::make_shared<const MeshSource>(MeshSource{.gltf = std::move(source)});
    return mesh;
}

Mesh readGltf(const std::filesystem::path& path, bool binary) {
    return parseGltf(readWholeFile(path), path, binary);
}

} // namespace sculptflow::detail
