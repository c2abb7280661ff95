// What a conversion between OBJ, PLY and glTF drops.
#include "conversion_losses.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "src/file_io.hpp"
#include "src/gltf_source.hpp"
#include "src/mesh_source.hpp"
#include "src/ply_header.hpp"

namespace sculptflow::cli {
namespace {

void note(std::vector<std::string>& list, const std::string& what) {
    if (std::find(list.begin(), list.end(), what) == list.end()) list.push_back(what);
}

// The OBJ writer for a mesh read from PLY writes positions and faces only (mesh.hpp).
std::vector<std::string> plyLosses(const std::string& plySource) {
    std::vector<std::string> lost;
    const detail::PlyHeader header = detail::parsePlyHeader(plySource, "input");
    for (const detail::PlyElement& element : header.elements) {
        if (element.name != "vertex" && element.name != "face") {
            note(lost, "element " + element.name);
            continue;
        }
        std::string names;
        for (const detail::PlyProperty& p : element.properties) {
            const bool kept = element.name == "vertex" ? (p.name == "x" || p.name == "y" || p.name == "z")
                                                       : (p.name == "vertex_indices" || p.name == "vertex_index");
            if (!kept) names += (names.empty() ? "" : " ") + p.name;
        }
        if (!names.empty()) note(lost, element.name + " properties " + names);
    }
    return lost;
}

// The PLY writer for a mesh read from OBJ writes x y z and faces only (mesh.hpp).
std::vector<std::string> objLosses(const std::string& objSource) {
    std::vector<std::string> lost;
    std::istringstream lines(objSource);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        if (key == "vt") note(lost, "texture coordinates (vt)");
        else if (key == "vn") note(lost, "normals (vn)");
        else if (key == "o" || key == "g") note(lost, "object and group names (o, g)");
        else if (key == "mtllib" || key == "usemtl") note(lost, "materials (mtllib, usemtl)");
        else if (key == "s") note(lost, "smoothing groups (s)");
        else if (key == "l" || key == "p") note(lost, "lines and points (l, p)");
        else if (key == "v") {
            size_t numbers = 0;
            for (std::string word; words >> word;) ++numbers;
            if (numbers >= 6) note(lost, "vertex colours");
        }
    }
    return lost;
}

// The OBJ and PLY writers write the world-space positions and the triangles only.
std::vector<std::string> gltfLosses(const tinygltf::Model& model) {
    std::vector<std::string> lost;
    std::set<std::string> attributes;
    size_t primitives = 0;
    bool morphs = false;
    for (const tinygltf::Mesh& mesh : model.meshes) {
        for (const tinygltf::Primitive& primitive : mesh.primitives) {
            ++primitives;
            morphs = morphs || !primitive.targets.empty();
            for (const auto& [name, accessor] : primitive.attributes)
                if (name != "POSITION") attributes.insert(name);
        }
    }
    if (!attributes.empty()) {
        std::string names;
        for (const std::string& name : attributes) names += (names.empty() ? "" : " ") + name;
        note(lost, "vertex attributes " + names);
    }
    if (primitives > 1) note(lost, "primitives (merged into one mesh)");
    if (morphs) note(lost, "morph targets");
    if (!model.materials.empty()) note(lost, "materials");
    if (!model.textures.empty() || !model.images.empty()) note(lost, "textures and images");
    const bool transforms = std::any_of(model.nodes.begin(), model.nodes.end(), [](const tinygltf::Node& n) {
        return !n.matrix.empty() || !n.translation.empty() || !n.rotation.empty() || !n.scale.empty();
    });
    if (model.nodes.size() > 1 || transforms) note(lost, "nodes and their transforms (vertices written in world space)");
    if (!model.animations.empty()) note(lost, "animations");
    if (!model.skins.empty()) note(lost, "skins");
    if (!model.cameras.empty()) note(lost, "cameras");
    if (!model.extensionsUsed.empty()) {
        std::string names;
        for (const std::string& name : model.extensionsUsed) names += (names.empty() ? "" : " ") + name;
        note(lost, "extensions " + names);
    }
    return lost;
}

} // namespace

std::vector<std::string> droppedByConversion(const Mesh& mesh, const std::string& outPath) {
    const std::string ext = detail::lowerExtension(outPath);
    const bool gltf = ext == ".gltf" || ext == ".glb";
    std::vector<std::string> lost;
    if ((ext == ".ply" || gltf) && !objSource(mesh).empty()) lost = objLosses(objSource(mesh));
    if ((ext == ".obj" || gltf) && !plySource(mesh).empty()) lost = plyLosses(plySource(mesh));
    if ((ext == ".obj" || ext == ".ply") && gltfSource(mesh)) lost = gltfLosses(gltfSource(mesh)->model);
    // The plain glTF writer holds triangles only.
    if (gltf && !gltfSource(mesh) && std::any_of(mesh.faceSizes.begin(), mesh.faceSizes.end(), [](uint32_t n) { return n > 3; }))
        note(lost, "faces of more than 3 vertices (split into triangles)");
    return lost;
}

} // namespace sculptflow::cli
