// PLY input (ASCII and binary bodies, read against the parsed header) and output.
#include "mesh_formats.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "file_io.hpp"
#include "ply_header.hpp"
#include "text_scan.hpp"

namespace sculptflow::detail {
namespace {

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
        return plyValue(type, bits);
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
    std::optional<size_t> mask; // the vertex property "mask" (spec §5), if any
    std::optional<size_t> volumeChange; // the vertex property "volume_change" (a debug output), if any
    std::optional<size_t> faceElement;
    size_t faceIndices = 0;
};

// An optional scalar vertex property's index; a list of that name is an error.
std::optional<size_t> findScalarProperty(const PlyElement& element, std::string_view name,
                                         const std::filesystem::path& path) {
    const auto& props = element.properties;
    const auto it = std::find_if(props.begin(), props.end(), [&](const PlyProperty& p) { return p.name == name; });
    if (it == props.end()) return std::nullopt;
    if (it->listCountType) fail(path, "vertex property " + it->name + " is a list");
    return static_cast<size_t>(it - props.begin());
}

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
            layout.mask = findScalarProperty(element, "mask", path);
            layout.volumeChange = findScalarProperty(element, "volume_change", path);
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

// A mask value as the spec allows it (§5): finite and in [0, 1], else an error
// naming the vertex, so that a bad mask never reaches the solver.
float checkedMaskValue(double value, const PlyWhere& where, const std::filesystem::path& path) {
    if (!(value >= 0.0 && value <= 1.0)) { // false for NaN
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", value);
        fail(path, where.text() + ": mask value " + text + " is not a finite number in [0, 1]");
    }
    return static_cast<float>(value);
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
        if (isVertex && layout.mask) mesh.mask.reserve(static_cast<size_t>(element.count));
        if (isVertex && layout.volumeChange) mesh.volumeChange.reserve(static_cast<size_t>(element.count));
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
                        if (layout.mask == p) mesh.mask.push_back(checkedMaskValue(value, where, path));
                        if (layout.volumeChange == p) mesh.volumeChange.push_back(static_cast<float>(value));
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

} // namespace

Mesh readPly(const std::filesystem::path& path) { return parsePly(readWholeFile(path), path); }

Mesh parsePly(const std::string& data, const std::filesystem::path& path) {
    const PlyHeader header = parsePlyHeader(data, path);
    const std::string_view body(data.data() + header.bodyOffset, data.size() - header.bodyOffset);
    checkCountsFitFile(header, body.size(), path);
    const PlyLayout layout = findLayout(header, path);
    Mesh mesh;
    if (header.encoding == PlyEncoding::Ascii) {
        PlyAsciiBody reader(body, countLines(std::string_view(data).substr(0, header.bodyOffset)) + 1, path);
        mesh = readPlyBody(reader, header, layout, path);
    } else {
        PlyBinaryBody reader(body, header.encoding == PlyEncoding::BinaryBigEndian, path);
        mesh = readPlyBody(reader, header, layout, path);
    }
    // For writePly: every property and element the mesh leaves out.
    mesh.source = std::make_shared<const MeshSource>(MeshSource{.ply = data});
    return mesh;
}

// ---------------------------------------------------------------------------
// PLY: output

namespace {

void appendLittleEndian(std::string& out, uint32_t bits, size_t size) {
    for (size_t k = 0; k < size; ++k) out += static_cast<char>((bits >> (8 * k)) & 0xffu);
}

} // namespace

// The source as read, rewritten (rewritePlySource), for a mesh read from PLY; else
// float x y z (then float mask and float volume_change when the mesh has
// them) and `list uchar uint vertex_indices`: faces over 255 vertices are refused
// (checkMeshForWriting) rather than written with a less common uint count.
void writePly(const Mesh& mesh, const std::filesystem::path& path, bool binary) {
    const bool hasMask = !mesh.mask.empty();
    const bool hasVolumeChange = !mesh.volumeChange.empty();
    if (hasMask && mesh.mask.size() != mesh.positions.size()) {
        fail(path, "cannot write mesh: " + std::to_string(mesh.mask.size()) + " mask values for " +
                       std::to_string(mesh.positions.size()) + " vertices");
    }
    if (hasVolumeChange && mesh.volumeChange.size() != mesh.positions.size()) {
        fail(path, "cannot write mesh: " + std::to_string(mesh.volumeChange.size()) + " volume_change values for " +
                       std::to_string(mesh.positions.size()) + " vertices");
    }
    // What the reader refuses is not written (checkMeshForWriting's rule).
    for (size_t i = 0; i < mesh.mask.size(); ++i) {
        if (!(mesh.mask[i] >= 0.0f && mesh.mask[i] <= 1.0f)) {
            fail(path, "cannot write vertex " + std::to_string(i) + ": mask value " + std::to_string(mesh.mask[i]) +
                           " is not a finite number in [0, 1]");
        }
    }
    if (std::optional<std::string> kept = rewritePlySource(mesh, binary)) return writeFileAtomically(path, *kept);
    std::string out = "ply\n";
    out += binary ? "format binary_little_endian 1.0\n" : "format ascii 1.0\n";
    out += "comment sculptflow mesh\n";
    out += "element vertex " + std::to_string(mesh.positions.size()) + "\n";
    out += "property float x\nproperty float y\nproperty float z\n";
    if (hasMask) out += "property float mask\n";
    if (hasVolumeChange) out += "property float volume_change\n";
    out += "element face " + std::to_string(mesh.faceSizes.size()) + "\n";
    out += "property list uchar uint vertex_indices\n";
    out += "end_header\n";
    out.reserve(out.size() + mesh.positions.size() * (binary ? 20 : 65) +
                mesh.faceSizes.size() + mesh.faceIndices.size() * (binary ? 4 : 8));
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3& p = mesh.positions[i];
        // x y z, then the optional columns in the header's order.
        std::array<float, 5> row{p.x, p.y, p.z};
        size_t columns = 3;
        if (hasMask) row[columns++] = mesh.mask[i];
        if (hasVolumeChange) row[columns++] = mesh.volumeChange[i];
        for (size_t column = 0; column < columns; ++column) {
            const float value = row[column];
            if (binary) {
                appendLittleEndian(out, std::bit_cast<uint32_t>(value), 4);
            } else {
                if (column > 0) out += ' ';
                appendFloat(out, value);
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

} // namespace sculptflow::detail
