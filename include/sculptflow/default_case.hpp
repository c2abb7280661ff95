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

// The sculpt-scale built-in mesh (tools' default for `deform` and the viewer):
// an icosahedron subdivided kSculptBlobSubdivisions times (655,362 vertices,
// 1,310,720 triangles), closed, displaced radially into a lumpy, sculpted-looking
// blob of mean radius about kSculptBlobRadius × the first tool's outer radius, placed
// so that the tool's tip at pose A lies on its surface where the stroke pulls
// outward: the pull grabs part of the surface and leaves most of it out of reach.
inline constexpr int kSculptBlobSubdivisions = 8;
inline constexpr double kSculptBlobRadius = 3.5;
SCULPTFLOW_API Mesh sculptMesh(const Stroke& stroke);

// The blob's radius in a direction, relative to its mean radius: 1 plus a fixed sum
// of smooth bumps and dents (within about −0.2 … +0.3), the same for a direction
// and its mirror image across x (as a head, so that a tool mirrored across the
// blob's x plane grabs its surface too). `direction` need not be unit length.
SCULPTFLOW_API double blobRadiusFactor(const glm::dvec3& direction);

// The blob's centre for a stroke (world units): the first tool's tip at pose A
// lies on its surface, along the pull's direction (pose A to the last pose) from it.
SCULPTFLOW_API glm::dvec3 sculptBlobCenter(const Stroke& stroke);

// A lumpy blob of any size: icosphere(subdivisions, …)'s triangles, and its
// vertices moved radially to radius × blobRadiusFactor(their direction) from
// `center`. Built in time linear in its size (a level-8 blob in well under a
// second); deterministic. Throws sculptflow::Error outside 0–9 subdivisions.
SCULPTFLOW_API Mesh lumpyBlob(int subdivisions, const glm::vec3& center, float radius);

// `count` points uniform in a ball of `radiusFactor` × the tool's outer radius
// around its tip at pose A (voxels): the benchmarks' workload. Deterministic for a
// seed, and the first n points of a larger set are the set of n.
SCULPTFLOW_API std::vector<glm::vec3> ballAroundTip(const ToolMotion& tool, size_t count, float radiusFactor = 2.0f,
                                     uint32_t seed = 12345);

} // namespace sculptflow
