// Which chunks (meshed voxel blocks) a move can reach, decided from their bounds.
#pragma once

#include <glm/glm.hpp>

#include <sculptflow/mesh.hpp>
#include "kernel.hpp"

namespace sculptflow {

// False only when the kernel would cull every point of the box: the box form of
// the shader's per-vertex test (field.glsl, outOfReach). The distance from any
// point of the box to a tool's path is at least the centre's distance minus the
// half-diagonal, and the Kelvinlet speed bound falls with distance, so a box out
// of reach holds only vertices the shader would cull. Non-finite boxes are in reach.
// Takes the kernel by non-const reference only because the shared GLSL functions
// are non-const members; it is not changed.
bool boxInReach(kernel::Kernel& kernel, const Bounds& box);

// True only when the kernel would cull no point of the box, so that culling and
// compacting its vertices cannot pay: decided for one Kelvinlet, whose reach is
// every point nearer its path than some radius (the speed bound falls with
// distance), and a box's farthest point from a segment is a corner. False for
// any other mix of tools, and for non-finite boxes.
bool boxWithinReach(kernel::Kernel& kernel, const Bounds& box);

// An upper bound, in voxels, on how far the move carries any vertex: for each
// Kelvinlet the supremum of its speed over all points (each regularised term
// bounded at r = ε; the sharp profiles' bound at ρ = 0), for an affine tool or
// affine flow its travel plus the turn and scale of a point as far out as its
// falloff reaches, grown by the Kelvinlets' push
// (Grönwall). Used to grow the bounds of the chunks a committed move changed.
float displacementBound(const kernel::Kernel& kernel);

} // namespace sculptflow
