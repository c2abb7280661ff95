// Token and number helpers for the OBJ and PLY text parsers and writers.
#include "text_scan.hpp"

#include <algorithm>
#include <cctype>

#include <array>
#include <charconv>
#include <limits>
#include <system_error>

namespace sculptflow::detail {
namespace {

// Significant digits that round-trip any float through decimal text.
constexpr int kFloatDigits = std::numeric_limits<float>::max_digits10;

} // namespace

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

namespace {

size_t editDistance(std::string_view a, std::string_view b) {
    auto lower = [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); };
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t substitute = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
        }
    }
    return row[b.size()];
}

template <typename Names>
std::string nearestIn(std::string_view word, const Names& names) {
    const size_t limit = std::max<size_t>(1, word.size() / 3);
    std::string best;
    size_t bestDistance = limit + 1;
    for (std::string_view name : names) {
        const size_t d = editDistance(word, name);
        if (d < bestDistance) {
            bestDistance = d;
            best = std::string(name);
        }
    }
    return best;
}

} // namespace

std::string nearestName(std::string_view word, std::initializer_list<std::string_view> names) {
    return nearestIn(word, names);
}

std::string nearestName(std::string_view word, const std::vector<std::string>& names) {
    return nearestIn(word, names);
}

} // namespace sculptflow::detail
