// Vertex blocks (src/vertex_blocks.hpp): a permutation, spheres that hold their
// vertices, and blocks tight enough that a sphere test culls most of a far mesh.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include "src/kernel_tools.hpp"
#include "src/vertex_blocks.hpp"
#include "kernel_fixtures.hpp"

namespace sculptflow {
namespace {

std::vector<glm::vec3> randomCube(size_t count, float half, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-half, half);
    std::vector<glm::vec3> points(count);
    for (glm::vec3& p : points) p = {unit(rng), unit(rng), unit(rng)};
    return points;
}

void expectPermutation(const std::vector<uint32_t>& order, size_t count) {
    std::vector<uint32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(sorted.size(), count);
    for (size_t i = 0; i < count; ++i) ASSERT_EQ(sorted[i], i);
}

TEST(VertexBlocks, EveryVertexOnceAndInsideItsBlocksSphere) {
    const std::vector<glm::vec3> points = randomCube(10007, 500.0f, 1);
    const VertexBlocks blocks = buildVertexBlocks(points, 512);
    expectPermutation(blocks.order, points.size());
    ASSERT_EQ(blocks.spheres.size(), (points.size() + 511) / 512);
    double meanRadius = 0.0;
    for (size_t i = 0; i < blocks.order.size(); ++i) {
        const glm::vec4 s = blocks.spheres[i / 512];
        EXPECT_LE(glm::distance(glm::vec3(s), points[blocks.order[i]]), s.w) << "vertex " << blocks.order[i];
    }
    for (const glm::vec4& s : blocks.spheres) meanRadius += s.w / double(blocks.spheres.size());
    // 20 blocks of a cube 1000 wide: Morton blocks are ~1000/20^(1/3) ≈ 370 wide
    // (radius ≈ 320); blocks in input (random) order would span the cube (≈ 866).
    EXPECT_LT(meanRadius, 450.0);
}

TEST(VertexBlocks, NonFinitePositionsGetAnInfiniteSphere) {
    std::vector<glm::vec3> points = randomCube(100, 10.0f, 2);
    points[17].y = std::numeric_limits<float>::quiet_NaN();
    points[42].z = std::numeric_limits<float>::infinity();
    const VertexBlocks blocks = buildVertexBlocks(points, 16);
    expectPermutation(blocks.order, points.size());
    size_t infinite = 0;
    for (size_t b = 0; b < blocks.spheres.size(); ++b) {
        bool holdsNonFinite = false;
        for (size_t i = b * 16; i < std::min(points.size(), b * 16 + 16); ++i)
            holdsNonFinite = holdsNonFinite || blocks.order[i] == 17 || blocks.order[i] == 42;
        EXPECT_EQ(std::isinf(blocks.spheres[b].w), holdsNonFinite) << "block " << b;
        infinite += std::isinf(blocks.spheres[b].w);
    }
    EXPECT_GE(infinite, 1u);
    EXPECT_TRUE(buildVertexBlocks({}, 16).order.empty());
    EXPECT_THROW(buildVertexBlocks(points, 0), Error);
}

// The shader skips a block when sphereInReach is false: it must hold only
// vertices that outOfReach culls, and skip most blocks of a mesh far away.
TEST(VertexBlocks, BlocksOutOfReachHoldOnlyCulledVertices) {
    Move move{{test::kelvinletMotion(10.0, {40.0, 0.0, 0.0}, {0.0, 0.5, 0.0})}};
    kernel::Kernel k = makeKernel(move, SolverOptions{});
    const std::vector<glm::vec3> points = randomCube(200000, 2000.0f, 3);
    const VertexBlocks blocks = buildVertexBlocks(points, 512);
    size_t skipped = 0, culledVertices = 0;
    for (size_t b = 0; b < blocks.spheres.size(); ++b) {
        const glm::vec4 s = blocks.spheres[b];
        const bool skip = !k.sphereInReach(glm::vec3(s), s.w, k.settings.tolerance);
        skipped += skip;
        for (size_t i = b * 512; i < std::min(points.size(), b * 512 + 512); ++i) {
            const bool culled = k.outOfReach(points[blocks.order[i]], k.settings.tolerance);
            culledVertices += culled;
            if (skip) {
                ASSERT_TRUE(culled) << "block " << b << ", vertex " << blocks.order[i];
            }
        }
    }
    // Most of the cube is out of reach, and most of that in blocks skipped whole.
    EXPECT_GT(culledVertices, points.size() / 2);
    EXPECT_GT(skipped * 512, culledVertices * 3 / 4);
}

} // namespace
} // namespace sculptflow
