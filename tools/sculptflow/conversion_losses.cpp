// What a conversion between OBJ and PLY drops.
#include "conversion_losses.hpp"

#include <algorithm>
#include <sstream>

#include "file_io.hpp"
#include "ply_header.hpp"

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

} // namespace

std::vector<std::string> droppedByConversion(const Mesh& mesh, const std::string& outPath) {
    const std::string ext = detail::lowerExtension(outPath);
    if (ext == ".ply" && !mesh.objSource.empty()) return objLosses(mesh.objSource);
    if (ext == ".obj" && !mesh.plySource.empty()) return plyLosses(mesh.plySource);
    return {};
}

} // namespace sculptflow::cli
