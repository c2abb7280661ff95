// glTF output: the source file rewritten with the moved positions (and the normals
// that follow them) written into its buffers in place, or, for a mesh without a
// glTF source, one primitive of positions and triangles. See writeMesh (mesh.hpp).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_io.hpp"
#include "gltf_source.hpp"
#include "mesh_formats.hpp"

namespace sculptflow::detail {
namespace {

glm::vec3 loadVec3(const unsigned char* p) {
    glm::vec3 v;
    std::memcpy(&v[0], p, sizeof v);
    return v;
}

void storeVec3(unsigned char* p, const glm::vec3& v) { std::memcpy(p, &v[0], sizeof v); }

unsigned char* elementAt(tinygltf::Model& model, const AccessorBytes& bytes, size_t i) {
    return model.buffers[bytes.buffer].data.data() + bytes.offset + i * bytes.stride;
}

// The source model with the mesh's positions written in; nullopt when the mesh's
// vertices or faces no longer match what was read.
std::optional<tinygltf::Model> rewrittenModel(const Mesh& mesh) {
    const GltfSource* source = gltfSource(mesh);
    if (!source || source->positions.size() != mesh.positions.size() || source->faceIndices != mesh.faceIndices ||
        mesh.faceSizes.size() * 3 != mesh.faceIndices.size() ||
        std::any_of(mesh.faceSizes.begin(), mesh.faceSizes.end(), [](uint32_t n) { return n != 3; }))
        return std::nullopt;
    tinygltf::Model model = source->model;
    const std::filesystem::path name = "the mesh's glTF source";
    const size_t n = mesh.positions.size();
    std::vector<glm::vec3> local(n);
    // Moved: any bit (rewritten); shifted: a real move, which makes the normals stale.
    std::vector<bool> shifted(n);
    for (const GltfSource::Block& block : source->blocks) {
        const AccessorBytes bytes = accessorBytes(model, block.accessor, TINYGLTF_COMPONENT_TYPE_FLOAT, 3, name, "POSITION");
        const glm::dmat4 toLocal = glm::inverse(block.world);
        bool anyMoved = false;
        for (size_t i = 0; i < block.count; ++i) {
            const size_t v = block.first + i;
            const glm::vec3 &was = source->positions[v], &now = mesh.positions[v];
            unsigned char* at = elementAt(model, bytes, i);
            if (std::memcmp(&was, &now, sizeof was) != 0) {
                storeVec3(at, glm::vec3(toLocal * glm::dvec4(glm::dvec3(now), 1.0)));
                anyMoved = true;
            }
            local[v] = loadVec3(at);
            shifted[v] = !(glm::length(was - now) <= 1e-6f * std::max(1.0f, glm::length(was)));
        }
        tinygltf::Accessor& accessor = model.accessors[size_t(block.accessor)];
        if (anyMoved && block.count > 0) { // POSITION's bounds, required by the spec, follow the vertices
            glm::vec3 lo = local[block.first], hi = lo;
            for (size_t i = 0; i < block.count; ++i) {
                lo = glm::min(lo, local[block.first + i]);
                hi = glm::max(hi, local[block.first + i]);
            }
            accessor.minValues = {lo.x, lo.y, lo.z};
            accessor.maxValues = {hi.x, hi.y, hi.z};
        }
    }

    // Normals of vertices on a triangle that moved: the area-weighted normal of the
    // triangles around them, in node-local space (every triangle lies in one block).
    std::vector<glm::vec3> normals(n, glm::vec3(0.0f));
    std::vector<bool> stale(n);
    for (size_t f = 0; f + 2 < mesh.faceIndices.size(); f += 3) {
        const uint32_t* t = &mesh.faceIndices[f];
        const glm::vec3 normal = glm::cross(local[t[1]] - local[t[0]], local[t[2]] - local[t[0]]);
        const bool moved = shifted[t[0]] || shifted[t[1]] || shifted[t[2]];
        for (int k = 0; k < 3; ++k) {
            normals[t[k]] += normal;
            if (moved) stale[t[k]] = true;
        }
    }
    for (const GltfSource::Block& block : source->blocks) {
        for (const int normalAccessor : block.normalAccessors) {
            const AccessorBytes bytes = accessorBytes(model, normalAccessor, TINYGLTF_COMPONENT_TYPE_FLOAT, 3, name, "NORMAL");
            for (size_t i = 0; i < block.count; ++i) {
                const size_t v = block.first + i;
                if (stale[v] && glm::length(normals[v]) > 0.0f)
                    storeVec3(elementAt(model, bytes, i), glm::normalize(normals[v]));
            }
        }
    }
    return model;
}

// A mesh built in code or read from OBJ/PLY: one buffer of positions and
// triangle indices (a larger face split into a fan), one node, one scene.
tinygltf::Model plainModel(const Mesh& mesh, const std::filesystem::path& path) {
    if (mesh.faceSizes.empty()) fail(path, "cannot write a mesh without faces as glTF (it holds triangles only)");
    std::vector<uint32_t> indices;
    size_t offset = 0;
    for (const uint32_t size : mesh.faceSizes) {
        for (uint32_t k = 1; k + 1 < size; ++k) {
            indices.push_back(mesh.faceIndices[offset]);
            indices.push_back(mesh.faceIndices[offset + k]);
            indices.push_back(mesh.faceIndices[offset + k + 1]);
        }
        offset += size;
    }
    tinygltf::Model model;
    model.asset.version = "2.0";
    model.asset.generator = "sculptflow";
    const size_t positionBytes = mesh.positions.size() * sizeof(glm::vec3);
    tinygltf::Buffer buffer;
    buffer.data.resize(positionBytes + indices.size() * sizeof(uint32_t));
    std::memcpy(buffer.data.data(), mesh.positions.data(), positionBytes);
    std::memcpy(buffer.data.data() + positionBytes, indices.data(), indices.size() * sizeof(uint32_t));
    model.buffers.push_back(std::move(buffer));

    tinygltf::BufferView positionView, indexView;
    positionView.buffer = indexView.buffer = 0;
    positionView.byteLength = positionBytes;
    positionView.target = TINYGLTF_TARGET_ARRAY_BUFFER;
    indexView.byteOffset = positionBytes;
    indexView.byteLength = indices.size() * sizeof(uint32_t);
    indexView.target = TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER;
    model.bufferViews = {positionView, indexView};

    tinygltf::Accessor positions, corners;
    positions.bufferView = 0;
    positions.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    positions.type = TINYGLTF_TYPE_VEC3;
    positions.count = mesh.positions.size();
    glm::vec3 lo = mesh.positions.front(), hi = lo;
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    positions.minValues = {lo.x, lo.y, lo.z};
    positions.maxValues = {hi.x, hi.y, hi.z};
    corners.bufferView = 1;
    corners.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    corners.type = TINYGLTF_TYPE_SCALAR;
    corners.count = indices.size();
    model.accessors = {positions, corners};

    tinygltf::Primitive primitive;
    primitive.attributes["POSITION"] = 0;
    primitive.indices = 1;
    primitive.mode = TINYGLTF_MODE_TRIANGLES;
    tinygltf::Mesh gltfMesh;
    gltfMesh.primitives.push_back(primitive);
    model.meshes.push_back(gltfMesh);
    tinygltf::Node node;
    node.mesh = 0;
    model.nodes.push_back(node);
    tinygltf::Scene scene;
    scene.nodes = {0};
    model.scenes.push_back(scene);
    model.defaultScene = 0;
    return model;
}

// A file name as a URI reference: unreserved characters as they are, the rest %-encoded.
std::string uriOf(const std::string& name) {
    std::string uri;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += c;
        } else {
            static const char* hex = "0123456789ABCDEF";
            uri += '%';
            uri += hex[u >> 4];
            uri += hex[u & 15];
        }
    }
    return uri;
}

GltfFiles serializeGltf(tinygltf::Model model, std::vector<bool> embedded, bool binary, const std::string& stem,
                    const std::filesystem::path& path) {
    GltfFiles files;
    tinygltf::TinyGLTF writer;
    std::ostringstream out;
    if (binary) {
        // The first buffer goes into the GLB's BIN chunk; any others are embedded as data URIs.
        // (An empty one has no chunk: it stays a URI, embedded.)
        if (!model.buffers.empty()) model.buffers[0].uri = model.buffers[0].data.empty() ? "data:" : "";
        if (!writer.WriteGltfSceneToStream(&model, out, false, true)) fail(path, "tinygltf could not write the file");
        files.main = out.str();
        return files;
    }
    // The stream writer embeds every buffer; one that was not embedded in the source
    // (an external file, a GLB's BIN chunk) goes to a file of its own beside the output.
    embedded.resize(model.buffers.size(), false);
    std::vector<std::vector<unsigned char>> external(model.buffers.size());
    for (size_t i = 0; i < model.buffers.size(); ++i)
        if (!embedded[i]) std::swap(external[i], model.buffers[i].data);
    if (!writer.WriteGltfSceneToStream(&model, out, true, false)) fail(path, "tinygltf could not write the file");
    nlohmann::json json = nlohmann::json::parse(out.str());
    const size_t separate = size_t(std::count(embedded.begin(), embedded.end(), false));
    for (size_t i = 0; i < model.buffers.size(); ++i) {
        if (embedded[i]) continue;
        const std::string file = stem + (separate == 1 ? "" : "_" + std::to_string(i)) + ".bin";
        json["buffers"][i]["uri"] = uriOf(file);
        json["buffers"][i]["byteLength"] = external[i].size();
        files.buffers.push_back({file, std::string(external[i].begin(), external[i].end())});
    }
    files.main = json.dump(2) + "\n";
    return files;
}

} // namespace

GltfFiles encodeGltf(const Mesh& mesh, bool binary, const std::string& stem, const std::filesystem::path& path) {
    if (std::optional<tinygltf::Model> model = rewrittenModel(mesh))
        return serializeGltf(std::move(*model), gltfSource(mesh)->embeddedBuffers, binary, stem, path);
    return serializeGltf(plainModel(mesh, path), {}, binary, stem, path);
}

void writeGltf(const Mesh& mesh, const std::filesystem::path& path, bool binary) {
    const GltfFiles files = encodeGltf(mesh, binary, path.stem().string(), path);
    // The buffers first: the file that names them appears only once they are in place.
    for (const auto& [file, bytes] : files.buffers) writeFileAtomically(path.parent_path() / file, bytes);
    writeFileAtomically(path, files.main);
}

} // namespace sculptflow::detail
