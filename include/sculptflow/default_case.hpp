// The built-in default case: a stroke the project writes itself and a sphere at the tool tip.
#pragma once

#include "export.hpp"

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

} // namespace sculptflow
