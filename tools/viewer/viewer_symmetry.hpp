// Mirror symmetry in the viewer (spec §3.4): where the mirror planes go by
// default, and the tools' mirrored copies as poses, for their gizmos.
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/stroke.hpp>
#include "move_inputs.hpp"

namespace sculptflow::viewer {

// The symmetry the viewer starts with: the axes of --symmetry or the stroke's, about
// --symmetry-origin, else a JSON stroke's own origin, else the mesh's centre (its
// box's, world units). The built-in mesh is centred on the tool, so the copies
// grab it too; a recorded stroke carries no origin, and its world origin is
// usually far from the sculpt in view.
Symmetry viewerSymmetry(const cli::MoveInputs& inputs, const cli::MoveInputArgs& args);

// The centre of the finite points' box, in their units (0 when none is finite).
glm::dvec3 boxCentre(std::span<const glm::vec3> points);

// One tool's pose as the solver applies it: the tool itself or a mirrored copy.
struct ToolCopy {
    glm::dvec3 position{0.0};     // world units
    glm::dmat3 orientation{1.0};  // a rotation: Q' = M Q M for a copy
    bool mirrored = false;
};

// Each pose and, for each non-empty subset of symmetry.axes, its reflection
// p' = c + M(p − c), Q' = M Q M: the poses whose motion addMirroredTools gives.
// The poses come first, in order, then their copies.
std::vector<ToolCopy> toolCopies(std::span<const Pose> poses, const Symmetry& symmetry);

} // namespace sculptflow::viewer
