// What a user changes while the viewer plays (keys X, Y, Z, M, C, R, B, H, E): mirror
// planes, the mask, and the stroke's mode, each change restarting the drag; and
// what is shown (before or after, clay or a heat map), which plays on.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <sculptflow/motion.hpp>
#include <sculptflow/stroke.hpp>

namespace sculptflow::viewer {

struct LiveSettings {
    Symmetry symmetry;              // the mirror planes the next grab uses
    bool mask = false;              // the mask on; off: every vertex free
    MoveMode mode = MoveMode::Move; // how the stroke's poses are applied
    bool before = false;            // show the undeformed mesh instead of the deformed one
    bool heatMap = false;           // colour by displacement from the undeformed mesh
    bool evaluationsMap = false;    // colour by the solver's evaluations per vertex (over heatMap)
};

enum class Toggle { MirrorX, MirrorY, MirrorZ, Mask, Mode, Restart, BeforeAfter, HeatMap, EvaluationsMap };

// The toggle a key asks for: X, Y, Z mirror across that axis's plane, M the
// mask, C continuous or move-tool mode, R a restart, B before or after (the
// undeformed or the deformed mesh), H the heat map, E the evaluations map. Keys are GLFW key codes,
// which for letters are their upper-case ASCII; nullopt for any other key.
std::optional<Toggle> toggleForKey(int key);

// Applies `toggle` to `settings` for a stroke of `tools` tools. Refused (nothing
// changes) when the mirrored copies would pass kMaxTools.
struct ToggleResult {
    bool applied = false;
    std::string message; // for the user: what is on now, or why the toggle was refused
    bool restarts = true; // the drag starts again (false: only what is shown changed)
};
ToggleResult applyToggle(LiveSettings& settings, Toggle toggle, size_t tools);

// "mirror xz, mask on, continuous, before, heat map" (the parts that are on; "" when none is).
std::string describe(const LiveSettings& settings);

} // namespace sculptflow::viewer
