// Fuzzes the glTF reader (.glb when the bytes start with its magic, else .gltf):
// any bytes give a valid mesh or a sculptflow::Error, never a crash; and the mesh,
// written back as .glb keeping its source (gltf_write.cpp), reads back as the same mesh.
#include <cstring>
#include <string>

#include <sculptflow/error.hpp>
#include "src/mesh_formats.hpp"
#include "fuzz_check.hpp"

namespace {

// Beside nothing: an external buffer's URI names no file, so the fuzzer reads only its input.
const char* const kName = "/nonexistent-sculptflow-fuzz/fuzz";

void checkRewrite(const sculptflow::Mesh& mesh) {
    using sculptflow::fuzz::require;
    const sculptflow::detail::GltfFiles files = sculptflow::detail::encodeGltf(mesh, true, "fuzz", "rewritten.glb");
    sculptflow::Mesh back;
    try {
        back = sculptflow::detail::parseGltf(files.main, std::string(kName) + ".glb", true);
    } catch (const sculptflow::Error&) {
        std::abort(); // what was read must write back readable
    }
    require(back.positions.size() == mesh.positions.size() && back.faceIndices == mesh.faceIndices &&
            std::memcmp(back.positions.data(), mesh.positions.data(), mesh.positions.size() * sizeof(glm::vec3)) == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes = sculptflow::fuzz::bytes(data, size);
    const bool binary = bytes.rfind("glTF", 0) == 0;
    sculptflow::Mesh mesh;
    try {
        mesh = sculptflow::parseMesh(bytes, std::string(kName) + (binary ? ".glb" : ".gltf"));
    } catch (const sculptflow::Error&) {
        return 0;
    }
    sculptflow::fuzz::checkMesh(mesh);
    checkRewrite(mesh);
    return 0;
}
