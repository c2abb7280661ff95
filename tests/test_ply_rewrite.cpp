// PLY output keeps what was read (issue 32): every vertex and face property and
// every other element, with its type and value, in ASCII and binary; positions
// moved, normals of moved faces recomputed, everything else as read.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/stroke.hpp>
#include "cli_runner.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

using test::ScratchDir;

// ---------------------------------------------------------------------------
// A small PLY codec of the tests' own, so that the library's reader does not
// check itself: the header's elements and typed properties, and each element's
// rows as numbers (a list as its count, then its items).

struct Property {
    std::string type, name;
    std::string countType; // empty: a scalar
};

struct Element {
    std::string name;
    size_t count = 0;
    std::vector<Property> properties;
    std::vector<std::vector<double>> rows;
};

struct PlyFile {
    std::string format;
    std::vector<std::string> comments;
    std::vector<Element> elements;

    const Element& element(const std::string& name) const {
        for (const Element& e : elements)
            if (e.name == name) return e;
        throw std::runtime_error("no element " + name);
    }
};

size_t typeSize(const std::string& type) {
    if (type == "char" || type == "uchar") return 1;
    if (type == "short" || type == "ushort") return 2;
    if (type == "double") return 8;
    return 4; // int, uint, float
}

// The header's text, and its format, comments and elements (rows left empty).
PlyFile parseHeader(const std::string& bytes, size_t& bodyOffset) {
    PlyFile file;
    std::istringstream in(bytes);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string keyword;
        words >> keyword;
        if (keyword == "format") words >> file.format;
        else if (keyword == "comment") file.comments.push_back(line);
        else if (keyword == "element") {
            file.elements.emplace_back();
            words >> file.elements.back().name >> file.elements.back().count;
        } else if (keyword == "property") {
            Property p;
            words >> p.type;
            if (p.type == "list") words >> p.countType >> p.type;
            words >> p.name;
            file.elements.back().properties.push_back(p);
        } else if (keyword == "end_header") {
            bodyOffset = size_t(in.tellg());
            break;
        }
    }
    return file;
}

double decodeBinary(const std::string& bytes, size_t& at, const std::string& type, bool bigEndian) {
    unsigned char b[8];
    const size_t size = typeSize(type);
    for (size_t k = 0; k < size; ++k) b[k] = static_cast<unsigned char>(bytes.at(at + (bigEndian ? size - 1 - k : k)));
    at += size;
    auto as = [&](auto value) {
        std::memcpy(&value, b, sizeof value);
        return double(value);
    };
    if (type == "char") return as(int8_t{});
    if (type == "uchar") return as(uint8_t{});
    if (type == "short") return as(int16_t{});
    if (type == "ushort") return as(uint16_t{});
    if (type == "int") return as(int32_t{});
    if (type == "uint") return as(uint32_t{});
    if (type == "float") return as(float{});
    return as(double{});
}

PlyFile decodePly(const std::string& bytes) {
    size_t at = 0;
    PlyFile file = parseHeader(bytes, at);
    std::istringstream text(bytes.substr(at));
    const bool ascii = file.format == "ascii", bigEndian = file.format == "binary_big_endian";
    const auto number = [&](const std::string& type) {
        if (!ascii) return decodeBinary(bytes, at, type, bigEndian);
        double value = 0;
        text >> value;
        return value;
    };
    for (Element& e : file.elements) {
        for (size_t r = 0; r < e.count; ++r) {
            std::vector<double>& row = e.rows.emplace_back();
            for (const Property& p : e.properties) {
                if (p.countType.empty()) {
                    row.push_back(number(p.type));
                    continue;
                }
                const double count = number(p.countType);
                row.push_back(count);
                for (int k = 0; k < int(count); ++k) row.push_back(number(p.type));
            }
        }
    }
    if (!ascii) {
        EXPECT_EQ(at, bytes.size()) << "bytes left after the last element";
    }
    return file;
}

void encodeBinary(std::string& out, double value, const std::string& type, bool bigEndian) {
    unsigned char b[8];
    auto put = [&](auto typed) { std::memcpy(b, &typed, sizeof typed); };
    if (type == "char") put(int8_t(value));
    else if (type == "uchar") put(uint8_t(value));
    else if (type == "short") put(int16_t(value));
    else if (type == "ushort") put(uint16_t(value));
    else if (type == "int") put(int32_t(value));
    else if (type == "uint") put(uint32_t(value));
    else if (type == "float") put(float(value));
    else put(value);
    const size_t size = typeSize(type);
    for (size_t k = 0; k < size; ++k) out += char(b[bigEndian ? size - 1 - k : k]);
}

// `header` (from its format line on) and the rows of `elements`, in `format`.
std::string encodePly(const std::string& format, const std::string& header, const std::vector<Element>& elements) {
    std::string out = "ply\nformat " + format + " 1.0\n" + header;
    for (const Element& e : elements) {
        for (const std::vector<double>& row : e.rows) {
            size_t v = 0;
            std::ostringstream line;
            line.precision(17);
            for (const Property& p : e.properties) {
                const size_t count = p.countType.empty() ? 0 : size_t(row[v]);
                for (size_t k = 0; k <= count; ++k, ++v) {
                    const std::string& type = k == 0 && !p.countType.empty() ? p.countType : p.type;
                    if (format == "ascii") line << (v ? " " : "") << row[v];
                    else encodeBinary(out, row[v], type, format == "binary_big_endian");
                }
            }
            if (format == "ascii") out += line.str() + "\n";
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// The fixture: a square pyramid (four triangles and a quad base) with colours,
// texture coordinates, a confidence and a quality a vertex, a colour, a material
// and texture coordinates a face, and an edge element.

const char* const kHeader =
    "comment made by a scanner\n"
    "element vertex 5\n"
    "property float x\nproperty float y\nproperty float z\n"
    "property float nx\nproperty float ny\nproperty float nz\n"
    "property uchar red\nproperty uchar green\nproperty uchar blue\n"
    "property float u\nproperty float v\nproperty double confidence\nproperty short quality\n"
    "element face 5\n"
    "property list uchar int vertex_indices\n"
    "property uchar red\nproperty uchar green\nproperty uchar blue\n"
    "property list uchar float texcoord\nproperty uint material\n"
    "element edge 2\nproperty int vertex1\nproperty int vertex2\nproperty char crease\n"
    "end_header\n";

std::vector<Element> pyramidElements() {
    size_t unused = 0;
    std::vector<Element> elements = parseHeader("ply\n" + std::string(kHeader), unused).elements;
    const double p[5][3] = {{0, 0, 1}, {-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    for (int i = 0; i < 5; ++i)
        elements[0].rows.push_back({p[i][0], p[i][1], p[i][2], 0, 0, 1, double(50 * i), 255, double(7 + i),
                                    0.125 * i, 1 - 0.1f * float(i), 0.1 + 1e-12 * i, double(-300 * i)});
    const int faces[5][4] = {{0, 1, 2, -1}, {0, 2, 3, -1}, {0, 3, 4, -1}, {0, 4, 1, -1}, {1, 4, 3, 2}};
    for (int f = 0; f < 5; ++f) {
        std::vector<double> row;
        const int size = faces[f][3] < 0 ? 3 : 4;
        row.push_back(size);
        for (int k = 0; k < size; ++k) row.push_back(faces[f][k]);
        for (double c : {200.0 - f, double(f), 128.0}) row.push_back(c);
        row.push_back(2 * size);
        for (int k = 0; k < 2 * size; ++k) row.push_back(0.0625 * (k + f));
        row.push_back(4000000000.0 + f);
        elements[1].rows.push_back(row);
    }
    elements[2].rows = {{0, 1, -5}, {1, 2, 127}};
    return elements;
}

std::string pyramidPly(const std::string& format) { return encodePly(format, kHeader, pyramidElements()); }

// Each value's type in a row: a list's count type, then its item type per item.
std::vector<std::string> valueTypes(const Element& element, const std::vector<double>& row) {
    std::vector<std::string> types;
    for (const Property& p : element.properties) {
        if (p.countType.empty()) {
            types.push_back(p.type);
            continue;
        }
        const size_t count = size_t(row[types.size()]);
        types.push_back(p.countType);
        types.insert(types.end(), count, p.type);
    }
    return types;
}

// The area-weighted normal of the faces around vertex v.
glm::vec3 vertexNormal(const Mesh& mesh, uint32_t v) {
    glm::vec3 sum(0.0f);
    size_t offset = 0;
    for (const uint32_t size : mesh.faceSizes) {
        const uint32_t* face = mesh.faceIndices.data() + offset;
        offset += size;
        if (std::find(face, face + size, v) == face + size) continue;
        for (uint32_t k = 0; k < size; ++k)
            sum += glm::cross(mesh.positions[face[k]], mesh.positions[face[(k + 1) % size]]);
    }
    return glm::normalize(sum);
}

// ---------------------------------------------------------------------------

TEST(PlyRewrite, UnchangedMeshWritesTheSameBytes) {
    ScratchDir dir;
    const std::string ascii = pyramidPly("ascii"), binary = pyramidPly("binary_little_endian");
    test::writeFile(dir / "ascii.ply", ascii);
    test::writeFile(dir / "binary.ply", binary);
    writeMesh(readMesh(dir / "ascii.ply"), dir / "ascii-out.ply", MeshFormat::PlyAscii);
    writeMesh(readMesh(dir / "binary.ply"), dir / "binary-out.ply", MeshFormat::PlyBinary);
    EXPECT_EQ(test::readFile(dir / "ascii-out.ply"), ascii);
    EXPECT_EQ(test::readFile(dir / "binary-out.ply"), binary);
}

// Every source encoding to both output encodings: the apex moves, and so the
// normals of all five vertices (each is on a face with the apex) are recomputed.
TEST(PlyRewrite, MovedMeshKeepsEveryPropertyAndElement) {
    const std::vector<Element> source = pyramidElements();
    for (const char* from : {"ascii", "binary_little_endian", "binary_big_endian"}) {
        for (const MeshFormat to : {MeshFormat::PlyAscii, MeshFormat::PlyBinary}) {
            SCOPED_TRACE(std::string(from) + (to == MeshFormat::PlyAscii ? " to ascii" : " to binary"));
            ScratchDir dir;
            test::writeFile(dir / "in.ply", pyramidPly(from));
            Mesh mesh = readMesh(dir / "in.ply");
            mesh.positions[0] += glm::vec3(0.25f, -0.125f, 0.5f);
            writeMesh(mesh, dir / "out.ply", to);

            const PlyFile out = decodePly(test::readFile(dir / "out.ply"));
            EXPECT_EQ(out.format, to == MeshFormat::PlyAscii ? "ascii" : "binary_little_endian");
            EXPECT_EQ(out.comments, std::vector<std::string>{"comment made by a scanner"});
            ASSERT_EQ(out.elements.size(), source.size());
            for (size_t e = 0; e < source.size(); ++e) {
                const Element &want = source[e], &got = out.elements[e];
                ASSERT_EQ(got.name, want.name);
                ASSERT_EQ(got.properties.size(), want.properties.size()) << want.name;
                for (size_t p = 0; p < want.properties.size(); ++p) {
                    EXPECT_EQ(got.properties[p].name, want.properties[p].name);
                    EXPECT_EQ(got.properties[p].type, want.properties[p].type) << want.properties[p].name;
                    EXPECT_EQ(got.properties[p].countType, want.properties[p].countType);
                }
                ASSERT_EQ(got.rows.size(), want.rows.size()) << want.name;
                for (size_t r = 0; r < want.rows.size(); ++r) {
                    ASSERT_EQ(got.rows[r].size(), want.rows[r].size()) << want.name << " " << r;
                    // The vertex's first six values are its position and normal, checked below.
                    const std::vector<std::string> types = valueTypes(want, want.rows[r]);
                    for (size_t k = e == 0 ? 6 : 0; k < want.rows[r].size(); ++k) {
                        SCOPED_TRACE(want.name + " " + std::to_string(r) + " value " + std::to_string(k));
                        // Value for value, as the type holds it.
                        if (types[k] == "float") EXPECT_EQ(float(got.rows[r][k]), float(want.rows[r][k]));
                        else EXPECT_EQ(got.rows[r][k], want.rows[r][k]);
                    }
                }
            }
            const Element& vertices = out.elements[0];
            for (uint32_t i = 0; i < 5; ++i) {
                const std::vector<double>& row = vertices.rows[i];
                for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(row[size_t(axis)], mesh.positions[i][axis], 1e-6);
                const glm::vec3 normal = vertexNormal(mesh, i);
                for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(row[size_t(3 + axis)], normal[axis], 1e-5) << i;
            }
            const Mesh back = readMesh(dir / "out.ply");
            for (size_t i = 0; i < 5; ++i) EXPECT_EQ(back.positions[i], mesh.positions[i]) << i;
            EXPECT_EQ(back.faceSizes, mesh.faceSizes);
            EXPECT_EQ(back.faceIndices, mesh.faceIndices);
        }
    }
}

// A moved base vertex shares a face with every pyramid vertex, so all five get new
// normals; a vertex on no moved face keeps its normal exactly as read.
TEST(PlyRewrite, NormalsAreRecomputedOnlyAroundMovedFaces) {
    ScratchDir dir;
    std::vector<Element> elements = pyramidElements();
    // A sixth, lone vertex on no face keeps its normal whatever moves.
    elements[0].rows.push_back({5, 5, 5, 0, 0, 1, 1, 2, 3, 0.5, 0.5, 0.25, 9});
    std::string header = kHeader;
    header.replace(header.find("element vertex 5"), 16, "element vertex 6");
    test::writeFile(dir / "in.ply", encodePly("ascii", header, elements));
    Mesh mesh = readMesh(dir / "in.ply");
    mesh.positions[1] += glm::vec3(-0.5f, 0.0f, 0.0f);
    writeMesh(mesh, dir / "out.ply", MeshFormat::PlyAscii);
    const PlyFile out = decodePly(test::readFile(dir / "out.ply"));
    const auto normal = [&](size_t i) {
        const auto& row = out.elements[0].rows[i];
        return glm::vec3(float(row[3]), float(row[4]), float(row[5]));
    };
    for (uint32_t i = 0; i < 5; ++i) EXPECT_NEAR(glm::length(normal(i) - vertexNormal(mesh, i)), 0.0f, 1e-5f) << i;
    EXPECT_EQ(normal(5), glm::vec3(0, 0, 1));
    EXPECT_GT(glm::length(normal(1) - glm::vec3(0, 0, 1)), 0.1f); // it did change
}

TEST(PlyRewrite, MaskAndVolumeChangeFollowTheMesh) {
    ScratchDir dir;
    std::string header = kHeader;
    header.replace(header.find("property short quality\n"), 23, "property short quality\nproperty uchar mask\n");
    std::vector<Element> elements = pyramidElements();
    elements[0].properties.push_back({"uchar", "mask", ""});
    for (auto& row : elements[0].rows) row.push_back(1);
    test::writeFile(dir / "in.ply", encodePly("binary_little_endian", header, elements));
    Mesh mesh = readMesh(dir / "in.ply");
    ASSERT_EQ(mesh.mask, std::vector<float>(5, 1.0f));

    // The mask, now partial, is written as float where it was; volume_change is added at the end.
    mesh.mask[2] = 0.5f;
    mesh.volumeChange = {1.0f, 1.5f, 0.75f, 1.0f, 2.0f};
    writeMesh(mesh, dir / "out.ply", MeshFormat::PlyBinary);
    PlyFile out = decodePly(test::readFile(dir / "out.ply"));
    const auto& props = out.elements[0].properties;
    ASSERT_EQ(props.size(), 15u);
    EXPECT_EQ(props[13].type + " " + props[13].name, "float mask");
    EXPECT_EQ(props[14].type + " " + props[14].name, "float volume_change");
    EXPECT_EQ(out.elements[0].rows[2][13], 0.5);
    EXPECT_EQ(out.elements[0].rows[4][14], 2.0);
    EXPECT_EQ(out.elements[0].rows[4][6], 200.0); // red, as read
    const Mesh back = readMesh(dir / "out.ply");
    EXPECT_EQ(back.mask, mesh.mask);
    EXPECT_EQ(back.volumeChange, mesh.volumeChange);

    // Emptied, they are left out.
    mesh.mask.clear();
    mesh.volumeChange.clear();
    writeMesh(mesh, dir / "out.ply", MeshFormat::PlyAscii);
    out = decodePly(test::readFile(dir / "out.ply"));
    EXPECT_EQ(out.elements[0].properties.size(), 13u);
    EXPECT_TRUE(readMesh(dir / "out.ply").mask.empty());
}

TEST(PlyRewrite, ChangedFacesFallBackToThePlainWriter) {
    ScratchDir dir;
    test::writeFile(dir / "in.ply", pyramidPly("ascii"));
    Mesh mesh = readMesh(dir / "in.ply");
    mesh.faceSizes.pop_back(); // the base is gone: the source's faces no longer apply
    mesh.faceIndices.resize(12);
    writeMesh(mesh, dir / "out.ply", MeshFormat::PlyAscii);
    const PlyFile out = decodePly(test::readFile(dir / "out.ply"));
    ASSERT_EQ(out.elements.size(), 2u);
    EXPECT_EQ(out.elements[0].properties.size(), 3u);
    const Mesh back = readMesh(dir / "out.ply");
    EXPECT_EQ(back.faceSizes, mesh.faceSizes);
    EXPECT_EQ(back.positions, mesh.positions);
}

// The CLI end to end: a coloured sphere deformed keeps its colours and face materials.
TEST(PlyRewrite, DeformedPlyKeepsItsColoursAndFaceProperties) {
    ScratchDir dir;
    const Stroke stroke = defaultStroke(); // kept: `tool` refers into it
    const ToolStroke& tool = stroke.tools.front();
    const Mesh sphere = icosphere(3, glm::vec3(tool.poses.front().position), float(0.3 * tool.outerRadius));
    std::vector<Element> elements(2);
    elements[0] = {"vertex", sphere.positions.size(),
                   {{"float", "x", ""}, {"float", "y", ""}, {"float", "z", ""}, {"uchar", "red", ""},
                    {"float", "u", ""}},
                   {}};
    for (size_t i = 0; i < sphere.positions.size(); ++i) {
        const glm::vec3& p = sphere.positions[i];
        elements[0].rows.push_back({p.x, p.y, p.z, double(i % 256), double(i) / 1024.0});
    }
    elements[1] = {
        "face", sphere.faceSizes.size(), {{"int", "vertex_indices", "uchar"}, {"ushort", "material", ""}}, {}};
    for (size_t f = 0; f < sphere.faceSizes.size(); ++f) {
        const uint32_t* v = &sphere.faceIndices[3 * f];
        elements[1].rows.push_back({3, double(v[0]), double(v[1]), double(v[2]), double(f % 7)});
    }
    const std::string header = "element vertex " + std::to_string(sphere.positions.size()) +
                               "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
                               "property float u\nelement face " + std::to_string(sphere.faceSizes.size()) +
                               "\nproperty list uchar int vertex_indices\nproperty ushort material\nend_header\n";
    test::writeFile(dir / "in.ply", encodePly("binary_little_endian", header, elements));
    const auto out = dir / "out.ply";
    testing::internal::CaptureStdout();
    const auto [status, errors] =
        test::cliExitStatus({"deform", "--backend", "cpu", "--mesh", (dir / "in.ply").string(), "--out", out.string()});
    testing::internal::GetCapturedStdout();
    ASSERT_EQ(status, 0) << errors;

    const PlyFile written = decodePly(test::readFile(out));
    ASSERT_EQ(written.elements.size(), 2u);
    ASSERT_EQ(written.elements[0].properties.size(), 5u);
    size_t moved = 0;
    for (size_t i = 0; i < sphere.positions.size(); ++i) {
        const auto& row = written.elements[0].rows[i];
        EXPECT_EQ(row[3], double(i % 256));
        EXPECT_EQ(row[4], double(i) / 1024.0);
        moved += glm::vec3(float(row[0]), float(row[1]), float(row[2])) != sphere.positions[i];
    }
    EXPECT_GT(moved, 100u); // the move did happen
    for (size_t f = 0; f < sphere.faceSizes.size(); ++f) EXPECT_EQ(written.elements[1].rows[f][4], double(f % 7));
}

} // namespace
} // namespace sculptflow
