// The PLY header: element and property types, and its parser.
// Internal to the library (namespace sculptflow::detail): not public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sculptflow::detail {

enum class PlyEncoding { Ascii, BinaryLittleEndian, BinaryBigEndian };

enum class PlyType { Int8, Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64 };

size_t plyTypeSize(PlyType type);
// The type's name as a header writes it ("float", "uchar", ...).
const char* plyTypeName(PlyType type);
// The value a binary property of `type` holds, from its bytes in the low bits of `bits`.
double plyValue(PlyType type, uint64_t bits);
bool isIntegerType(PlyType type);

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

// Parses and checks the header; throws sculptflow::Error naming the line.
PlyHeader parsePlyHeader(const std::string& data, const std::filesystem::path& path);

// Refuses counts the file cannot hold before anything is allocated for them: each
// element needs at least a minimum number of bytes (binary: its scalars and list
// counts; ASCII: one character and one separator per value).
void checkCountsFitFile(const PlyHeader& header, size_t bodyBytes, const std::filesystem::path& path);

} // namespace sculptflow::detail
