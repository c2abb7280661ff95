// glTF 2.0 input and output (issue 47): a sculpt of two primitives with normals,
// vertex colours and UVs under a rotated, translated and scaled node hierarchy,
// deformed through the CLI, keeps every byte but its positions and normals, and
// moves its vertices as the OBJ path moves the same vertices; bad files are
// refused with a message. The test builds and decodes glTF itself (JSON and GLB
// chunks by hand), so the library's reader and writer do not check themselves.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/stroke.hpp>
#include "cli_runner.hpp"
#include "test_support.hpp"
#include "tip_cases.hpp"

namespace sculptflow {
namespace {

using nlohmann::json;
using test::failsWith;
using test::ScratchDir;

constexpr int kFloat = 5126, kUnsignedByte = 5121, kUnsignedShort = 5123, kUnsignedInt = 5125;

// ---------------------------------------------------------------------------
// The sculpt: the tool-tip sphere twice (one primitive each, half its triangles
// each), placed by a parent node (translation, rotation) and a child (scale).

const glm::dvec3 kTranslation(0.3, -0.2, 0.5);
const glm::dquat kRotation = glm::angleAxis(0.7, glm::normalize(glm::dvec3(1.0, 2.0, 3.0)));
const glm::dvec3 kScale(1.5, 0.8, 1.2);

glm::dmat4 worldTransform() {
    return glm::translate(glm::dmat4(1.0), kTranslation) * glm::mat4_cast(kRotation) *
           glm::scale(glm::dmat4(1.0), kScale);
}

glm::vec3 toWorld(const glm::vec3& local) { return glm::vec3(worldTransform() * glm::dvec4(glm::dvec3(local), 1.0)); }

struct Primitive {
    std::vector<glm::vec3> local; // node-local positions
    std::vector<uint32_t> triangles;
};

std::vector<Primitive> sculptPrimitives() {
    const Mesh sphere = test::builtInTipSphere();
    const glm::dmat4 toLocal = glm::inverse(worldTransform());
    std::vector<glm::vec3> local;
    for (const glm::vec3& p : sphere.positions) local.emplace_back(toLocal * glm::dvec4(glm::dvec3(p), 1.0));
    const size_t half = sphere.faceIndices.size() / 6 * 3;
    return {{local, {sphere.faceIndices.begin(), sphere.faceIndices.begin() + long(half)}},
            {local, {sphere.faceIndices.begin() + long(half), sphere.faceIndices.end()}}};
}

template <class T>
void append(std::string& bytes, const T& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void pad(std::string& bytes) { bytes.resize((bytes.size() + 3) / 4 * 4, '\0'); }

// The document and its one buffer. Primitive 0: separate views, u16 indices,
// u8 colours; primitive 1: position, normal and UV interleaved (stride 32), u32
// indices, u16 colours.
struct Document {
    json gltf;
    std::string buffer;
};

Document sculptDocument() {
    const std::vector<Primitive> primitives = sculptPrimitives();
    Document d;
    json views = json::array(), accessors = json::array(), meshPrimitives = json::array();
    const auto view = [&](size_t offset, size_t stride = 0) {
        json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", d.buffer.size() - offset}};
        if (stride) v["byteStride"] = stride;
        views.push_back(v);
        return int(views.size() - 1);
    };
    const auto accessor = [&](int bufferView, size_t offset, int type, size_t count, const char* kind,
                              bool normalized = false) {
        json a = {{"bufferView", bufferView}, {"byteOffset", offset}, {"componentType", type}, {"count", count},
                  {"type", kind}};
        if (normalized) a["normalized"] = true;
        accessors.push_back(a);
        return int(accessors.size() - 1);
    };
    const auto bounds = [&](int index, const std::vector<glm::vec3>& points) {
        glm::vec3 lo = points.front(), hi = lo;
        for (const glm::vec3& p : points) lo = glm::min(lo, p), hi = glm::max(hi, p);
        accessors[size_t(index)]["min"] = {lo.x, lo.y, lo.z};
        accessors[size_t(index)]["max"] = {hi.x, hi.y, hi.z};
    };
    const auto normalOf = [](const glm::vec3& p) { return glm::normalize(p + glm::vec3(0.1f, 0.2f, 0.3f)); };

    { // primitive 0
        const Primitive& p = primitives[0];
        const size_t n = p.local.size();
        size_t start = d.buffer.size();
        for (const glm::vec3& v : p.local) append(d.buffer, v);
        const int position = accessor(view(start), 0, kFloat, n, "VEC3");
        bounds(position, p.local);
        start = d.buffer.size();
        for (const glm::vec3& v : p.local) append(d.buffer, normalOf(v));
        const int normal = accessor(view(start), 0, kFloat, n, "VEC3");
        start = d.buffer.size();
        for (size_t i = 0; i < n; ++i) append(d.buffer, uint32_t(0xff000000u | (i * 2654435761u & 0xffffffu)));
        const int colour = accessor(view(start), 0, kUnsignedByte, n, "VEC4", true);
        start = d.buffer.size();
        for (size_t i = 0; i < n; ++i) append(d.buffer, glm::vec2(float(i) / 700.0f, float(i % 17) / 16.0f));
        const int uv = accessor(view(start), 0, kFloat, n, "VEC2");
        start = d.buffer.size();
        for (const uint32_t i : p.triangles) append(d.buffer, uint16_t(i));
        const int indices = accessor(view(start), 0, kUnsignedShort, p.triangles.size(), "SCALAR");
        pad(d.buffer);
        meshPrimitives.push_back({{"attributes", {{"POSITION", position}, {"NORMAL", normal}, {"COLOR_0", colour},
                                                  {"TEXCOORD_0", uv}}},
                                  {"indices", indices},
                                  {"material", 0},
                                  {"mode", 4}});
    }
    { // primitive 1
        const Primitive& p = primitives[1];
        const size_t n = p.local.size();
        size_t start = d.buffer.size();
        for (size_t i = 0; i < n; ++i) {
            append(d.buffer, p.local[i]);
            append(d.buffer, normalOf(p.local[i]));
            append(d.buffer, glm::vec2(float(i % 31) / 30.0f, float(i) / 650.0f));
        }
        const int interleaved = view(start, 32);
        const int position = accessor(interleaved, 0, kFloat, n, "VEC3");
        bounds(position, p.local);
        const int normal = accessor(interleaved, 12, kFloat, n, "VEC3");
        const int uv = accessor(interleaved, 24, kFloat, n, "VEC2");
        start = d.buffer.size();
        for (size_t i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) append(d.buffer, uint16_t((i * 977 + size_t(k) * 13001) & 0xffff));
        const int colour = accessor(view(start), 0, kUnsignedShort, n, "VEC4", true);
        start = d.buffer.size();
        for (const uint32_t i : p.triangles) append(d.buffer, i);
        const int indices = accessor(view(start), 0, kUnsignedInt, p.triangles.size(), "SCALAR");
        meshPrimitives.push_back({{"attributes", {{"POSITION", position}, {"NORMAL", normal}, {"COLOR_0", colour},
                                                  {"TEXCOORD_0", uv}}},
                                  {"indices", indices},
                                  {"material", 0}});
    }
    const glm::dquat& q = kRotation;
    d.gltf = {
        {"asset", {{"version", "2.0"}, {"generator", "sculptflow test"}}},
        {"extensionsUsed", {"KHR_materials_emissive_strength"}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes",
         {{{"name", "placement"},
           {"children", {1}},
           {"translation", {kTranslation.x, kTranslation.y, kTranslation.z}},
           {"rotation", {q.x, q.y, q.z, q.w}},
           {"extras", {{"sculpt", "keep me"}}}},
          {{"name", "sculpt"}, {"mesh", 0}, {"scale", {kScale.x, kScale.y, kScale.z}}}}},
        {"meshes", {{{"name", "sculpt"}, {"primitives", meshPrimitives}}}},
        {"materials",
         {{{"name", "clay"},
           {"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.5, 0.3, 1.0}}, {"roughnessFactor", 0.7}}},
           {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 2.0}}}}}}}},
        {"accessors", accessors},
        {"bufferViews", views},
        {"buffers", {{{"byteLength", d.buffer.size()}}}},
    };
    return d;
}

std::string glbBytes(const json& gltf, const std::string& buffer) {
    std::string text = gltf.dump();
    text.resize((text.size() + 3) / 4 * 4, ' ');
    std::string bin = buffer;
    pad(bin);
    std::string out = "glTF";
    append(out, uint32_t(2));
    append(out, uint32_t(12 + 8 + text.size() + 8 + bin.size()));
    append(out, uint32_t(text.size()));
    out += "JSON" + text;
    append(out, uint32_t(bin.size()));
    out += std::string("BIN\0", 4) + bin;
    return out;
}

// Writes the sculpt as `name` (.gltf with its buffer in a .bin beside it, or .glb).
void writeDocument(const ScratchDir& dir, const std::string& name, Document d) {
    if (std::filesystem::path(name).extension() == ".glb") return test::writeFile(dir / name, glbBytes(d.gltf, d.buffer));
    d.gltf["buffers"][0]["uri"] = "sculpt%20data.bin"; // a name that needs URI encoding
    test::writeFile(dir / "sculpt data.bin", d.buffer);
    test::writeFile(dir / name, d.gltf.dump(1));
}

// A written glTF decoded: its JSON and its first buffer's bytes.
Document readDocument(const std::filesystem::path& path) {
    const std::string bytes = test::readFile(path);
    Document d;
    if (path.extension() == ".glb") {
        EXPECT_EQ(bytes.substr(0, 4), "glTF");
        uint32_t jsonLength = 0, binLength = 0;
        std::memcpy(&jsonLength, bytes.data() + 12, 4);
        d.gltf = json::parse(bytes.substr(20, jsonLength));
        std::memcpy(&binLength, bytes.data() + 20 + jsonLength, 4);
        EXPECT_EQ(bytes.substr(24 + jsonLength, 4), std::string("BIN\0", 4));
        d.buffer = bytes.substr(28 + jsonLength, binLength);
    } else {
        d.gltf = json::parse(bytes);
        std::string uri = d.gltf["buffers"][0]["uri"].get<std::string>();
        for (size_t at; (at = uri.find("%20")) != std::string::npos;) uri.replace(at, 3, " ");
        d.buffer = test::readFile(path.parent_path() / uri);
    }
    d.buffer.resize(d.gltf["buffers"][0]["byteLength"].get<size_t>());
    return d;
}

// The JSON with the defaults the spec gives spelled out (a writer may write or omit
// them): a primitive's mode, a view's or accessor's byteOffset; and without a view's
// target, a hint that tinygltf fills in from the view's use.
json withDefaults(json gltf) {
    for (json& view : gltf["bufferViews"]) view.erase("target");
    for (json& mesh : gltf["meshes"])
        for (json& primitive : mesh["primitives"])
            if (!primitive.contains("mode")) primitive["mode"] = 4;
    for (const char* list : {"bufferViews", "accessors"})
        for (json& item : gltf[list])
            if (!item.contains("byteOffset")) item["byteOffset"] = 0;
    return gltf;
}

struct Span {
    size_t offset, stride, size, count;
};

Span accessorSpan(const json& gltf, int index) {
    static const std::map<std::string, size_t> components = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}};
    const json& a = gltf["accessors"][size_t(index)];
    const json& v = gltf["bufferViews"][a["bufferView"].get<size_t>()];
    const int type = a["componentType"].get<int>();
    const size_t size = components.at(a["type"].get<std::string>()) * (type == kUnsignedByte ? 1 : type == kUnsignedShort ? 2 : 4);
    return {v.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0)), v.value("byteStride", size), size,
            a["count"].get<size_t>()};
}

glm::vec3 vec3At(const Document& d, int accessor, size_t i) {
    const Span s = accessorSpan(d.gltf, accessor);
    glm::vec3 v;
    std::memcpy(&v[0], d.buffer.data() + s.offset + i * s.stride, sizeof v);
    return v;
}

std::string bytesAt(const Document& d, int accessor, size_t i) {
    const Span s = accessorSpan(d.gltf, accessor);
    return d.buffer.substr(s.offset + i * s.stride, s.size);
}

int attribute(const Document& d, size_t primitive, const char* name) {
    return d.gltf["meshes"][0]["primitives"][primitive]["attributes"][name].get<int>();
}

std::string objText(const std::vector<Primitive>& primitives) {
    std::string text;
    uint32_t base = 1;
    for (const Primitive& p : primitives) {
        for (const glm::vec3& v : p.local) {
            const glm::vec3 w = toWorld(v);
            char line[128];
            std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", w.x, w.y, w.z);
            text += line;
        }
        for (size_t k = 0; k < p.triangles.size(); k += 3)
            text += "f " + std::to_string(base + p.triangles[k]) + " " + std::to_string(base + p.triangles[k + 1]) +
                    " " + std::to_string(base + p.triangles[k + 2]) + "\n";
        base += uint32_t(p.local.size());
    }
    return text;
}

struct GltfRun {
    int status;
    std::string errors;
};

GltfRun gltfCli(const std::vector<std::string>& args) {
    testing::internal::CaptureStdout();
    auto [status, errors] = test::cliExitStatus(args);
    testing::internal::GetCapturedStdout();
    return {status, errors};
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---------------------------------------------------------------------------

TEST(GltfRead, EveryTrianglePrimitiveInWorldSpace) {
    ScratchDir dir;
    const std::vector<Primitive> primitives = sculptPrimitives();
    for (const char* name : {"in.gltf", "in.glb"}) {
        SCOPED_TRACE(name);
        writeDocument(dir, name, sculptDocument());
        const Mesh mesh = readMesh(dir / name);
        ASSERT_EQ(mesh.positions.size(), 2 * primitives[0].local.size());
        EXPECT_EQ(mesh.faceIndices.size(), primitives[0].triangles.size() + primitives[1].triangles.size());
        size_t v = 0;
        for (const Primitive& p : primitives)
            for (const glm::vec3& local : p.local) {
                const glm::vec3 expected = toWorld(local);
                EXPECT_LE(glm::length(mesh.positions[v++] - expected), 1e-6f * glm::length(expected));
            }
        // The second primitive's triangles refer to its own vertices.
        EXPECT_EQ(mesh.faceIndices.back(), uint32_t(primitives[0].local.size()) + primitives[1].triangles.back());
    }
}

// Non-indexed triangles, byte indices, and a node placed by its matrix.
TEST(GltfRead, NonIndexedByteIndicesAndMatrixNodes) {
    ScratchDir dir;
    const std::vector<glm::vec3> a = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const std::vector<glm::vec3> b = {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    const std::vector<uint8_t> quad = {0, 1, 2, 0, 2, 3};
    std::string buffer;
    for (const glm::vec3& p : a) append(buffer, p);
    for (const glm::vec3& p : b) append(buffer, p);
    for (const uint8_t i : quad) append(buffer, i);
    pad(buffer);
    // Column-major: scale 2, then translate by (1, 2, 3).
    const json matrix = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
    const json gltf = {
        {"asset", {{"version", "2.0"}}},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"mesh", 0}, {"matrix", matrix}}}},
        {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}}, {{"attributes", {{"POSITION", 1}}}, {"indices", 2}}}}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", kFloat}, {"count", 3}, {"type", "VEC3"}},
          {{"bufferView", 0}, {"byteOffset", 36}, {"componentType", kFloat}, {"count", 4}, {"type", "VEC3"}},
          {{"bufferView", 1}, {"componentType", kUnsignedByte}, {"count", 6}, {"type", "SCALAR"}}}},
        {"bufferViews", {{{"buffer", 0}, {"byteLength", 84}}, {{"buffer", 0}, {"byteOffset", 84}, {"byteLength", 6}}}},
        {"buffers", {{{"byteLength", buffer.size()}}}},
    };
    test::writeFile(dir / "small.glb", glbBytes(gltf, buffer));
    const Mesh mesh = readMesh(dir / "small.glb");
    std::vector<glm::vec3> expected;
    for (const auto* list : {&a, &b})
        for (const glm::vec3& p : *list) expected.push_back(2.0f * p + glm::vec3(1, 2, 3));
    EXPECT_EQ(mesh.positions, expected);
    EXPECT_EQ(mesh.faceIndices, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 3, 5, 6}));
    EXPECT_EQ(mesh.faceSizes, (std::vector<uint32_t>{3, 3, 3}));
}

// The issue's round trip: .gltf and .glb in, either out.
TEST(GltfRewrite, DeformKeepsEveryOtherByteAndMovesAsTheObjPathDoes) {
    ScratchDir dir;
    const std::vector<Primitive> primitives = sculptPrimitives();
    test::writeFile(dir / "in.obj", objText(primitives));
    const GltfRun obj = gltfCli({"deform", "--backend", "cpu", "--mesh", (dir / "in.obj").string(), "--out",
                             (dir / "out.obj").string()});
    ASSERT_EQ(obj.status, 0) << obj.errors;
    const Mesh objOut = readMesh(dir / "out.obj");
    const double voxel = defaultStroke().voxelSize;
    const Document source = sculptDocument();

    for (const auto& [in, out] : std::vector<std::pair<std::string, std::string>>{
             {"in.gltf", "out.gltf"}, {"in.glb", "out.glb"}, {"in.gltf", "out2.glb"}, {"in.glb", "out2.gltf"}}) {
        SCOPED_TRACE(in + " -> " + out);
        writeDocument(dir, in, source);
        const GltfRun r = gltfCli({"deform", "--backend", "cpu", "--strict", "--mesh", (dir / in).string(), "--out",
                               (dir / out).string()});
        ASSERT_EQ(r.status, 0) << r.errors;
        EXPECT_FALSE(mentions(r.errors, "dropped")) << r.errors;
        const Document written = readDocument(dir / out);
        const json writtenJson = withDefaults(written.gltf), sourceJson = withDefaults(source.gltf);

        // Everything but the positions' bounds as it was.
        for (const char* key : {"asset", "extensionsUsed", "scene", "scenes", "nodes", "meshes", "materials", "bufferViews"})
            EXPECT_EQ(writtenJson[key], sourceJson[key]) << key;
        ASSERT_EQ(written.gltf["accessors"].size(), source.gltf["accessors"].size());
        for (size_t k = 0; k < source.gltf["accessors"].size(); ++k) {
            if (k != size_t(attribute(source, 0, "POSITION")) && k != size_t(attribute(source, 1, "POSITION"))) {
                EXPECT_EQ(writtenJson["accessors"][k], sourceJson["accessors"][k]) << "accessor " << k;
            }
        }
        ASSERT_EQ(written.buffer.size(), source.buffer.size());
        std::vector<bool> mayChange(source.buffer.size(), false);
        for (size_t p = 0; p < 2; ++p)
            for (const char* moving : {"POSITION", "NORMAL"}) {
                const Span s = accessorSpan(source.gltf, attribute(source, p, moving));
                for (size_t i = 0; i < s.count; ++i)
                    std::fill_n(mayChange.begin() + long(s.offset + i * s.stride), s.size, true);
            }
        size_t otherBytesChanged = 0;
        for (size_t b = 0; b < source.buffer.size(); ++b)
            otherBytesChanged += !mayChange[b] && source.buffer[b] != written.buffer[b];
        EXPECT_EQ(otherBytesChanged, 0u) << "colours, UVs or indices changed";

        size_t vertex = 0, moved = 0, renormalized = 0;
        for (size_t p = 0; p < 2; ++p) {
            const int position = attribute(source, p, "POSITION"), normal = attribute(source, p, "NORMAL");
            json accessor = writtenJson["accessors"][size_t(position)], was = sourceJson["accessors"][size_t(position)];
            for (const char* key : {"min", "max"}) accessor.erase(key), was.erase(key);
            EXPECT_EQ(accessor, was);
            const size_t n = primitives[p].local.size();
            std::vector<glm::vec3> local(n);
            glm::vec3 lo(INFINITY), hi(-INFINITY);
            for (size_t i = 0; i < n; ++i) {
                local[i] = vec3At(written, position, i);
                lo = glm::min(lo, local[i]);
                hi = glm::max(hi, local[i]);
                // Where the OBJ path put the same vertex, within 1e-4 voxel.
                const glm::vec3 world = toWorld(local[i]);
                EXPECT_LE(glm::length(glm::dvec3(world - objOut.positions[vertex + i])), 1e-4 * voxel) << vertex + i;
                moved += bytesAt(written, position, i) != bytesAt(source, position, i);
            }
            const json& bounds = written.gltf["accessors"][size_t(position)];
            for (int k = 0; k < 3; ++k) {
                EXPECT_FLOAT_EQ(bounds["min"][size_t(k)].get<float>(), lo[k]);
                EXPECT_FLOAT_EQ(bounds["max"][size_t(k)].get<float>(), hi[k]);
            }
            // A changed normal is the area-weighted normal of its triangles; one none of
            // whose triangles moved is kept.
            std::vector<glm::vec3> sums(n, glm::vec3(0.0f));
            std::vector<bool> near(n, false);
            const std::vector<uint32_t>& t = primitives[p].triangles;
            for (size_t k = 0; k < t.size(); k += 3) {
                const glm::vec3 a = local[t[k]], b = local[t[k + 1]], c = local[t[k + 2]];
                bool anyMoved = false;
                for (int j = 0; j < 3; ++j)
                    anyMoved = anyMoved || bytesAt(written, position, t[k + size_t(j)]) != bytesAt(source, position, t[k + size_t(j)]);
                for (int j = 0; j < 3; ++j) {
                    sums[t[k + size_t(j)]] += glm::cross(b - a, c - a);
                    if (anyMoved) near[t[k + size_t(j)]] = true;
                }
            }
            for (size_t i = 0; i < n; ++i) {
                if (bytesAt(written, normal, i) == bytesAt(source, normal, i)) continue;
                ++renormalized;
                EXPECT_TRUE(near[i]) << "normal " << i << " changed, but none of its triangles moved";
                EXPECT_LE(glm::length(vec3At(written, normal, i) - glm::normalize(sums[i])), 1e-4f) << i;
            }
            vertex += n;
        }
        EXPECT_GT(moved, 100u); // the move did happen
        EXPECT_GT(renormalized, 100u);
        EXPECT_LT(renormalized, vertex);

        // The library reads its own output back as the same world-space vertices.
        const Mesh back = readMesh(dir / out);
        ASSERT_EQ(back.positions.size(), objOut.positions.size());
        for (size_t i = 0; i < back.positions.size(); ++i)
            EXPECT_LE(glm::length(glm::dvec3(back.positions[i] - objOut.positions[i])), 1e-4 * voxel) << i;
    }
}

TEST(GltfRewrite, NothingMovedWritesTheSameBuffer) {
    ScratchDir dir;
    const Document source = sculptDocument();
    writeDocument(dir, "in.glb", source);
    writeMesh(readMesh(dir / "in.glb"), dir / "out.glb");
    const Document written = readDocument(dir / "out.glb");
    EXPECT_TRUE(written.buffer == source.buffer);
    EXPECT_EQ(withDefaults(written.gltf)["accessors"], withDefaults(source.gltf)["accessors"]);
}

// Bad files: a sculptflow::Error naming the file and the problem, and from the CLI
// a non-zero exit; never a crash.
TEST(GltfErrors, BadFilesAreRefusedWithAMessage) {
    ScratchDir dir;
    const Document good = sculptDocument();
    const std::string glb = glbBytes(good.gltf, good.buffer);
    struct Case {
        std::string name, bytes, part;
    };
    const auto edited = [&](auto&& edit) {
        Document d = good;
        edit(d.gltf);
        return glbBytes(d.gltf, d.buffer);
    };
    const std::vector<Case> cases = {
        {"truncated.glb", glb.substr(0, glb.size() / 2), "not a valid glTF"},
        {"header.glb", glb.substr(0, 10), "not a valid glTF"},
        {"garbage.gltf", "{ \"asset\": [ this is not json", "not a valid glTF"},
        {"empty.gltf", "", "not a valid glTF"},
        {"missing-bin.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"uri":"nowhere.bin","byteLength":12}]})",
         "not a valid glTF"},
        {"outside.glb", edited([](json& j) { j["accessors"][0]["count"] = 100000; }), "reaches outside"},
        {"strip.glb", edited([](json& j) { j["meshes"][0]["primitives"][1]["mode"] = 5; }), "only TRIANGLES"},
        {"sparse.glb",
         edited([](json& j) {
             j["accessors"][0]["sparse"] = {{"count", 1},
                                            {"indices", {{"bufferView", 4}, {"componentType", kUnsignedShort}}},
                                            {"values", {{"bufferView", 0}}}};
         }),
         "sparse"},
        {"index.glb", edited([](json& j) { j["accessors"][4]["componentType"] = kFloat; }), "component type"},
        {"instanced.glb", edited([](json& j) { j["nodes"][0]["mesh"] = 0; }), "instanced mesh"},
        {"cycle.glb", edited([](json& j) { j["nodes"][1]["children"] = {0}; }), "reached twice"},
        {"noscene.glb", edited([](json& j) { j.erase("scenes"); j.erase("scene"); }), "no scene"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        test::writeFile(dir / c.name, c.bytes);
        EXPECT_TRUE(failsWith([&] { readMesh(dir / c.name); }, {c.name, c.part}));
        const GltfRun r = gltfCli({"deform", "--backend", "cpu", "--mesh", (dir / c.name).string(), "--out",
                               (dir / "out.glb").string()});
        EXPECT_NE(r.status, 0);
        EXPECT_TRUE(mentions(r.errors, c.name)) << r.errors;
        EXPECT_FALSE(std::filesystem::exists(dir / "out.glb"));
    }
}

// glTF to OBJ or PLY, and OBJ to glTF: a plain conversion that says what it drops,
// refused under --strict.
TEST(GltfConversion, SaysWhatItDropsAndStrictRefuses) {
    ScratchDir dir;
    writeDocument(dir, "in.glb", sculptDocument());
    for (const char* out : {"out.ply", "out.obj"}) {
        SCOPED_TRACE(out);
        const std::vector<std::string> args = {"deform", "--backend", "cpu", "--mesh", (dir / "in.glb").string(),
                                               "--out", (dir / out).string()};
        const GltfRun r = gltfCli(args);
        ASSERT_EQ(r.status, 0) << r.errors;
        for (const char* part : {"vertex attributes COLOR_0 NORMAL TEXCOORD_0", "primitives (merged into one mesh)",
                                 "materials", "nodes and their transforms", "extensions KHR_materials_emissive_strength",
                                 "will be dropped"})
            EXPECT_TRUE(mentions(r.errors, part)) << part << ": " << r.errors;
        EXPECT_EQ(readMesh(dir / out).positions.size(), readMesh(dir / "in.glb").positions.size());
        std::filesystem::remove(dir / out);
        std::vector<std::string> strict = args;
        strict.push_back("--strict");
        const GltfRun refused = gltfCli(strict);
        EXPECT_EQ(refused.status, 1);
        EXPECT_TRUE(mentions(refused.errors, "an error under --strict")) << refused.errors;
        EXPECT_FALSE(std::filesystem::exists(dir / out));
    }
    // A bare OBJ loses nothing as glTF; a quad is split into triangles, and says so.
    test::writeFile(dir / "quads.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1 4/1\n");
    writeMesh(test::builtInTipSphere(), dir / "bare.obj");
    const GltfRun bare = gltfCli({"deform", "--backend", "cpu", "--strict", "--mesh", (dir / "bare.obj").string(), "--out",
                              (dir / "bare.gltf").string()});
    ASSERT_EQ(bare.status, 0) << bare.errors;
    const Mesh back = readMesh(dir / "bare.gltf"), obj = readMesh(dir / "bare.obj");
    EXPECT_EQ(back.faceIndices, obj.faceIndices);
    EXPECT_TRUE(std::filesystem::exists(dir / "bare.bin"));
    const GltfRun quads = gltfCli({"deform", "--backend", "cpu", "--mesh", (dir / "quads.obj").string(), "--voxel-size",
                               "0.001", "--out", (dir / "quads.glb").string()});
    EXPECT_TRUE(mentions(quads.errors, "faces of more than 3 vertices (split into triangles)")) << quads.errors;
    EXPECT_TRUE(mentions(quads.errors, "texture coordinates (vt)")) << quads.errors;
}

} // namespace
} // namespace sculptflow
