// The fixtures the tests, benchmarks and tools build their cases from, beside the
// built-in case (default_case.hpp). Internal: not installed.
#pragma once

#include <cstdint>
#include <vector>

#include <sculptflow/default_case.hpp>

namespace sculptflow {

// The blob's radius in a direction, relative to its mean radius: 1 plus a fixed sum
// of smooth bumps and dents (within about −0.2 … +0.3), the same for a direction
// and its mirror image across x (as a head, so that a tool mirrored across the
// blob's x plane grabs its surface too). `direction` need not be unit length.
double blobRadiusFactor(const glm::dvec3& direction);

// The blob's centre for a stroke (world units): the first tool's tip at pose A
// lies on its surface, along the pull's direction (pose A to the last pose) from it.
glm::dvec3 sculptBlobCenter(const Stroke& stroke);

// A lumpy blob of any size: icosphere(subdivisions, …)'s triangles, and its
// vertices moved radially to radius × blobRadiusFactor(their direction) from
// `center`. Built in time linear in its size (a level-8 blob in well under a
// second); deterministic. Throws sculptflow::Error outside 0–9 subdivisions.
Mesh lumpyBlob(int subdivisions, const glm::vec3& center, float radius);

// `count` points uniform in a ball of `radiusFactor` × the tool's outer radius
// around its tip at pose A (voxels): the benchmarks' workload. Deterministic for a
// seed, and the first n points of a larger set are the set of n.
std::vector<glm::vec3> ballAroundTip(const ToolMotion& tool, size_t count, float radiusFactor = 2.0f,
                                     uint32_t seed = 12345);

} // namespace sculptflow
