// The kind table looked up by ToolKind (kinds.glsl), and the names of the kinds, Kelvinlet profiles and falloffs
// (spec §3.6, §3.7, §5).
#include <sculptflow/stroke.hpp>

#include <array>
#include <string>
#include <utility>

#include <sculptflow/error.hpp>
#include "kind_table.hpp"

namespace sculptflow {
namespace {

template <typename T, size_t N>
std::string_view nameOf(const std::array<std::pair<T, std::string_view>, N>& names, T value) {
    for (const auto& [v, name] : names)
        if (v == value) return name;
    return "unknown";
}

template <typename T, size_t N>
std::optional<T> valueOf(const std::array<std::pair<T, std::string_view>, N>& names, std::string_view name) {
    for (const auto& [v, n] : names)
        if (n == name) return v;
    return std::nullopt;
}

constexpr std::array<std::pair<KelvinletProfile, std::string_view>, 4> kProfiles{{
    {KelvinletProfile::BiScale, "bi-scale"},
    {KelvinletProfile::TriScale, "tri-scale"},
    {KelvinletProfile::Laplacian, "laplacian"},
    {KelvinletProfile::BiLaplacian, "bi-laplacian"}}};
constexpr std::array<std::pair<Falloff, std::string_view>, 4> kFalloffs{{
    {Falloff::Smooth, "smooth"}, {Falloff::Smoother, "smoother"}, {Falloff::Linear, "linear"}, {Falloff::Sharp, "sharp"}}};

} // namespace

const kernel::KindTraits& kindTraits(ToolKind kind) {
    const int row = int(kind);
    if (row < 0 || row >= kernel::kToolKindCount) throw Error("unknown tool kind " + std::to_string(row));
    return kernel::kKindTable[row];
}

std::vector<ToolKind> allToolKinds() {
    std::vector<ToolKind> kinds;
    for (int row = 0; row < kernel::kToolKindCount; ++row) kinds.push_back(ToolKind(row));
    return kinds;
}

std::string_view toolKindName(ToolKind kind) {
    const int row = int(kind);
    return row >= 0 && row < kernel::kToolKindCount ? kernel::kKindTable[row].name : "unknown";
}

std::optional<ToolKind> parseToolKind(std::string_view name) {
    for (ToolKind kind : allToolKinds())
        if (toolKindName(kind) == name) return kind;
    return std::nullopt;
}

std::string_view kelvinletProfileName(KelvinletProfile profile) { return nameOf(kProfiles, profile); }
std::optional<KelvinletProfile> parseKelvinletProfile(std::string_view name) { return valueOf(kProfiles, name); }
std::string_view falloffName(Falloff falloff) { return nameOf(kFalloffs, falloff); }
std::optional<Falloff> parseFalloff(std::string_view name) { return valueOf(kFalloffs, name); }

void setToolKind(ToolStroke& tool, ToolKind kind) {
    tool.kind = kind;
    if (kindTraits(kind).profiled) tool.falloff = Falloff::Smooth;
    else tool.profile = KelvinletProfile::BiScale;
}

} // namespace sculptflow
