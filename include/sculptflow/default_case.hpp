// The built-in default case: a stroke the project writes itself and a sphere at the tool tip.
#pragma once

#include "export.hpp"

#include <cstdint>
#include <vector>

#include "mesh.hpp"
#include "motion.hpp"
#include "stroke.hpp"

namespace sculptflow {

// A scripted Kelvinlet move of the same character as the recordings: metres,
// voxel size 0.0013, a pull of about 430 voxels while the tool twists by 110°.
SCULPTFLOW_API Stroke defaultStroke();

// A geodesic sphere: an icosahedron subdivided `subdivisions` times
// (10·4^n + 2 vertices), centred at `center` with the given radius.
SCULPTFLOW_API Mesh icosphere(int subdivisions, const glm::vec3& center, float radius);

// The default mesh for a stroke: a 10,242-vertex icosphere around the first tool's
// tip at pose A, of radius kDefaultSphereRadius × its outer radius (world units).
inline constexpr double kDefaultSphereRadius = 0.3;
SCULPTFLOW_API Mesh defaultMesh(const Stroke& stroke);

// `count` points uniform in a ball of `radiusFactor` × the tool's outer radius
// around its tip at pose A (voxels): the benchmarks' workload. Deterministic for a
// seed, and the first n points of a larger set are the set of n.
SCULPTFLOW_API std::vector<glm::vec3> ballAroundTip(const ToolMotion& tool, size_t count, float radiusFactor = 2.0f,
                                     uint32_t seed = 12345);

} // namespace sculptflow
