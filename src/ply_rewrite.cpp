// PLY output that keeps what was read: the source's elements, properties and
// comments with their types and values, with the mesh's positions (and what
// follows from them: normals, mask, volume_change) written in. See writeMesh (mesh.hpp).
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sculptflow/error.hpp>
#include "mesh_formats.hpp"
#include "ply_header.hpp"
#include "text_scan.hpp"

namespace sculptflow::detail {
namespace {

// Where a vertex property's output values come from.
enum class Role { Keep, Position, Normal, Mask, VolumeChange, Drop };

struct Column {
    Role role = Role::Keep;
    int axis = 0;                     // for Position and Normal
    PlyType type = PlyType::Float32;  // as read
    PlyType outType = PlyType::Float32; // as written: the mesh's floats do not fit an integer type
};

PlyType floatTypeFor(PlyType type) { return isIntegerType(type) ? PlyType::Float32 : type; }

// The source's vertex columns: what the mesh supplies, and what is kept as read.
std::vector<Column> vertexColumns(const PlyElement& vertex, const Mesh& mesh) {
    std::vector<Column> columns;
    const auto scalarFloat = [&](std::string_view name) {
        return std::any_of(vertex.properties.begin(), vertex.properties.end(), [&](const PlyProperty& p) {
            return p.name == name && !p.listCountType && !isIntegerType(p.type);
        });
    };
    // Integer normals (a char -127..127 encoding, say) are kept as read, not recomputed.
    const bool normals = scalarFloat("nx") && scalarFloat("ny") && scalarFloat("nz");
    for (const PlyProperty& p : vertex.properties) {
        Column c{Role::Keep, 0, p.type, p.type};
        if (!p.listCountType) {
            const std::string& n = p.name;
            if (n == "x" || n == "y" || n == "z") c = {Role::Position, n[0] - 'x', p.type, floatTypeFor(p.type)};
            else if (normals && (n == "nx" || n == "ny" || n == "nz")) c = {Role::Normal, n[1] - 'x', p.type, p.type};
            else if (n == "mask") c.role = mesh.mask.empty() ? Role::Drop : Role::Mask;
            else if (n == "volume_change") c.role = mesh.volumeChange.empty() ? Role::Drop : Role::VolumeChange;
            if (c.role == Role::Mask || c.role == Role::VolumeChange) c.outType = floatTypeFor(p.type);
        }
        columns.push_back(c);
    }
    return columns;
}

// The source body's values one at a time: text tokens (ASCII) or bytes (binary).
// The source has been parsed in full already, so its shape is known to be right.
class SourceValues {
public:
    SourceValues(std::string_view body, PlyEncoding encoding) : body_(body), encoding_(encoding) {}

    bool ascii() const { return encoding_ == PlyEncoding::Ascii; }
    bool bigEndian() const { return encoding_ == PlyEncoding::BinaryBigEndian; }

    std::string_view next(PlyType type) {
        if (ascii()) {
            const size_t start = std::min(body_.find_first_not_of(" \t\r\n", pos_), body_.size());
            pos_ = std::min(body_.find_first_of(" \t\r\n", start), body_.size());
            return body_.substr(start, pos_ - start);
        }
        const std::string_view raw = body_.substr(pos_, plyTypeSize(type));
        pos_ += raw.size();
        return raw;
    }

    double value(std::string_view raw, PlyType type) const {
        if (ascii()) {
            if (isIntegerType(type)) return double(parseInteger(raw).value_or(0));
            return parseDouble(raw).value_or(0.0);
        }
        uint64_t bits = 0;
        for (size_t k = 0; k < raw.size(); ++k) {
            const size_t shift = bigEndian() ? (raw.size() - 1 - k) * 8 : k * 8;
            bits |= uint64_t(static_cast<unsigned char>(raw[k])) << shift;
        }
        return plyValue(type, bits);
    }

private:
    std::string_view body_;
    PlyEncoding encoding_;
    size_t pos_ = 0;
};

// The output body: binary little-endian, or ASCII rows of space-separated values.
class Output {
public:
    Output(std::string& out, bool binary, const SourceValues& source) : out_(out), binary_(binary), source_(source) {}

    // A value as read; its bytes or text unchanged where the encodings allow.
    void copy(std::string_view raw, PlyType type, PlyType outType) {
        if (type != outType) return number(source_.value(raw, type), outType);
        if (source_.ascii() && !binary_) {
            separate();
            out_ += raw;
        } else if (!source_.ascii() && binary_) {
            if (source_.bigEndian()) out_.append(raw.rbegin(), raw.rend());
            else out_ += raw;
        } else {
            number(source_.value(raw, type), type);
        }
    }

    // A value from the mesh (a float) in a float or double column; as text, the
    // shortest that reads back as the same float.
    void meshValue(float value, PlyType type) {
        if (binary_ && type == PlyType::Float64) return append(std::bit_cast<uint64_t>(double(value)), 8);
        if (binary_) return append(std::bit_cast<uint32_t>(value), 4);
        separate();
        appendFloat(out_, value);
    }

    void endRow() {
        if (!binary_) out_ += '\n';
        rowStarted_ = false;
    }

private:
    void number(double value, PlyType type) {
        if (binary_) {
            if (type == PlyType::Float32) return append(std::bit_cast<uint32_t>(float(value)), 4);
            if (type == PlyType::Float64) return append(std::bit_cast<uint64_t>(value), 8);
            return append(uint64_t(int64_t(value)), plyTypeSize(type));
        }
        separate();
        if (type == PlyType::Float32) return appendFloat(out_, float(value));
        char text[32];
        const auto end = type == PlyType::Float64 ? std::to_chars(text, text + sizeof text, value).ptr
                                                  : std::to_chars(text, text + sizeof text, int64_t(value)).ptr;
        out_.append(text, end);
    }

    void append(uint64_t bits, size_t size) {
        for (size_t k = 0; k < size; ++k) out_ += char((bits >> (8 * k)) & 0xffu);
    }

    void separate() {
        if (rowStarted_) out_ += ' ';
        rowStarted_ = true;
    }

    std::string& out_;
    bool binary_;
    const SourceValues& source_;
    bool rowStarted_ = false;
};

// The source header with the new format line, and the vertex properties the mesh
// drops, retypes or adds.
std::string rewriteHeader(std::string_view text, const PlyHeader& header, size_t vertexElement,
                          const std::vector<Column>& columns, const std::vector<std::string>& added, bool binary) {
    std::string out;
    size_t elementsSeen = 0, property = 0;
    const auto inVertex = [&] { return elementsSeen > 0 && elementsSeen - 1 == vertexElement; };
    const auto addProperties = [&] {
        if (inVertex())
            for (const std::string& name : added) out += "property float " + name + "\n";
    };
    // Lines as parsePlyHeader reads them: ended by \n, a \r before it dropped.
    for (size_t pos = 0, end = 0; pos < text.size(); pos = end + 1) {
        end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const auto tokens = splitTokens(line);
        const std::string_view keyword = tokens.empty() ? std::string_view() : tokens[0];
        if (keyword == "format") {
            out += binary ? "format binary_little_endian 1.0\n" : "format ascii 1.0\n";
            continue;
        }
        if (keyword == "element" || keyword == "end_header") {
            addProperties();
            if (keyword == "element") {
                ++elementsSeen;
                property = 0;
            }
        } else if (keyword == "property" && inVertex()) {
            const Column& c = columns[property];
            const std::string& name = header.elements[vertexElement].properties[property++].name;
            if (c.role == Role::Drop) continue;
            if (c.outType != c.type) {
                out += std::string("property ") + plyTypeName(c.outType) + " " + name + "\n";
                continue;
            }
        }
        out += line;
        out += '\n';
    }
    return out;
}

bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

} // namespace

std::optional<std::string> rewritePlySource(const Mesh& mesh, bool binary) {
    if (plySource(mesh).empty()) return std::nullopt;
    // Parsing it again checks it in full (it may have been set by hand) and gives
    // the positions and faces as read.
    Mesh original;
    PlyHeader header;
    try {
        original = parsePly(plySource(mesh), "the mesh's PLY source");
        header = parsePlyHeader(plySource(mesh), "the mesh's PLY source");
    } catch (const Error&) {
        return std::nullopt;
    }
    if (original.positions.size() != mesh.positions.size() || original.faceSizes != mesh.faceSizes ||
        original.faceIndices != mesh.faceIndices)
        return std::nullopt;
    const auto vertexIt = std::find_if(header.elements.begin(), header.elements.end(),
                                       [](const PlyElement& e) { return e.name == "vertex"; });
    const size_t vertexElement = size_t(vertexIt - header.elements.begin());
    const std::vector<Column> columns = vertexColumns(*vertexIt, mesh);
    const auto hasRole = [&](Role role) {
        return std::any_of(columns.begin(), columns.end(), [&](const Column& c) { return c.role == role; });
    };
    std::vector<std::string> added;
    if (!mesh.mask.empty() && !hasRole(Role::Mask)) added.push_back("mask");
    if (!mesh.volumeChange.empty() && !hasRole(Role::VolumeChange)) added.push_back("volume_change");

    // Which vertices moved (any bit: the position is rewritten), and the new normals
    // of vertices on a face that really moved (not a last-bit difference): the
    // area-weighted (Newell) normal of the faces around them.
    const size_t n = mesh.positions.size();
    std::vector<bool> moved(n), stale(n);
    std::vector<bool> shifted(n);
    for (size_t i = 0; i < n; ++i) {
        const glm::vec3 &was = original.positions[i], &now = mesh.positions[i];
        moved[i] = std::memcmp(&was, &now, sizeof was) != 0;
        shifted[i] = !(glm::length(was - now) <= 1e-6f * std::max(1.0f, glm::length(was)));
    }
    std::vector<glm::vec3> normals;
    if (hasRole(Role::Normal)) {
        normals.assign(n, glm::vec3(0.0f));
        size_t offset = 0;
        for (const uint32_t size : mesh.faceSizes) {
            const uint32_t* face = mesh.faceIndices.data() + offset;
            offset += size;
            glm::vec3 normal(0.0f);
            bool faceMoved = false;
            for (size_t k = 0; k < size; ++k) {
                normal += glm::cross(mesh.positions[face[k]], mesh.positions[face[(k + 1) % size]]);
                faceMoved = faceMoved || shifted[face[k]];
            }
            for (size_t k = 0; k < size; ++k) {
                normals[face[k]] += normal;
                if (faceMoved) stale[face[k]] = true;
            }
        }
    }

    const std::string_view source(plySource(mesh));
    std::string out = rewriteHeader(source.substr(0, header.bodyOffset), header, vertexElement, columns, added, binary);
    out.reserve(out.size() + source.size() - header.bodyOffset + n * 8 * added.size());
    SourceValues values(source.substr(header.bodyOffset), header.encoding);
    Output output(out, binary, values);
    for (size_t e = 0; e < header.elements.size(); ++e) {
        const PlyElement& element = header.elements[e];
        const bool isVertex = e == vertexElement;
        for (uint64_t row = 0; row < element.count; ++row) {
            const size_t i = size_t(row);
            for (size_t p = 0; p < element.properties.size(); ++p) {
                const PlyProperty& property = element.properties[p];
                if (property.listCountType) {
                    const std::string_view count = values.next(*property.listCountType);
                    output.copy(count, *property.listCountType, *property.listCountType);
                    const auto items = uint64_t(values.value(count, *property.listCountType));
                    for (uint64_t k = 0; k < items; ++k)
                        output.copy(values.next(property.type), property.type, property.type);
                    continue;
                }
                const std::string_view raw = values.next(property.type);
                const Column c = isVertex ? columns[p] : Column{Role::Keep, 0, property.type, property.type};
                // A value the mesh holds unchanged is copied as read, bytes and all.
                const auto fromMesh = [&](float value) {
                    if (sameBits(float(values.value(raw, c.type)), value)) output.copy(raw, c.type, c.outType);
                    else output.meshValue(value, c.outType);
                };
                switch (c.role) {
                case Role::Keep: output.copy(raw, c.type, c.outType); break;
                case Role::Drop: break;
                case Role::Position:
                    if (moved[i]) output.meshValue(mesh.positions[i][c.axis], c.outType);
                    else output.copy(raw, c.type, c.outType);
                    break;
                case Role::Normal:
                    if (stale[i] && glm::length(normals[i]) > 0.0f)
                        output.meshValue(glm::normalize(normals[i])[c.axis], c.outType);
                    else output.copy(raw, c.type, c.outType);
                    break;
                case Role::Mask: fromMesh(mesh.mask[i]); break;
                case Role::VolumeChange: fromMesh(mesh.volumeChange[i]); break;
                }
            }
            if (isVertex) {
                for (const std::string& name : added)
                    output.meshValue(name == "mask" ? mesh.mask[i] : mesh.volumeChange[i], PlyType::Float32);
            }
            output.endRow();
        }
    }
    return out;
}

} // namespace sculptflow::detail
