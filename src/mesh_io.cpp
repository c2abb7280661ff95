// Mesh input and output: OBJ (through tinyobjloader, checked strictly) and PLY (own parser).
#include "mesh.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <tiny_obj_loader.h>

#include "error.hpp"

namespace sculptflow {
namespace {

// Faces have at most this many vertices: tinyobjloader stores face sizes as unsigned
// char (larger ones wrap silently), and our PLY output writes `list uchar uint`.
// Readers and writers share the limit so that everything written can be read back.
constexpr size_t kMaxFaceSize = 255;

// Significant digits that round-trip any float through decimal text.
constexpr int kFloatDigits = std::numeric_limits<float>::max_digits10;

// ---------------------------------------------------------------------------
// Shared helpers

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what);
}

std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::string readWholeFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        fail(path, std::filesystem::exists(path, ec) ? "not a regular file" : "file not found");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, "cannot open for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) fail(path, "read error");
    return std::move(buffer).str();
}

// Writes `bytes` to a temporary file next to `path` and renames it over `path`, so that a
// failed write leaves any previous file untouched and never a partial one.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
    static std::atomic<unsigned> counter{0};
    auto tmp = path;
    tmp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(path, "cannot open temporary file " + tmp.string() + " for writing");
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            fail(path, "write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        fail(path, "cannot replace file: " + ec.message());
    }
}

// A writer refuses what the readers refuse, so every file it writes reads back.
void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path) {
    if (mesh.positions.empty()) fail(path, "cannot write a mesh with no vertices");
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3& p = mesh.positions[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            fail(path, "cannot write vertex " + std::to_string(i) + ": non-finite coordinate");
        }
    }
    size_t total = 0;
    for (size_t f = 0; f < mesh.faceSizes.size(); ++f) {
        const uint32_t size = mesh.faceSizes[f];
        if (size < 3 || size > kMaxFaceSize) {
            fail(path, "cannot write face " + std::to_string(f) + " with " + std::to_string(size) +
                           " vertices (3 to " + std::to_string(kMaxFaceSize) + " supported)");
        }
        total += size;
    }
    if (total != mesh.faceIndices.size()) {
        fail(path, "cannot write mesh: face sizes add up to " + std::to_string(total) +
                       " indices but faceIndices holds " + std::to_string(mesh.faceIndices.size()));
    }
    for (size_t k = 0; k < mesh.faceIndices.size(); ++k) {
        if (mesh.faceIndices[k] >= mesh.positions.size()) {
            fail(path, "cannot write mesh: face index " + std::to_string(mesh.faceIndices[k]) +
                           " out of range (" + std::to_string(mesh.positions.size()) +
                           " vertices)");
        }
    }
}

void appendFloat(std::string& out, float value) {
    std::array<char, 32> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                                   std::chars_format::general, kFloatDigits);
    (void)ec; // 32 characters always suffice for a float at 9 digits
    out.append(buf.data(), end);
}

void appendUnsigned(std::string& out, uint64_t value) {
    std::array<char, 24> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    (void)ec;
    out.append(buf.data(), end);
}

// Splits on spaces and tabs.
std::vector<std::string_view> splitTokens(std::string_view line) {
    std::vector<std::string_view> tokens;
    size_t pos = 0;
    while (pos < line.size()) {
        pos = line.find_first_not_of(" \t", pos);
        if (pos == std::string_view::npos) break;
        size_t end = line.find_first_of(" \t", pos);
        if (end == std::string_view::npos) end = line.size();
        tokens.push_back(line.substr(pos, end - pos));
        pos = end;
    }
    return tokens;
}

// Strict number parsing: the whole token must be the number.
std::optional<double> parseDouble(std::string_view token) {
    if (token.size() > 1 && token[0] == '+') token.remove_prefix(1); // from_chars rejects '+'
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
    if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
    return value;
}

std::optional<int64_t> parseInteger(std::string_view token) {
    if (token.size() > 1 && token[0] == '+') token.remove_prefix(1);
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
    return value;
}

std::string shown(std::string_view token) {
    constexpr size_t kMaxShown = 40;
    std::string text(token.substr(0, kMaxShown));
    if (token.size() > kMaxShown) text += "...";
    return "'" + text + "'";
}

// Calls fn(lineNumber, line) for each line; accepts \n, \r\n and lone \r endings
// like tinyobjloader does, so that line numbers agree with its messages.
template <class Fn>
void forEachLine(std::string_view text, Fn&& fn) {
    size_t lineNumber = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        fn(++lineNumber, text.substr(pos, end - pos));
        pos = end;
        if (pos < text.size() && text[pos] == '\r') ++pos;
        if (pos < text.size() && text[pos] == '\n') ++pos;
    }
}

// ---------------------------------------------------------------------------
// OBJ

// What our own pass over the text found; tinyobjloader's result must agree with it.
struct ObjScan {
    size_t vertexCount = 0;
    size_t faceCount = 0;
};

// tinyobjloader quietly accepts several malformed lines: a missing or non-numeric
// coordinate becomes 0, "nan"/"inf" become 0, "f 1.5 ..." reads as 1, faces with fewer
// than 3 vertices are dropped, faces over 255 vertices wrap their size, and out-of-range
// indices only warn. This pass refuses all of those with the line number.
ObjScan scanObj(std::string_view text, const std::filesystem::path& path) {
    ObjScan scan;
    int64_t maxIndex = 0; // largest positive (1-based) face index, checked at the end
    size_t maxIndexLine = 0;
    forEachLine(text, [&](size_t lineNumber, std::string_view line) {
        const auto where = [&] { return "line " + std::to_string(lineNumber) + ": "; };
        const auto tokens = splitTokens(line);
        if (tokens.empty() || tokens[0][0] == '#') return;
        if (tokens[0] == "v") {
            const size_t count = tokens.size() - 1;
            if (count != 3 && count != 4 && count != 6) {
                fail(path, where() + "vertex has " + std::to_string(count) +
                               " values (expected x y z, optionally followed by w or r g b)");
            }
            for (size_t k = 1; k < tokens.size(); ++k) {
                const auto value = parseDouble(tokens[k]);
                if (!value) fail(path, where() + "vertex value " + shown(tokens[k]) + " is not a number");
                if (k <= 3 && !std::isfinite(static_cast<float>(*value))) {
                    fail(path, where() + "non-finite vertex coordinate " + shown(tokens[k]));
                }
            }
            ++scan.vertexCount;
        } else if (tokens[0] == "f") {
            const size_t count = tokens.size() - 1;
            if (count < 3 || count > kMaxFaceSize) {
                fail(path, where() + "face has " + std::to_string(count) + " vertices (3 to " +
                               std::to_string(kMaxFaceSize) + " supported)");
            }
            for (size_t k = 1; k < tokens.size(); ++k) {
                const auto vertexPart = tokens[k].substr(0, tokens[k].find('/'));
                const auto index = parseInteger(vertexPart);
                if (!index || *index == 0) {
                    fail(path, where() + "bad face vertex index " + shown(tokens[k]));
                }
                if (*index < 0 && -*index > static_cast<int64_t>(scan.vertexCount)) {
                    fail(path, where() + "relative face index " + std::to_string(*index) +
                                   " points before the first vertex (" +
                                   std::to_string(scan.vertexCount) + " vertices so far)");
                }
                if (*index > maxIndex) {
                    maxIndex = *index;
                    maxIndexLine = lineNumber;
                }
            }
            ++scan.faceCount;
        }
    });
    if (scan.vertexCount == 0) fail(path, "no vertices");
    if (maxIndex > static_cast<int64_t>(scan.vertexCount)) {
        fail(path, "line " + std::to_string(maxIndexLine) + ": face index " + std::to_string(maxIndex) +
                       " out of range (file has " + std::to_string(scan.vertexCount) + " vertices)");
    }
    if (scan.vertexCount > std::numeric_limits<uint32_t>::max()) fail(path, "too many vertices");
    return scan;
}

Mesh readObj(const std::filesystem::path& path) {
    const std::string text = readWholeFile(path);
    const ObjScan scan = scanObj(text, path);

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warning;
    std::string error;
    std::istringstream stream(text);
    // No material reader: materials are not needed, and mtllib must not open other files.
    const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warning, &error, &stream,
                                     nullptr, /*triangulate=*/false);
    if (!ok) {
        while (!error.empty() && (error.back() == '\n' || error.back() == '.')) error.pop_back();
        fail(path, "OBJ parse error: " + error);
    }

    // Cross-check tinyobjloader against our scan, so a disagreement never yields a wrong mesh.
    const size_t vertexCount = attrib.vertices.size() / 3;
    if (vertexCount != scan.vertexCount) {
        fail(path, "tinyobjloader read " + std::to_string(vertexCount) + " vertices, expected " +
                       std::to_string(scan.vertexCount));
    }
    Mesh mesh;
    mesh.positions.resize(vertexCount);
    for (size_t i = 0; i < vertexCount; ++i) {
        const glm::vec3 p(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            fail(path, "vertex " + std::to_string(i) + ": non-finite coordinate");
        }
        mesh.positions[i] = p;
    }
    mesh.faceSizes.reserve(scan.faceCount);
    for (const tinyobj::shape_t& shape : shapes) {
        size_t offset = 0;
        for (const unsigned char size : shape.mesh.num_face_vertices) {
            const size_t face = mesh.faceSizes.size();
            if (size < 3 || offset + size > shape.mesh.indices.size()) {
                fail(path, "face " + std::to_string(face) + ": inconsistent size " + std::to_string(size));
            }
            for (size_t k = 0; k < size; ++k) {
                const int index = shape.mesh.indices[offset + k].vertex_index;
                if (index < 0 || static_cast<size_t>(index) >= vertexCount) {
                    fail(path, "face " + std::to_string(face) + ": vertex index " +
                                   std::to_string(index) + " out of range (" +
                                   std::to_string(vertexCount) + " vertices)");
                }
                mesh.faceIndices.push_back(static_cast<uint32_t>(index));
            }
            mesh.faceSizes.push_back(size);
            offset += size;
        }
        if (offset != shape.mesh.indices.size()) fail(path, "inconsistent face data in shape " + shape.name);
    }
    if (mesh.faceSizes.size() != scan.faceCount) {
        fail(path, "tinyobjloader read " + std::to_string(mesh.faceSizes.size()) + " faces, expected " +
                       std::to_string(scan.faceCount));
    }
    return mesh;
}

void writeObj(const Mesh& mesh, const std::filesystem::path& path) {
    std::string out = "# sculptflow mesh\n";
    out.reserve(mesh.positions.size() * 40 + mesh.faceIndices.size() * 8);
    for (const glm::vec3& p : mesh.positions) {
        out += "v ";
        appendFloat(out, p.x);
        out += ' ';
        appendFloat(out, p.y);
        out += ' ';
        appendFloat(out, p.z);
        out += '\n';
    }
    size_t offset = 0;
    for (const uint32_t size : mesh.faceSizes) {
        out += 'f';
        for (size_t k = 0; k < size; ++k) {
            out += ' ';
            appendUnsigned(out, uint64_t{mesh.faceIndices[offset + k]} + 1);
        }
        out += '\n';
        offset += size;
    }
    writeFileAtomically(path, out);
}

// ---------------------------------------------------------------------------
// PLY: header

enum class PlyEncoding { Ascii, BinaryLittleEndian, BinaryBigEndian };

enum class PlyType { Int8, Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64 };

std::optional<PlyType> plyTypeFromName(std::string_view name) {
    struct Entry {
        std::string_view name;
        PlyType type;
    };
    static constexpr Entry kTypes[] = {
        {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::Uint8},
        {"uint8", PlyType::Uint8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
        {"ushort", PlyType::Uint16},  {"uint16", PlyType::Uint16},   {"int", PlyType::Int32},
        {"int32", PlyType::Int32},    {"uint", PlyType::Uint32},     {"uint32", PlyType::Uint32},
        {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
        {"float64", PlyType::Float64},
    };
    for (const Entry& entry : kTypes) {
        if (entry.name == name) return entry.type;
    }
    return std::nullopt;
}

size_t plyTypeSize(PlyType type) {
    switch (type) {
    case PlyType::Int8:
    case PlyType::Uint8: return 1;
    case PlyType::Int16:
    case PlyType::Uint16: return 2;
    case PlyType::Int32:
    case PlyType::Uint32:
    case PlyType::Float32: return 4;
    case PlyType::Float64: return 8;
    }
    return 0;
}

bool isIntegerType(PlyType type) { return type != PlyType::Float32 && type != PlyType::Float64; }

struct PlyProperty {
    std::string name;
    PlyType type = PlyType::Float32;      // value type (item type for a list)
    std::optional<PlyType> listCountType; // set for a list property
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> properties;
};

struct PlyHeader {
    PlyEncoding encoding = PlyEncoding::Ascii;
    std::vector<PlyElement> elements;
    size_t bodyOffset = 0; // first byte after end_header's line
};

PlyHeader parsePlyHeader(const std::string& data, const std::filesystem::path& path) {
    PlyHeader header;
    bool sawFormat = false;
    size_t pos = 0;
    size_t lineNumber = 0;
    for (;;) {
        const size_t end = data.find('\n', pos);
        if (end == std::string::npos) {
            fail(path,
                 lineNumber == 0 ? "empty file or missing PLY header" : "PLY header has no end_header line");
        }
        std::string_view line(data.data() + pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = end + 1;
        ++lineNumber;
        const auto where = [&] { return "header line " + std::to_string(lineNumber) + ": "; };

        if (lineNumber == 1) {
            if (line != "ply") fail(path, "not a PLY file (first line is not 'ply')");
            continue;
        }
        const auto tokens = splitTokens(line);
        if (tokens.empty()) continue; // a blank line is harmless
        const std::string_view keyword = tokens[0];
        if (keyword == "comment" || keyword == "obj_info") continue;
        if (keyword == "end_header") {
            if (tokens.size() != 1) fail(path, where() + "unexpected text after end_header");
            break;
        }
        if (keyword == "format") {
            if (sawFormat) fail(path, where() + "second format line");
            if (tokens.size() != 3) fail(path, where() + "expected 'format <encoding> 1.0'");
            if (tokens[1] == "ascii") header.encoding = PlyEncoding::Ascii;
            else if (tokens[1] == "binary_little_endian") header.encoding = PlyEncoding::BinaryLittleEndian;
            else if (tokens[1] == "binary_big_endian") header.encoding = PlyEncoding::BinaryBigEndian;
            else fail(path, where() + "unknown format " + shown(tokens[1]));
            if (tokens[2] != "1.0") fail(path, where() + "unsupported PLY version " + shown(tokens[2]));
            sawFormat = true;
        } else if (keyword == "element") {
            if (tokens.size() != 3) fail(path, where() + "expected 'element <name> <count>'");
            const auto count = parseInteger(tokens[2]);
            if (!count || *count < 0) fail(path, where() + "bad element count " + shown(tokens[2]));
            header.elements.push_back({std::string(tokens[1]), static_cast<uint64_t>(*count), {}});
        } else if (keyword == "property") {
            if (header.elements.empty()) fail(path, where() + "property before any element");
            PlyProperty property;
            if (tokens.size() >= 2 && tokens[1] == "list") {
                if (tokens.size() != 5) {
                    fail(path, where() + "expected 'property list <count type> <type> <name>'");
                }
                const auto countType = plyTypeFromName(tokens[2]);
                const auto itemType = plyTypeFromName(tokens[3]);
                if (!countType) fail(path, where() + "unknown type " + shown(tokens[2]));
                if (!itemType) fail(path, where() + "unknown type " + shown(tokens[3]));
                if (!isIntegerType(*countType)) {
                    fail(path, where() + "list count type must be an integer type");
                }
                property = {std::string(tokens[4]), *itemType, countType};
            } else {
                if (tokens.size() != 3) fail(path, where() + "expected 'property <type> <name>'");
                const auto type = plyTypeFromName(tokens[1]);
                if (!type) fail(path, where() + "unknown type " + shown(tokens[1]));
                property = {std::string(tokens[2]), *type, std::nullopt};
            }
            for (const PlyProperty& other : header.elements.back().properties) {
                if (other.name == property.name) {
                    fail(path, where() + "duplicate property " + shown(property.name));
                }
            }
            header.elements.back().properties.push_back(std::move(property));
        } else {
            fail(path, where() + "unknown header keyword " + shown(keyword));
        }
    }
    if (!sawFormat) fail(path, "PLY header has no format line");
    for (const PlyElement& element : header.elements) {
        if (element.properties.empty()) fail(path, "element '" + element.name + "' has no properties");
    }
    header.bodyOffset = pos;
    return header;
}

// Refuses counts the file cannot hold before anything is allocated for them: each
// element needs at least a minimum number of bytes (binary: its scalars and list
// counts; ASCII: one character and one separator per value).
void checkCountsFitFile(const PlyHeader& header, size_t bodyBytes, const std::filesystem::path& path) {
    uint64_t remaining = bodyBytes + 1; // ASCII may omit the final separator
    for (const PlyElement& element : header.elements) {
        uint64_t minBytes = 0;
        for (const PlyProperty& property : element.properties) {
            if (header.encoding == PlyEncoding::Ascii) minBytes += 2;
            else minBytes += plyTypeSize(property.listCountType.value_or(property.type));
        }
        if (element.count > remaining / minBytes) {
            fail(path, "element '" + element.name + "' claims " + std::to_string(element.count) +
                           " entries but the file holds only " + std::to_string(bodyBytes) +
                           " bytes of data (truncated file or bad header)");
        }
        remaining -= element.count * minBytes;
    }
}

// ---------------------------------------------------------------------------
// PLY: body readers. Both offer beginElement / endElement / readNumber / finish, so
// one templated routine reads either encoding.

// Position of the value being read, for messages.
struct PlyWhere {
    const PlyElement* element = nullptr;
    uint64_t index = 0;
    const PlyProperty* property = nullptr;

    std::string text() const {
        std::string s = element->name + " " + std::to_string(index);
        if (property) s += " (" + property->name + ")";
        return s;
    }
};

bool fitsType(double value, PlyType type) {
    switch (type) {
    case PlyType::Int8: return value >= -128 && value <= 127;
    case PlyType::Uint8: return value >= 0 && value <= 255;
    case PlyType::Int16: return value >= -32768 && value <= 32767;
    case PlyType::Uint16: return value >= 0 && value <= 65535;
    case PlyType::Int32: return value >= -2147483648.0 && value <= 2147483647.0;
    case PlyType::Uint32: return value >= 0 && value <= 4294967295.0;
    case PlyType::Float32:
    case PlyType::Float64: return true;
    }
    return false;
}

class PlyAsciiBody {
public:
    PlyAsciiBody(std::string_view body, size_t firstLine, const std::filesystem::path& path)
        : body_(body), line_(firstLine - 1), path_(path) {}

    // Each element is one line of the body; blank lines are skipped.
    void beginElement(const PlyWhere& where) {
        tokens_.clear();
        while (tokens_.empty()) {
            if (pos_ >= body_.size()) fail(path_, "truncated: data ends before " + where.text());
            size_t end = body_.find('\n', pos_);
            if (end == std::string_view::npos) end = body_.size();
            std::string_view line = body_.substr(pos_, end - pos_);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            pos_ = end + 1;
            ++line_;
            tokens_ = splitTokens(line);
        }
        next_ = 0;
    }

    void endElement(const PlyWhere& where) {
        if (next_ != tokens_.size()) {
            fail(path_,
                 location() + "unexpected extra value " + shown(tokens_[next_]) + " after " + where.text());
        }
    }

    double readNumber(PlyType type, const PlyWhere& where) {
        if (next_ >= tokens_.size()) fail(path_, location() + "too few values for " + where.text());
        const std::string_view token = tokens_[next_++];
        double value = 0.0;
        if (isIntegerType(type)) {
            const auto integer = parseInteger(token);
            if (!integer) fail(path_, location() + "bad integer " + shown(token) + " in " + where.text());
            value = static_cast<double>(*integer);
            if (!fitsType(value, type)) {
                fail(path_,
                     location() + "value " + shown(token) + " out of range for its type in " + where.text());
            }
        } else {
            const auto real = parseDouble(token);
            if (!real) fail(path_, location() + "bad number " + shown(token) + " in " + where.text());
            value = *real;
        }
        return value;
    }

    void finish() {
        const size_t rest = std::min(pos_, body_.size());
        const size_t garbage = body_.find_first_not_of(" \t\r\n", rest);
        if (garbage != std::string_view::npos) fail(path_, "unexpected data after the last element");
    }

private:
    std::string location() const { return "line " + std::to_string(line_) + ": "; }

    std::string_view body_;
    size_t pos_ = 0;
    size_t line_;
    const std::filesystem::path& path_;
    std::vector<std::string_view> tokens_;
    size_t next_ = 0;
};

class PlyBinaryBody {
public:
    PlyBinaryBody(std::string_view body, bool bigEndian, const std::filesystem::path& path)
        : body_(body), bigEndian_(bigEndian), path_(path) {}

    void beginElement(const PlyWhere&) {}
    void endElement(const PlyWhere&) {}

    double readNumber(PlyType type, const PlyWhere& where) {
        const size_t size = plyTypeSize(type);
        if (body_.size() - pos_ < size) {
            fail(path_, "truncated: data ends inside " + where.text() + " at byte " +
                            std::to_string(pos_) + " of " + std::to_string(body_.size()));
        }
        uint64_t bits = 0; // the value's bytes, assembled in the file's byte order
        for (size_t k = 0; k < size; ++k) {
            const auto byte = static_cast<uint64_t>(static_cast<unsigned char>(body_[pos_ + k]));
            const size_t shift = bigEndian_ ? (size - 1 - k) * 8 : k * 8;
            bits |= byte << shift;
        }
        pos_ += size;
        switch (type) {
        case PlyType::Int8: return static_cast<int8_t>(static_cast<uint8_t>(bits));
        case PlyType::Uint8: return static_cast<uint8_t>(bits);
        case PlyType::Int16: return static_cast<int16_t>(static_cast<uint16_t>(bits));
        case PlyType::Uint16: return static_cast<uint16_t>(bits);
        case PlyType::Int32: return static_cast<int32_t>(static_cast<uint32_t>(bits));
        case PlyType::Uint32: return static_cast<uint32_t>(bits);
        case PlyType::Float32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
        case PlyType::Float64: return std::bit_cast<double>(bits);
        }
        return 0.0;
    }

    void finish() {
        if (pos_ != body_.size()) {
            fail(path_, std::to_string(body_.size() - pos_) +
                            " trailing bytes after the last element (header does not match the data)");
        }
    }

private:
    std::string_view body_;
    size_t pos_ = 0;
    bool bigEndian_;
    const std::filesystem::path& path_;
};

// Where the mesh's data sits in the header.
struct PlyLayout {
    size_t vertexElement = 0;
    std::array<size_t, 3> xyz{};
    std::optional<size_t> faceElement;
    size_t faceIndices = 0;
};

PlyLayout findLayout(const PlyHeader& header, const std::filesystem::path& path) {
    PlyLayout layout;
    std::optional<size_t> vertexElement;
    for (size_t e = 0; e < header.elements.size(); ++e) {
        const PlyElement& element = header.elements[e];
        if (element.name == "vertex") {
            if (vertexElement) fail(path, "more than one vertex element");
            vertexElement = e;
            constexpr std::array<std::string_view, 3> kAxes = {"x", "y", "z"};
            for (size_t axis = 0; axis < 3; ++axis) {
                const auto& props = element.properties;
                const auto it = std::find_if(props.begin(), props.end(),
                                             [&](const PlyProperty& p) { return p.name == kAxes[axis]; });
                if (it == props.end()) {
                    fail(path, "vertex element has no property " + std::string(kAxes[axis]));
                }
                if (it->listCountType) fail(path, "vertex property " + it->name + " is a list");
                layout.xyz[axis] = static_cast<size_t>(it - props.begin());
            }
        } else if (element.name == "face") {
            if (layout.faceElement) fail(path, "more than one face element");
            layout.faceElement = e;
            const auto& props = element.properties;
            const auto it = std::find_if(props.begin(), props.end(), [](const PlyProperty& p) {
                return p.name == "vertex_indices" || p.name == "vertex_index";
            });
            if (it == props.end()) fail(path, "face element has no vertex_indices list");
            if (!it->listCountType) fail(path, "face property " + it->name + " is not a list");
            if (!isIntegerType(it->type)) fail(path, "face property " + it->name + " must hold integers");
            layout.faceIndices = static_cast<size_t>(it - props.begin());
        }
    }
    if (!vertexElement) fail(path, "no vertex element");
    layout.vertexElement = *vertexElement;
    const uint64_t vertexCount = header.elements[*vertexElement].count;
    if (vertexCount == 0) fail(path, "no vertices");
    if (vertexCount > std::numeric_limits<uint32_t>::max()) {
        fail(path, "too many vertices for 32-bit indices");
    }
    return layout;
}

template <class Body>
Mesh readPlyBody(Body& body, const PlyHeader& header, const PlyLayout& layout,
                 const std::filesystem::path& path) {
    Mesh mesh;
    const uint64_t vertexCount = header.elements[layout.vertexElement].count;
    for (size_t e = 0; e < header.elements.size(); ++e) {
        const PlyElement& element = header.elements[e];
        const bool isVertex = e == layout.vertexElement;
        const bool isFace = layout.faceElement && e == *layout.faceElement;
        // checkCountsFitFile has bounded the counts by the file size.
        if (isVertex) mesh.positions.reserve(static_cast<size_t>(element.count));
        if (isFace) mesh.faceSizes.reserve(static_cast<size_t>(element.count));
        PlyWhere where{&element, 0, nullptr};
        for (uint64_t i = 0; i < element.count; ++i) {
            where.index = i;
            where.property = nullptr;
            body.beginElement(where);
            glm::vec3 position(0.0f);
            for (size_t p = 0; p < element.properties.size(); ++p) {
                const PlyProperty& property = element.properties[p];
                where.property = &property;
                if (!property.listCountType) {
                    const double value = body.readNumber(property.type, where);
                    if (isVertex) {
                        for (size_t axis = 0; axis < 3; ++axis) {
                            if (layout.xyz[axis] == p)
                                position[static_cast<int>(axis)] = static_cast<float>(value);
                        }
                    }
                    continue;
                }
                const double count = body.readNumber(*property.listCountType, where);
                if (count < 0) fail(path, where.text() + ": negative list length");
                const bool isIndexList = isFace && p == layout.faceIndices;
                if (isIndexList && (count < 3 || count > kMaxFaceSize)) {
                    fail(path, where.text() + ": face has " + std::to_string(static_cast<int64_t>(count)) +
                                   " vertices (3 to " + std::to_string(kMaxFaceSize) + " supported)");
                }
                for (uint64_t k = 0; k < static_cast<uint64_t>(count); ++k) {
                    const double value = body.readNumber(property.type, where);
                    if (!isIndexList) continue;
                    if (value < 0 || value >= static_cast<double>(vertexCount)) {
                        fail(path, where.text() + ": vertex index " +
                                       std::to_string(static_cast<int64_t>(value)) + " out of range (" +
                                       std::to_string(vertexCount) + " vertices)");
                    }
                    mesh.faceIndices.push_back(static_cast<uint32_t>(value));
                }
                if (isIndexList) mesh.faceSizes.push_back(static_cast<uint32_t>(count));
            }
            where.property = nullptr;
            body.endElement(where);
            if (isVertex) {
                if (!std::isfinite(position.x) || !std::isfinite(position.y) || !std::isfinite(position.z)) {
                    fail(path, where.text() + ": non-finite coordinate");
                }
                mesh.positions.push_back(position);
            }
        }
    }
    body.finish();
    return mesh;
}

// Line number where an ASCII body starts, for messages.
size_t countLines(std::string_view text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

Mesh readPly(const std::filesystem::path& path) {
    const std::string data = readWholeFile(path);
    const PlyHeader header = parsePlyHeader(data, path);
    const std::string_view body(data.data() + header.bodyOffset, data.size() - header.bodyOffset);
    checkCountsFitFile(header, body.size(), path);
    const PlyLayout layout = findLayout(header, path);
    if (header.encoding == PlyEncoding::Ascii) {
        PlyAsciiBody reader(body, countLines(std::string_view(data).substr(0, header.bodyOffset)) + 1, path);
        return readPlyBody(reader, header, layout, path);
    }
    PlyBinaryBody reader(body, header.encoding == PlyEncoding::BinaryBigEndian, path);
    return readPlyBody(reader, header, layout, path);
}

// ---------------------------------------------------------------------------
// PLY: output

void appendLittleEndian(std::string& out, uint32_t bits, size_t size) {
    for (size_t k = 0; k < size; ++k) out += static_cast<char>((bits >> (8 * k)) & 0xffu);
}

// Always float x y z and `list uchar uint vertex_indices`: faces over 255 vertices are
// refused (checkMeshForWriting) rather than written with a less common uint count.
void writePly(const Mesh& mesh, const std::filesystem::path& path, bool binary) {
    std::string out = "ply\n";
    out += binary ? "format binary_little_endian 1.0\n" : "format ascii 1.0\n";
    out += "comment sculptflow mesh\n";
    out += "element vertex " + std::to_string(mesh.positions.size()) + "\n";
    out += "property float x\nproperty float y\nproperty float z\n";
    out += "element face " + std::to_string(mesh.faceSizes.size()) + "\n";
    out += "property list uchar uint vertex_indices\n";
    out += "end_header\n";
    out.reserve(out.size() + mesh.positions.size() * (binary ? 12 : 40) +
                mesh.faceSizes.size() + mesh.faceIndices.size() * (binary ? 4 : 8));
    for (const glm::vec3& p : mesh.positions) {
        for (int axis = 0; axis < 3; ++axis) {
            if (binary) {
                appendLittleEndian(out, std::bit_cast<uint32_t>(p[axis]), 4);
            } else {
                if (axis > 0) out += ' ';
                appendFloat(out, p[axis]);
            }
        }
        if (!binary) out += '\n';
    }
    size_t offset = 0;
    for (const uint32_t size : mesh.faceSizes) {
        if (binary) {
            appendLittleEndian(out, size, 1);
        } else {
            appendUnsigned(out, size);
        }
        for (size_t k = 0; k < size; ++k) {
            const uint32_t index = mesh.faceIndices[offset + k];
            if (binary) {
                appendLittleEndian(out, index, 4);
            } else {
                out += ' ';
                appendUnsigned(out, index);
            }
        }
        if (!binary) out += '\n';
        offset += size;
    }
    writeFileAtomically(path, out);
}

} // namespace

Mesh readMesh(const std::filesystem::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".obj") return readObj(path);
    if (ext == ".ply") return readPly(path);
    fail(path, "unknown mesh extension '" + path.extension().string() + "' (expected .obj or .ply)");
}

void writeMesh(const Mesh& mesh, const std::filesystem::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".obj") return writeMesh(mesh, path, MeshFormat::Obj);
    if (ext == ".ply") return writeMesh(mesh, path, MeshFormat::PlyBinary);
    fail(path, "unknown mesh extension '" + path.extension().string() + "' (expected .obj or .ply)");
}

void writeMesh(const Mesh& mesh, const std::filesystem::path& path, MeshFormat format) {
    checkMeshForWriting(mesh, path);
    switch (format) {
    case MeshFormat::Obj: return writeObj(mesh, path);
    case MeshFormat::PlyAscii: return writePly(mesh, path, false);
    case MeshFormat::PlyBinary: return writePly(mesh, path, true);
    }
    fail(path, "unknown mesh format");
}

} // namespace sculptflow
