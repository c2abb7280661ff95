// Fuzzes the PLY reader: any bytes give a valid mesh or a sculptflow::Error, never a
// crash; and the mesh, written back keeping its source (ply_rewrite.cpp), in either
// encoding, reads back as the same mesh.
#include <cstring>
#include <optional>
#include <string>

#include <sculptflow/error.hpp>
#include "src/mesh_formats.hpp"
#include "fuzz_check.hpp"

namespace {

template <class T>
bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void checkRewrite(const sculptflow::Mesh& mesh) {
    using sculptflow::fuzz::require;
    for (const bool binary : {false, true}) {
        const std::optional<std::string> kept = sculptflow::detail::rewritePlySource(mesh, binary);
        require(kept.has_value()); // the source matches the mesh read from it
        sculptflow::Mesh back;
        try {
            back = sculptflow::detail::parsePly(*kept, "rewritten.ply");
        } catch (const sculptflow::Error&) {
            std::abort(); // what was read must write back readable
        }
        require(sameBytes(back.positions, mesh.positions) && back.faceSizes == mesh.faceSizes &&
                back.faceIndices == mesh.faceIndices && sameBytes(back.mask, mesh.mask) &&
                sameBytes(back.volumeChange, mesh.volumeChange));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sculptflow::Mesh mesh;
    try {
        mesh = sculptflow::parseMesh(sculptflow::fuzz::bytes(data, size), "fuzz.ply");
    } catch (const sculptflow::Error&) {
        return 0;
    }
    sculptflow::fuzz::checkMesh(mesh);
    checkRewrite(mesh);
    return 0;
}
