// Tests for mesh input and output: OBJ and PLY round trips, hand-written PLY variants, refusals.
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include <sculptflow/mesh.hpp>
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::ScratchDir;

using test::failsWith;
using test::readFile;
using test::writeFile;

// Two triangles, a quad and a pentagon, with coordinates that stress decimal round trips.
Mesh sampleMesh() {
    Mesh mesh;
    mesh.positions = {
        {0.0f, 0.0f, 0.0f},
        {1.0f, -0.0f, 0.1f},
        {0.333333343f, 1e-7f, -123456.789f},
        {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(), 1e-40f},
        {-std::numeric_limits<float>::max(), 3.14159274f, 2.71828183f},
        {0.5f, 0.25f, 16777217.0f},
        {-1e30f, 7.0f, -0.001f},
    };
    mesh.faceSizes = {3, 4, 3, 5};
    mesh.faceIndices = {0, 1, 2, 0, 2, 3, 4, 4, 5, 6, 1, 2, 3, 5, 6};
    return mesh;
}

void expectSameMesh(const Mesh& expected, const Mesh& actual) {
    ASSERT_EQ(expected.positions.size(), actual.positions.size());
    for (size_t i = 0; i < expected.positions.size(); ++i) {
        for (int axis = 0; axis < 3; ++axis) {
            // Compare bit patterns so that an inexact parse cannot hide behind ==.
            EXPECT_EQ(std::bit_cast<uint32_t>(expected.positions[i][axis] + 0.0f),
                      std::bit_cast<uint32_t>(actual.positions[i][axis] + 0.0f))
                << "vertex " << i << " axis " << axis << ": " << expected.positions[i][axis] << " vs "
                << actual.positions[i][axis];
        }
    }
    EXPECT_EQ(expected.faceSizes, actual.faceSizes);
    EXPECT_EQ(expected.faceIndices, actual.faceIndices);
}

// Little helpers to write binary PLY bodies by hand.
template <class T>
void putBytes(std::string& out, T value, bool bigEndian) {
    const auto bits = std::bit_cast<std::array<unsigned char, sizeof(T)>>(value);
    // The tests run on a little-endian host; reverse for big-endian files.
    static_assert(std::endian::native == std::endian::little);
    for (size_t k = 0; k < sizeof(T); ++k) out += static_cast<char>(bits[bigEndian ? sizeof(T) - 1 - k : k]);
}

template <class T>
void le(std::string& out, T value) { putBytes(out, value, false); }

template <class T>
void be(std::string& out, T value) { putBytes(out, value, true); }

// A unit square (two triangles) in binary little-endian, for binary refusals.
std::string squarePlyBinary(float lastZ = 0.0f, uint32_t lastIndex = 3) {
    std::string out =
        "ply\nformat binary_little_endian 1.0\nelement vertex 4\n"
        "property float x\nproperty float y\nproperty float z\n"
        "element face 2\nproperty list uchar uint vertex_indices\nend_header\n";
    const float xy[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 4; ++i) {
        le(out, xy[i][0]);
        le(out, xy[i][1]);
        le(out, i == 3 ? lastZ : 0.0f);
    }
    const std::array<std::array<uint32_t, 3>, 2> faces{{{0, 1, 2}, {0, 2, lastIndex}}};
    for (const auto& face : faces) {
        le(out, uint8_t{3});
        for (uint32_t index : face) le(out, index);
    }
    return out;
}

const char* const kSquarePlyAscii =
    "ply\nformat ascii 1.0\nelement vertex 4\n"
    "property float x\nproperty float y\nproperty float z\n"
    "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n3 0 2 3\n";

// ---------------------------------------------------------------------------
// Round trips

TEST(MeshIo, ObjRoundTripIsExact) {
    ScratchDir dir;
    const Mesh mesh = sampleMesh();
    writeMesh(mesh, dir / "mesh.obj");
    expectSameMesh(mesh, readMesh(dir / "mesh.obj"));
}

TEST(MeshIo, PlyAsciiRoundTripIsExact) {
    ScratchDir dir;
    const Mesh mesh = sampleMesh();
    writeMesh(mesh, dir / "mesh.ply", MeshFormat::PlyAscii);
    EXPECT_NE(readFile(dir / "mesh.ply").find("format ascii 1.0"), std::string::npos);
    expectSameMesh(mesh, readMesh(dir / "mesh.ply"));
}

TEST(MeshIo, PlyBinaryRoundTripIsExact) {
    ScratchDir dir;
    const Mesh mesh = sampleMesh();
    writeMesh(mesh, dir / "mesh.ply", MeshFormat::PlyBinary);
    expectSameMesh(mesh, readMesh(dir / "mesh.ply"));
}

TEST(MeshIo, ExtensionPicksFormatCaseInsensitively) {
    ScratchDir dir;
    const Mesh mesh = sampleMesh();
    writeMesh(mesh, dir / "a.ply");
    EXPECT_NE(readFile(dir / "a.ply").find("format binary_little_endian 1.0"), std::string::npos);
    writeMesh(mesh, dir / "b.OBJ");
    EXPECT_EQ(readFile(dir / "b.OBJ").find("ply"), std::string::npos);
    std::filesystem::copy_file(dir / "a.ply", dir / "c.PLY");
    expectSameMesh(mesh, readMesh(dir / "b.OBJ"));
    expectSameMesh(mesh, readMesh(dir / "c.PLY"));
}

// Random finite floats of every magnitude survive text output (tinyobjloader's own
// number parser included) bit for bit.
TEST(MeshIo, RandomFloatsRoundTripThroughText) {
    ScratchDir dir;
    std::mt19937 rng(12345);
    std::uniform_int_distribution<uint32_t> bits;
    Mesh mesh;
    while (mesh.positions.size() < 20000) {
        glm::vec3 p;
        for (int axis = 0; axis < 3; ++axis) {
            do p[axis] = std::bit_cast<float>(bits(rng));
            while (!std::isfinite(p[axis]));
        }
        mesh.positions.push_back(p);
    }
    for (uint32_t i = 0; i + 2 < mesh.positions.size(); i += 3) {
        mesh.faceSizes.push_back(3);
        mesh.faceIndices.insert(mesh.faceIndices.end(), {i, i + 1, i + 2});
    }
    writeMesh(mesh, dir / "r.obj");
    expectSameMesh(mesh, readMesh(dir / "r.obj"));
    writeMesh(mesh, dir / "r.ply", MeshFormat::PlyAscii);
    expectSameMesh(mesh, readMesh(dir / "r.ply"));
}

TEST(MeshIo, ObjAcceptsCommonSyntax) {
    ScratchDir dir;
    writeFile(dir / "m.obj",
              "# comment\r\n"
              "mtllib missing.mtl\r\n"
              "o thing\r\n"
              "v 0 0 0\r\n"
              "v 1 0 0 1\r\n"       // homogeneous w
              "v 1 1 0 0.5 0.5 0.5\r\n" // vertex colour
              "\tv +0 1 0\r\n"
              "vn 0 0 1\nvt 0 0\n"
              "g side\n"
              "usemtl none\n"
              "f 1/1/1 2/1/1 3/1/1\n"
              "f -4//1 -2//1 -1//1\n"  // relative indices
              "s off\n"
              "f 1 2 3 4\n"
              "l 1 2\n");
    const Mesh mesh = readMesh(dir / "m.obj");
    ASSERT_EQ(mesh.positions.size(), 4u);
    EXPECT_EQ(mesh.positions[3], glm::vec3(0, 1, 0));
    EXPECT_EQ(mesh.faceSizes, (std::vector<uint32_t>{3, 3, 4}));
    EXPECT_EQ(mesh.faceIndices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 1, 2, 3}));
}

// ---------------------------------------------------------------------------
// Hand-written PLY variants

TEST(MeshIo, ReadsAsciiPlyWithExtraPropertiesAndElements) {
    ScratchDir dir;
    writeFile(dir / "extra.ply",
              "ply\r\n"
              "format ascii 1.0\r\n"
              "comment made by hand\r\n"
              "obj_info nothing\r\n"
              "element vertex 4\r\n"
              "property uchar red\r\n"
              "property float32 nx\r\n"
              "property double x\r\n"
              "property list uint8 int32 neighbours\r\n"
              "property float y\r\n"
              "property int16 quality\r\n"
              "property float z\r\n"
              "element edge 1\r\n"
              "property int vertex1\r\n"
              "property int vertex2\r\n"
              "element face 2\r\n"
              "property uint flags\r\n"
              "property list uchar float texcoord\r\n"
              "property list uint16 uint32 vertex_index\r\n"
              "end_header\r\n"
              "255 0.5 0 2 1 3 0 -7 0\r\n"
              "0 0.5 1 0 0 12 0\r\n"
              "\r\n"
              "7 1e-3 1 1 2 1 100 -2.5\r\n"
              "7 -0.5 0 0 1 7 7\r\n"
              "0 1\r\n"
              "1 6 0 0 1 0 1 1 3 0 1 2\r\n"
              "2 0 4 0 2 3 1\r\n");
    const Mesh mesh = readMesh(dir / "extra.ply");
    ASSERT_EQ(mesh.positions.size(), 4u);
    EXPECT_EQ(mesh.positions[0], glm::vec3(0, 0, 0));
    EXPECT_EQ(mesh.positions[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.positions[2], glm::vec3(1, 1, -2.5f));
    EXPECT_EQ(mesh.positions[3], glm::vec3(0, 1, 7));
    EXPECT_EQ(mesh.faceSizes, (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(mesh.faceIndices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 1}));
}

TEST(MeshIo, ReadsBinaryPlyWithExtraProperties) {
    ScratchDir dir;
    std::string out =
        "ply\nformat binary_little_endian 1.0\nelement vertex 3\n"
        "property float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty float ny\nproperty float nz\n"
        "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n"
        "element face 1\nproperty list uchar int vertex_indices\nproperty ushort material\n"
        "end_header\n";
    const glm::vec3 positions[3] = {{0.5f, -1.0f, 2.0f}, {3.0f, 4.0f, 5.0f}, {-6.0f, 7.25f, 8.0f}};
    for (const glm::vec3& p : positions) {
        for (int axis = 0; axis < 3; ++axis) le(out, p[axis]);
        for (int axis = 0; axis < 3; ++axis) le(out, 9.0f); // normal
        for (int c = 0; c < 4; ++c) le(out, uint8_t{200});  // colour
    }
    le(out, uint8_t{3});
    for (int32_t index : {2, 1, 0}) le(out, index);
    le(out, uint16_t{5});
    writeFile(dir / "normals.ply", out);
    const Mesh mesh = readMesh(dir / "normals.ply");
    ASSERT_EQ(mesh.positions.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(mesh.positions[i], positions[i]);
    EXPECT_EQ(mesh.faceSizes, (std::vector<uint32_t>{3}));
    EXPECT_EQ(mesh.faceIndices, (std::vector<uint32_t>{2, 1, 0}));
}

TEST(MeshIo, ReadsBigEndianPly) {
    ScratchDir dir;
    std::string out =
        "ply\nformat binary_big_endian 1.0\ncomment written by hand, big-endian\n"
        "element face 2\nproperty list uint8 int16 vertex_indices\n"
        "element vertex 5\nproperty double x\nproperty float y\nproperty int8 flag\n"
        "property float z\nproperty uint confidence\n"
        "element extra 2\nproperty list int uchar bytes\n"
        "end_header\n";
    be(out, uint8_t{4});
    for (int16_t index : {0, 1, 2, 3}) be(out, index);
    be(out, uint8_t{3});
    for (int16_t index : {3, 2, 4}) be(out, index);
    const double xs[5] = {0.1, -1.5, 1e-3, 1e6, -0.0};
    const float ys[5] = {0.25f, 1.0f / 3.0f, -7.0f, 1e-20f, 42.0f};
    const float zs[5] = {-1.0f, 2.0f, 65536.5f, 0.0f, -3.75f};
    for (int i = 0; i < 5; ++i) {
        be(out, xs[i]);
        be(out, ys[i]);
        be(out, int8_t{-3});
        be(out, zs[i]);
        be(out, uint32_t{0xdeadbeef});
    }
    be(out, int32_t{2});
    out += "ab";
    be(out, int32_t{0});
    writeFile(dir / "big.ply", out);

    const Mesh mesh = readMesh(dir / "big.ply");
    ASSERT_EQ(mesh.positions.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(mesh.positions[i], glm::vec3(static_cast<float>(xs[i]), ys[i], zs[i])) << "vertex " << i;
    }
    EXPECT_EQ(mesh.faceSizes, (std::vector<uint32_t>{4, 3}));
    EXPECT_EQ(mesh.faceIndices, (std::vector<uint32_t>{0, 1, 2, 3, 3, 2, 4}));
}

TEST(MeshIo, ReadsPlyWithoutFaces) {
    ScratchDir dir;
    writeFile(dir / "points.ply", "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
                                  "property float y\nproperty float z\nend_header\n1 2 3\n4 5 6\n");
    const Mesh mesh = readMesh(dir / "points.ply");
    EXPECT_EQ(mesh.positions.size(), 2u);
    EXPECT_TRUE(mesh.faceSizes.empty());
}

// ---------------------------------------------------------------------------
// Writing

TEST(MeshIo, WriteLeavesNoTemporaryFiles) {
    ScratchDir dir;
    writeMesh(sampleMesh(), dir / "a.obj");
    writeMesh(sampleMesh(), dir / "a.obj"); // overwrite
    writeMesh(sampleMesh(), dir / "b.ply");
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++files;
        EXPECT_TRUE(entry.path().filename() == "a.obj" || entry.path().filename() == "b.ply") << entry.path();
    }
    EXPECT_EQ(files, 2u);
}

TEST(MeshIo, WriteRefusesInvalidMeshAndKeepsOldFile) {
    ScratchDir dir;
    writeMesh(sampleMesh(), dir / "keep.ply");
    const std::string before = readFile(dir / "keep.ply");

    Mesh bigFace = sampleMesh();
    bigFace.faceSizes.push_back(256);
    bigFace.faceIndices.resize(bigFace.faceIndices.size() + 256, 0);
    EXPECT_TRUE(failsWith([&] { writeMesh(bigFace, dir / "keep.ply"); }, {"keep.ply", "256 vertices"}));

    Mesh badIndex = sampleMesh();
    badIndex.faceIndices.back() = 7;
    EXPECT_TRUE(failsWith([&] { writeMesh(badIndex, dir / "keep.ply"); }, {"keep.ply", "out of range"}));

    Mesh badSizes = sampleMesh();
    badSizes.faceSizes.back() = 4;
    EXPECT_TRUE(failsWith([&] { writeMesh(badSizes, dir / "keep.obj"); }, {"keep.obj", "face sizes"}));

    Mesh nonFinite = sampleMesh();
    nonFinite.positions[2].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(failsWith([&] { writeMesh(nonFinite, dir / "keep.ply"); }, {"keep.ply", "non-finite"}));

    EXPECT_TRUE(failsWith([&] { writeMesh(Mesh{}, dir / "keep.ply"); }, {"keep.ply", "no vertices"}));

    EXPECT_EQ(readFile(dir / "keep.ply"), before);
    EXPECT_FALSE(std::filesystem::exists(dir / "keep.obj"));
}

TEST(MeshIo, WriteRefusesUnknownExtensionAndMissingDirectory) {
    ScratchDir dir;
    EXPECT_TRUE(failsWith([&] { writeMesh(sampleMesh(), dir / "mesh.stl"); }, {"mesh.stl", "extension"}));
    EXPECT_TRUE(failsWith([&] { writeMesh(sampleMesh(), dir / "no" / "such" / "mesh.obj"); },
                          {"mesh.obj", "cannot open"}));
}

// ---------------------------------------------------------------------------
// Refusals

TEST(MeshIo, ReadRefusesMissingFileAndUnknownExtension) {
    ScratchDir dir;
    EXPECT_TRUE(failsWith([&] { readMesh(dir / "absent.obj"); }, {"absent.obj", "not found"}));
    EXPECT_TRUE(failsWith([&] { readMesh(dir / "absent.ply"); }, {"absent.ply", "not found"}));
    writeFile(dir / "mesh.stl", "solid x\n");
    EXPECT_TRUE(failsWith([&] { readMesh(dir / "mesh.stl"); }, {"mesh.stl", "extension"}));
    std::filesystem::create_directory(dir / "folder.obj");
    EXPECT_TRUE(failsWith([&] { readMesh(dir / "folder.obj"); }, {"folder.obj", "not a regular file"}));
}

struct BadFileCase {
    const char* name;
    std::string contents;
    std::vector<std::string_view> expected; // message fragments besides the file name
};

// Each case gets its own file in one scratch directory; the message must name the file.
void expectAllRefused(const std::vector<BadFileCase>& cases, const std::string& extension) {
    ScratchDir dir;
    for (const BadFileCase& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string fileName = std::string("bad_") + c.name + extension;
        writeFile(dir / fileName, c.contents);
        std::vector<std::string_view> parts = c.expected;
        parts.push_back(fileName);
        EXPECT_TRUE(failsWith([&] { readMesh(dir / fileName); }, parts));
    }
}

const std::string kTriangleVertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

std::string faceOf(size_t count) {
    std::string line = "f";
    for (size_t k = 0; k < count; ++k) line += ' ' + std::to_string(k % 3 + 1);
    return line + "\n";
}

// Each of these tinyobjloader accepts silently (or with a mere warning), except
// zero_index and bad_texcoord_index, which check that its own error text is passed on.
TEST(MeshIo, RefusesMalformedObj) {
    expectAllRefused(
        {BadFileCase{
             "missing_coordinate", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n", {"line 2", "vertex has 2 values"}},
         BadFileCase{"five_values", "v 0 0 0 1 1\n", {"line 1", "vertex has 5 values"}},
         BadFileCase{"non_numeric_coordinate", "v 0 0 abc\n", {"line 1", "not a number"}},
         BadFileCase{"trailing_junk_in_number", "v 0 0 1.5x\n", {"line 1", "not a number"}},
         BadFileCase{"nan_coordinate", "v 0 nan 0\n", {"line 1", "non-finite"}},
         BadFileCase{"inf_coordinate", "v 0 0 -inf\n", {"line 1", "non-finite"}},
         BadFileCase{"float_overflow", "v 0 0 1e39\n", {"line 1", "non-finite"}},
         BadFileCase{"index_out_of_range", kTriangleVertices + "f 1 2 99\n", {"line 4", "out of range"}},
         BadFileCase{"two_vertex_face", kTriangleVertices + "f 1 2\n", {"line 4", "face has 2 vertices"}},
         BadFileCase{"empty_face", kTriangleVertices + "f\n", {"line 4", "face has 0 vertices"}},
         BadFileCase{"face_over_255", kTriangleVertices + faceOf(256), {"line 4", "256 vertices"}},
         BadFileCase{
             "fractional_index", kTriangleVertices + "f 1.5 2 3\n", {"line 4", "bad face vertex index"}},
         BadFileCase{
             "non_numeric_index", kTriangleVertices + "f 1 2 x\n", {"line 4", "bad face vertex index"}},
         BadFileCase{"zero_index", kTriangleVertices + "f 0 1 2\n", {"line 4", "bad face vertex index"}},
         BadFileCase{"relative_before_start",
                     kTriangleVertices + "f -4 1 2\n",
                     {"line 4", "before the first vertex"}},
         BadFileCase{"bad_texcoord_index",
                     kTriangleVertices + "vt 0 0\nf 1/0 2/1 3/1\n",
                     {"OBJ parse error", "line 5"}},
         BadFileCase{"no_vertices", "# nothing here\n", {"no vertices"}},
         BadFileCase{"empty_file", "", {"no vertices"}}},
        ".obj");
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
    const size_t at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

const std::string kSquare = kSquarePlyAscii;

TEST(MeshIo, RefusesMalformedPlyHeader) {
    expectAllRefused(
        {BadFileCase{"empty", "", {"missing PLY header"}},
         BadFileCase{"not_ply", replaced(kSquare, "ply\n", "plx\n"), {"not a PLY file"}},
         BadFileCase{
             "no_end_header", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", {"end_header"}},
         BadFileCase{
             "unknown_format", replaced(kSquare, "ascii", "binary_middle_endian"), {"unknown format"}},
         BadFileCase{"bad_version", replaced(kSquare, "ascii 1.0", "ascii 2.0"), {"version"}},
         BadFileCase{"no_format", replaced(kSquare, "format ascii 1.0\n", ""), {"no format line"}},
         BadFileCase{
             "unknown_type", replaced(kSquare, "float y", "float128 y"), {"header line 5", "unknown type"}},
         BadFileCase{
             "unknown_keyword", replaced(kSquare, "element face", "elemnt face"), {"unknown header keyword"}},
         BadFileCase{"property_first",
                     replaced(kSquare, "format ascii 1.0\n", "format ascii 1.0\nproperty int q\n"),
                     {"property before any element"}},
         BadFileCase{"negative_count", replaced(kSquare, "vertex 4", "vertex -4"), {"bad element count"}},
         BadFileCase{"garbled_count", replaced(kSquare, "vertex 4", "vertex four"), {"bad element count"}},
         BadFileCase{"duplicate_property", replaced(kSquare, "float z", "float y"), {"duplicate property"}},
         BadFileCase{"missing_z", replaced(kSquare, "property float z\n", ""), {"no property z"}},
         BadFileCase{"list_coordinate",
                     replaced(kSquare, "property float z", "property list uchar float z"),
                     {"is a list"}},
         BadFileCase{"no_vertex_element",
                     replaced(kSquare, "element vertex", "element point"),
                     {"no vertex element"}},
         BadFileCase{"no_vertices",
                     "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\n"
                     "property float z\nend_header\n",
                     {"no vertices"}},
         BadFileCase{"no_index_list", replaced(kSquare, "vertex_indices", "corners"), {"no vertex_indices"}},
         BadFileCase{"float_indices",
                     replaced(kSquare, "uchar int vertex_indices", "uchar float vertex_indices"),
                     {"must hold integers"}},
         BadFileCase{"float_list_count",
                     replaced(kSquare, "uchar int vertex_indices", "float int vertex_indices"),
                     {"integer type"}},
         BadFileCase{"empty_element",
                     replaced(kSquare, "end_header", "element nothing 3\nend_header"),
                     {"no properties"}}},
        ".ply");
}

TEST(MeshIo, RefusesMalformedPlyAsciiData) {
    expectAllRefused(
        {BadFileCase{"trailing_token",
                     replaced(kSquare, "1 1 0\n", "1 1 0 7\n"),
                     {"line 12", "unexpected extra value"}},
         BadFileCase{"too_few_values", replaced(kSquare, "1 1 0\n", "1 1\n"), {"line 12", "too few values"}},
         BadFileCase{"bad_number", replaced(kSquare, "1 1 0\n", "1 zz 0\n"), {"line 12", "bad number"}},
         BadFileCase{"nan", replaced(kSquare, "1 1 0\n", "1 nan 0\n"), {"vertex 2", "non-finite"}},
         BadFileCase{
             "index_out_of_range", replaced(kSquare, "3 0 2 3", "3 0 2 4"), {"face 1", "out of range"}},
         BadFileCase{"negative_index", replaced(kSquare, "3 0 2 3", "3 0 -2 3"), {"face 1", "out of range"}},
         BadFileCase{
             "two_vertex_face", replaced(kSquare, "3 0 2 3", "2 0 2"), {"face 1", "face has 2 vertices"}},
         BadFileCase{"count_out_of_type_range",
                     replaced(kSquare, "3 0 2 3", "300 0 2 3"),
                     {"out of range for its type"}},
         BadFileCase{"fractional_index", replaced(kSquare, "3 0 2 3", "3 0 2.5 3"), {"bad integer"}},
         BadFileCase{"missing_line", replaced(kSquare, "3 0 2 3\n", ""), {"truncated", "face 1"}},
         BadFileCase{"data_after_end", kSquare + "1 2 3\n", {"after the last element"}},
         BadFileCase{
             "huge_count", replaced(kSquare, "vertex 4", "vertex 4000000000"), {"4000000000", "truncated"}}},
        ".ply");
}

std::string truncatedSquare() {
    std::string data = squarePlyBinary();
    data.resize(data.size() - 3);
    return data;
}

TEST(MeshIo, RefusesMalformedPlyBinaryData) {
    expectAllRefused(
        {BadFileCase{"truncated", truncatedSquare(), {"truncated", "face 1"}},
         BadFileCase{"trailing_bytes", squarePlyBinary() + "xyz", {"3 trailing bytes"}},
         BadFileCase{"inf_coordinate",
                     squarePlyBinary(std::numeric_limits<float>::infinity()),
                     {"vertex 3", "non-finite"}},
         BadFileCase{"index_out_of_range", squarePlyBinary(0.0f, 4), {"face 1", "index 4 out of range"}},
         BadFileCase{"huge_vertex_count",
                     replaced(squarePlyBinary(), "vertex 4", "vertex 4000000000"),
                     {"vertex", "4000000000", "truncated"}},
         BadFileCase{"huge_face_count",
                     replaced(squarePlyBinary(), "face 2", "face 18446744073"),
                     {"face", "18446744073", "truncated"}},
         BadFileCase{"too_many_vertices",
                     "ply\nformat binary_little_endian 1.0\nelement vertex 5000000000\nproperty char x\n"
                     "property char y\nproperty char z\nend_header\n",
                     {"truncated"}}},
        ".ply");
}

// The size check happens before anything is allocated, so a lying header fails at once.
TEST(MeshIo, HugeCountInTinyFileFailsFast) {
    ScratchDir dir;
    const std::string header =
        "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\n"
        "property double x\nproperty double y\nproperty double z\nend_header\n";
    writeFile(dir / "huge.ply", header + std::string(100 - header.size() % 100, '\0'));
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(failsWith([&] { readMesh(dir / "huge.ply"); }, {"huge.ply", "4000000000"}));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

} // namespace
} // namespace sculptflow
