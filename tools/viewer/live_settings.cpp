// The viewer's key toggles.
#include "live_settings.hpp"

namespace sculptflow::viewer {

std::optional<Toggle> toggleForKey(int key) {
    switch (key) {
    case 'X': return Toggle::MirrorX;
    case 'Y': return Toggle::MirrorY;
    case 'Z': return Toggle::MirrorZ;
    case 'M': return Toggle::Mask;
    case 'C': return Toggle::Mode;
    case 'R': return Toggle::Restart;
    case 'B': return Toggle::BeforeAfter;
    case 'H': return Toggle::HeatMap;
    case 'E': return Toggle::EvaluationsMap;
    default: return std::nullopt;
    }
}

ToggleResult applyToggle(LiveSettings& settings, Toggle toggle, size_t tools) {
    const auto mirror = [&](uint32_t axis) -> ToggleResult {
        const uint32_t axes = settings.symmetry.axes ^ axis;
        const size_t copies = mirroredToolCount(tools, axes);
        if (copies > kMaxTools)
            return {false, "mirror " + symmetryAxesName(axes) + " refused: " + std::to_string(copies) +
                               " tools with the copies, more than " + std::to_string(kMaxTools)};
        settings.symmetry.axes = axes;
        return {true, axes ? "mirror " + symmetryAxesName(axes) : std::string("mirror off")};
    };
    switch (toggle) {
    case Toggle::MirrorX: return mirror(kSymmetryX);
    case Toggle::MirrorY: return mirror(kSymmetryY);
    case Toggle::MirrorZ: return mirror(kSymmetryZ);
    case Toggle::Mask:
        settings.mask = !settings.mask;
        return {true, settings.mask ? "mask on" : "mask off"};
    case Toggle::Mode:
        settings.mode = settings.mode == MoveMode::Move ? MoveMode::Continuous : MoveMode::Move;
        return {true, std::string(moveModeName(settings.mode)) + " mode"};
    case Toggle::Restart: return {true, "restart"};
    case Toggle::BeforeAfter:
        settings.before = !settings.before;
        return {true, settings.before ? "before: the undeformed mesh" : "after: the deformed mesh", false};
    case Toggle::HeatMap:
        settings.heatMap = !settings.heatMap;
        return {true, settings.heatMap ? "heat map: displacement" : "heat map off", false};
    case Toggle::EvaluationsMap:
        settings.evaluationsMap = !settings.evaluationsMap;
        return {true, settings.evaluationsMap ? "heat map: evaluations per vertex" : "evaluations map off", false};
    }
    return {};
}

std::string describe(const LiveSettings& settings) {
    std::string text;
    const auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
    if (settings.symmetry.axes) add("mirror " + symmetryAxesName(settings.symmetry.axes));
    if (settings.mask) add("mask on");
    if (settings.mode == MoveMode::Continuous) add("continuous");
    if (settings.before) add("before");
    if (settings.heatMap) add("heat map");
    if (settings.evaluationsMap) add("evaluations map");
    return text;
}

} // namespace sculptflow::viewer
