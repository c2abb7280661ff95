// PLY header parsing: format, elements and typed (list) properties.
#include "ply_header.hpp"

#include <bit>

#include <string_view>

#include "file_io.hpp"
#include "text_scan.hpp"

namespace sculptflow::detail {
namespace {

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

} // namespace

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

const char* plyTypeName(PlyType type) {
    switch (type) {
    case PlyType::Int8: return "char";
    case PlyType::Uint8: return "uchar";
    case PlyType::Int16: return "short";
    case PlyType::Uint16: return "ushort";
    case PlyType::Int32: return "int";
    case PlyType::Uint32: return "uint";
    case PlyType::Float32: return "float";
    case PlyType::Float64: return "double";
    }
    return "float";
}

bool isIntegerType(PlyType type) { return type != PlyType::Float32 && type != PlyType::Float64; }

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

double plyValue(PlyType type, uint64_t bits) {
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

} // namespace sculptflow::detail
