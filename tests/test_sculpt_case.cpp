// The sculpt-scale built-in case (src/sculpt_blob.cpp): a 655,362-vertex closed,
// lumpy blob, built deterministically, whose surface the built-in
// stroke's tool starts on, with most of it out of the tool's reach.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/motion.hpp>
#include "src/demo_fixtures.hpp"
#include "src/kernel_tools.hpp"

namespace sculptflow {
namespace {

// Built once for the whole file: the checks below share it.
const Mesh& blob() {
    static const Mesh mesh = sculptMesh(defaultStroke());
    return mesh;
}

bool finite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// The build time is printed, not asserted: timing belongs in benchmarks.
TEST(SculptCase, IsSculptScaleAndDeterministic) {
    const Stroke stroke = defaultStroke();
    const auto start = std::chrono::steady_clock::now();
    const Mesh mesh = sculptMesh(stroke);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  sculpt blob: %zu vertices, %zu triangles, built in %.3f s\n", mesh.positions.size(),
                mesh.faceSizes.size(), seconds);
    EXPECT_EQ(mesh.positions.size(), 655362u); // 10·4^8 + 2
    EXPECT_GE(mesh.positions.size(), 500000u);
    EXPECT_EQ(mesh.faceSizes.size(), 1310720u);
    EXPECT_TRUE(std::all_of(mesh.faceSizes.begin(), mesh.faceSizes.end(), [](uint32_t n) { return n == 3; }));
    EXPECT_EQ(mesh.faceIndices.size(), 3 * mesh.faceSizes.size());
    EXPECT_TRUE(mesh.mask.empty());

    // Deterministic: a second build is the same, bit for bit.
    ASSERT_EQ(mesh.positions.size(), blob().positions.size());
    EXPECT_EQ(std::memcmp(mesh.positions.data(), blob().positions.data(), mesh.positions.size() * sizeof(glm::vec3)),
              0);
    EXPECT_EQ(mesh.faceIndices, blob().faceIndices);
}

TEST(SculptCase, IsClosedAndConsistentlyOriented) {
    const Mesh& mesh = blob();
    const size_t vertices = mesh.positions.size();
    EXPECT_TRUE(std::all_of(mesh.positions.begin(), mesh.positions.end(), finite));
    // Each directed edge as (low, high, whether it runs low → high); a closed,
    // oriented surface has every undirected edge exactly twice, once each way.
    std::vector<uint64_t> edges;
    edges.reserve(mesh.faceIndices.size());
    for (size_t f = 0; f < mesh.faceIndices.size(); f += 3)
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = mesh.faceIndices[f + k], b = mesh.faceIndices[f + (k + 1) % 3];
            ASSERT_LT(std::max(a, b), vertices);
            ASSERT_NE(a, b);
            edges.push_back((uint64_t(std::min(a, b)) << 32 | std::max(a, b)) << 1 | (a < b ? 1u : 0u));
        }
    std::sort(edges.begin(), edges.end());
    size_t badEdges = 0, undirected = 0;
    for (size_t i = 0; i < edges.size();) {
        size_t j = i;
        while (j < edges.size() && (edges[j] >> 1) == (edges[i] >> 1)) ++j;
        const bool twiceOppositeWays = j - i == 2 && (edges[i] & 1) != (edges[i + 1] & 1);
        if (!twiceOppositeWays) ++badEdges;
        ++undirected;
        i = j;
    }
    EXPECT_EQ(badEdges, 0u);
    // A sphere's Euler characteristic, and every vertex used.
    EXPECT_EQ(int64_t(vertices) - int64_t(undirected) + int64_t(mesh.faceSizes.size()), 2);
    std::vector<bool> used(vertices, false);
    for (const uint32_t v : mesh.faceIndices) used[v] = true;
    EXPECT_EQ(std::count(used.begin(), used.end(), false), 0);
}

TEST(SculptCase, IsLumpyNotASphereAndHasIcospheresTriangles) {
    // The fast subdivision visits edges as icosphere() does: the same triangles,
    // each vertex moved radially from icosphere()'s.
    const glm::vec3 centre(3.0f, -2.0f, 7.0f);
    const Mesh small = lumpyBlob(3, centre, 50.0f);
    const Mesh sphere = icosphere(3, centre, 50.0f);
    EXPECT_EQ(small.faceIndices, sphere.faceIndices);
    ASSERT_EQ(small.positions.size(), sphere.positions.size());
    for (size_t i = 0; i < small.positions.size(); ++i) {
        const glm::dvec3 u = glm::normalize(glm::dvec3(sphere.positions[i] - centre));
        const glm::dvec3 expected = glm::dvec3(centre) + 50.0 * blobRadiusFactor(u) * u;
        EXPECT_LT(glm::length(glm::dvec3(small.positions[i]) - expected), 1e-3) << "vertex " << i;
    }

    // The full blob's radius varies by a good part of itself, smoothly: neighbours
    // along an edge differ little.
    const Mesh& mesh = blob();
    const double radius = kSculptBlobRadius * defaultStroke().tools.front().outerRadius;
    const glm::dvec3 c = sculptBlobCenter(defaultStroke());
    double lo = 1e30, hi = 0.0, steepest = 0.0;
    for (const glm::vec3& p : mesh.positions) {
        const double r = glm::length(glm::dvec3(p) - c) / radius;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    for (size_t f = 0; f < mesh.faceIndices.size(); f += 3) {
        const glm::dvec3 a(mesh.positions[mesh.faceIndices[f]]), b(mesh.positions[mesh.faceIndices[f + 1]]);
        const double edge = glm::length(a - b);
        if (edge > 0.0) steepest = std::max(steepest, std::abs(glm::length(a - c) - glm::length(b - c)) / edge);
    }
    std::printf("  radius from %.3f to %.3f of the mean; steepest radial slope %.2f\n", lo, hi, steepest);
    EXPECT_GT(hi - lo, 0.2);
    EXPECT_GT(lo, 0.6);
    EXPECT_LT(hi, 1.4);
    EXPECT_LT(steepest, 1.5); // no cliffs: a smooth, star-shaped surface

    // Mirror-symmetric across x, and the mesh's box centred on the blob's centre in
    // x: the viewer's and the CLI's mirror plane through the box grabs the mirror
    // image of the tool's spot.
    for (const glm::vec3& p : small.positions) {
        const glm::dvec3 u(p - centre);
        EXPECT_NEAR(blobRadiusFactor(u), blobRadiusFactor(glm::dvec3(-u.x, u.y, u.z)), 1e-12);
    }
    float minX = 1e30f, maxX = -1e30f;
    for (const glm::vec3& p : mesh.positions) {
        minX = std::min(minX, p.x);
        maxX = std::max(maxX, p.x);
    }
    EXPECT_NEAR(0.5 * (double(minX) + double(maxX)), c.x, 1e-5);
}

TEST(SculptCase, ToolStartsOnTheSurfaceAndReachesASmallPartOfIt) {
    const Stroke stroke = defaultStroke();
    const ToolStroke& tool = stroke.tools.front();
    const Mesh& mesh = blob();
    const glm::dvec3 tip = tool.poses.front().position;
    // Several tool radii across.
    const glm::dvec3 c = sculptBlobCenter(stroke);
    const double meanRadius = kSculptBlobRadius * tool.outerRadius;
    EXPECT_GE(kSculptBlobRadius, 3.0);
    // On the surface: a vertex within a small part of the outer radius (the mesh's
    // edges are about 1.5 voxels), and the tip on the blob's radial function.
    double nearest = 1e30;
    for (const glm::vec3& p : mesh.positions) nearest = std::min(nearest, glm::length(glm::dvec3(p) - tip));
    EXPECT_LT(nearest, tool.outerRadius);
    EXPECT_LT(nearest, 0.05 * tool.outerRadius);
    EXPECT_NEAR(glm::length(tip - c), meanRadius * blobRadiusFactor(tip - c), 1e-9);
    // The pull leaves the surface outward.
    const glm::dvec3 pull = tool.poses.back().position - tip;
    EXPECT_GT(glm::dot(glm::normalize(pull), glm::normalize(tip - c)), 0.99);

    // The part of the surface the pull grabs: the vertices the field starts moving
    // at a tenth of the tool's travel or more over the move (its speed at s = 0),
    // some and a small part. The bi-scale Kelvinlet's far field, falling as 1/r³
    // from a load calibrated to carry the tip 425 voxels, still moves the far side
    // of the blob about a voxel: above the solver's cull threshold (0.1·tol), so
    // the solver culls none of it (its adaptive steps stay few away from the tool).
    const Move move = moveToolMotion(stroke);
    const double travel = glm::length(move.tools.front().translation);
    kernel::Kernel k = makeKernel(move, SolverOptions{});
    size_t grabbed = 0, kelvinletReach = 0;
    for (const glm::vec3& p : mesh.positions) {
        const glm::vec3 x0(glm::dvec3(p) / stroke.voxelSize);
        if (glm::length(k.velocity(x0, 0.0f, ~0u)) >= 0.1 * travel) ++grabbed;
        if (!k.outOfReach(x0, k.settings.tolerance)) ++kelvinletReach;
    }
    const double fraction = double(grabbed) / double(mesh.positions.size());
    std::printf("  %zu of %zu vertices (%.1f%%) start moving at a tenth of the tool's %.0f-voxel travel or more; "
                "%zu in the Kelvinlet's reach\n",
                grabbed, mesh.positions.size(), 100.0 * fraction, travel, kelvinletReach);
    EXPECT_GT(grabbed, 1000u);
    EXPECT_LT(fraction, 0.1);

    // With the tool's falloff ending at its outer radius (--kind affine), the
    // solver's cull leaves only the part near the tool's path to integrate.
    Stroke affine = stroke;
    setToolKind(affine.tools.front(), ToolKind::Affine);
    kernel::Kernel a = makeKernel(moveToolMotion(affine), SolverOptions{});
    size_t inReach = 0;
    for (const glm::vec3& p : mesh.positions)
        if (!a.outOfReach(glm::vec3(glm::dvec3(p) / stroke.voxelSize), a.settings.tolerance)) ++inReach;
    std::printf("  affine: %zu vertices in the tool's reach (%.2f%%)\n", inReach,
                100.0 * double(inReach) / double(mesh.positions.size()));
    EXPECT_GT(inReach, 1000u);
    EXPECT_LT(double(inReach) / double(mesh.positions.size()), 0.05);
}

} // namespace
} // namespace sculptflow
