// The per-vertex mask (spec §3.5, §5): validation and the text form, one value a line.
#include <sculptflow/mesh.hpp>

#include <cmath>

#include <sculptflow/error.hpp>
#include "file_io.hpp"
#include "text_scan.hpp"

namespace sculptflow {

void validateMask(std::span<const float> mask, size_t vertexCount, const std::string& source) {
    if (mask.size() != vertexCount)
        throw Error(source + ": " + std::to_string(mask.size()) + " mask values for " + std::to_string(vertexCount) +
                    " vertices");
    for (size_t i = 0; i < mask.size(); ++i)
        if (!(mask[i] >= 0.0f && mask[i] <= 1.0f)) // false for NaN
            throw Error(source + ": mask value of vertex " + std::to_string(i) + " is " + std::to_string(mask[i]) +
                        "; must be a finite number in [0, 1]");
}

std::vector<float> parseMask(const std::string& text, size_t vertexCount, const std::filesystem::path& name) {
    std::vector<float> mask;
    mask.reserve(vertexCount);
    detail::forEachLine(text, [&](size_t line, std::string_view content) {
        const std::vector<std::string_view> tokens = detail::splitTokens(content);
        if (tokens.empty()) return; // blank lines, a trailing newline
        const std::optional<double> value = tokens.size() == 1 ? detail::parseDouble(tokens[0]) : std::nullopt;
        if (!value)
            detail::fail(name, "line " + std::to_string(line) + ": expected one number, found " +
                                   detail::shown(content));
        if (!(*value >= 0.0 && *value <= 1.0))
            detail::fail(name, "line " + std::to_string(line) + ": mask value " + detail::shown(tokens[0]) +
                                   " is not a finite number in [0, 1]");
        mask.push_back(float(*value));
    });
    if (mask.size() != vertexCount)
        detail::fail(name, std::to_string(mask.size()) + " mask values for a mesh of " + std::to_string(vertexCount) +
                               " vertices");
    return mask;
}

std::vector<float> readMask(const std::filesystem::path& path, size_t vertexCount) {
    return parseMask(detail::readWholeFile(path), vertexCount, path);
}

} // namespace sculptflow
