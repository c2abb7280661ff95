// The names of the tool kinds, Kelvinlet profiles and falloffs (spec §3.6, §3.7, §5).
#include "stroke.hpp"

#include <array>
#include <utility>

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

constexpr std::array<std::pair<ToolKind, std::string_view>, 3> kKinds{{
    {ToolKind::Kelvinlet, "kelvinlet"}, {ToolKind::Affine, "affine"}, {ToolKind::AffineFlow, "affine-flow"}}};
constexpr std::array<std::pair<KelvinletProfile, std::string_view>, 4> kProfiles{{
    {KelvinletProfile::BiScale, "bi-scale"},
    {KelvinletProfile::TriScale, "tri-scale"},
    {KelvinletProfile::Laplacian, "laplacian"},
    {KelvinletProfile::BiLaplacian, "bi-laplacian"}}};
constexpr std::array<std::pair<Falloff, std::string_view>, 4> kFalloffs{{
    {Falloff::Smooth, "smooth"}, {Falloff::Smoother, "smoother"}, {Falloff::Linear, "linear"}, {Falloff::Sharp, "sharp"}}};

} // namespace

std::string_view toolKindName(ToolKind kind) { return nameOf(kKinds, kind); }
std::optional<ToolKind> parseToolKind(std::string_view name) { return valueOf(kKinds, name); }
std::string_view kelvinletProfileName(KelvinletProfile profile) { return nameOf(kProfiles, profile); }
std::optional<KelvinletProfile> parseKelvinletProfile(std::string_view name) { return valueOf(kProfiles, name); }
std::string_view falloffName(Falloff falloff) { return nameOf(kFalloffs, falloff); }
std::optional<Falloff> parseFalloff(std::string_view name) { return valueOf(kFalloffs, name); }

void setToolKind(ToolStroke& tool, ToolKind kind) {
    tool.kind = kind;
    if (kind == ToolKind::Kelvinlet) tool.falloff = Falloff::Smooth;
    else tool.profile = KelvinletProfile::BiScale;
}

} // namespace sculptflow
