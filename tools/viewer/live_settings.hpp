// What a user changes while the viewer plays (keys X, Y, Z, M, C, R): mirror
// planes, the mask, and the stroke's mode. Each change restarts the drag.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "motion.hpp"
#include "stroke.hpp"

namespace sculptflow::viewer {

struct LiveSettings {
    Symmetry symmetry;              // the mirror planes the next grab uses
    bool mask = false;              // the mask on; off: every vertex free
    MoveMode mode = MoveMode::Move; // how the stroke's poses are applied
};

enum class Toggle { MirrorX, MirrorY, MirrorZ, Mask, Mode, Restart };

// The toggle a key asks for: X, Y, Z mirror across that axis's plane, M the
// mask, C continuous or move-tool mode, R a restart. Keys are GLFW key codes,
// which for letters are their upper-case ASCII; nullopt for any other key.
std::optional<Toggle> toggleForKey(int key);

// Applies `toggle` to `settings` for a stroke of `tools` tools. Refused (nothing
// changes) when the mirrored copies would pass kMaxTools.
struct ToggleResult {
    bool applied = false;
    std::string message; // for the user: what is on now, or why the toggle was refused
};
ToggleResult applyToggle(LiveSettings& settings, Toggle toggle, size_t tools);

// "mirror xz, mask on, continuous" (the parts that are on; "" when none is).
std::string describe(const LiveSettings& settings);

} // namespace sculptflow::viewer
