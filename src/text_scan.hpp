// Token, number and line helpers for the OBJ and PLY text parsers and writers.
// Internal to the library (namespace sculptflow::detail): not public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sculptflow::detail {

// Appends the shortest decimal text that reads back as the same float.
void appendFloat(std::string& out, float value);
void appendUnsigned(std::string& out, uint64_t value);

// Splits on spaces and tabs.
std::vector<std::string_view> splitTokens(std::string_view line);

// Strict number parsing: the whole token must be the number (a leading '+' is allowed).
// parseDouble gives infinity for a value beyond double range.
std::optional<double> parseDouble(std::string_view token);
std::optional<int64_t> parseInteger(std::string_view token);

// The name in `names` nearest `word` for a "did you mean": case-insensitive edit
// distance of at most a third of the word's length (at least 1); "" when none is near.
std::string nearestName(std::string_view word, std::initializer_list<std::string_view> names);
std::string nearestName(std::string_view word, const std::vector<std::string>& names);

// The token quoted for a message, cut short when long.
std::string shown(std::string_view token);

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

} // namespace sculptflow::detail
