// What a conversion between OBJ, PLY and glTF cannot keep, said before the work:
// the rewrite keeps everything within one format, but the other format has no
// place for some of it (an OBJ's texture coordinates and groups in our PLY, a
// PLY's colours and mask in an OBJ, a glTF's attributes, materials and nodes in
// either; our plain glTF holds positions and triangles).
#pragma once

#include <string>
#include <vector>

#include <sculptflow/mesh.hpp>

namespace sculptflow::cli {

// The attributes of `mesh` (as read, with its source file) that writing
// it to `outPath` drops, in words ("texture coordinates (vt)", "vertex property
// mask", ...); empty when nothing is lost: the same format, or a mesh built in code.
std::vector<std::string> droppedByConversion(const Mesh& mesh, const std::string& outPath);

} // namespace sculptflow::cli
