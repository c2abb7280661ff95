// The box forms of the kernel's per-vertex culling test (src/chunk_reach.hpp),
// checked point by point against the kernel itself.
#include <random>

#include <gtest/gtest.h>

#include "src/chunk_reach.hpp"
#include "kernel_fixtures.hpp"
#include "src/kernel_tools.hpp"

namespace sculptflow {
namespace {

kernel::Kernel kelvinletKernel() {
    Move move{{test::kelvinletMotion(10.0, {40.0, 0.0, 0.0}, {0.0, 0.5, 0.0})}};
    return makeKernel(move, SolverOptions{});
}

// Samples of the box: its corners, its centre and random points inside.
std::vector<glm::vec3> pointsOf(const Bounds& box, std::mt19937& rng) {
    std::vector<glm::vec3> points;
    for (int corner = 0; corner < 8; ++corner)
        points.emplace_back((corner & 1) ? box.max.x : box.min.x, (corner & 2) ? box.max.y : box.min.y,
                            (corner & 4) ? box.max.z : box.min.z);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int i = 0; i < 200; ++i)
        points.push_back(box.min + glm::vec3(unit(rng), unit(rng), unit(rng)) * (box.max - box.min));
    points.push_back(0.5f * (box.min + box.max));
    return points;
}

// How far from the tool's path (here along +y) the kernel stops culling.
float reachRadius(kernel::Kernel& k) {
    float inside = 0.0f, outside = 1e6f;
    for (int i = 0; i < 60; ++i) {
        const float mid = 0.5f * (inside + outside);
        (k.outOfReach(glm::vec3(0.0f, mid, 0.0f), k.settings.tolerance) ? outside : inside) = mid;
    }
    return inside;
}

// Boxes of every size from inside the reach to far beyond it: what the box tests
// say must hold for every point of the box, and each answer occurs.
TEST(ChunkReach, BoxTestsAgreeWithTheKernelAtEveryPoint) {
    kernel::Kernel k = kelvinletKernel();
    const float tolerance = k.settings.tolerance;
    const float radius = reachRadius(k);
    ASSERT_GT(radius, 10.0f);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> centre(-1.5f * radius, 1.5f * radius);
    std::uniform_real_distribution<float> size(0.01f * radius, 0.5f * radius);
    int outside = 0, within = 0, mixed = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        const glm::vec3 c(centre(rng), centre(rng), centre(rng));
        const glm::vec3 half(size(rng), size(rng), size(rng));
        const Bounds box{c - half, c + half};
        const bool inReach = boxInReach(k, box);
        const bool wholly = boxWithinReach(k, box);
        ASSERT_TRUE(inReach || !wholly);
        size_t culled = 0;
        const std::vector<glm::vec3> points = pointsOf(box, rng);
        for (const glm::vec3& p : points) culled += k.outOfReach(p, tolerance) ? 1 : 0;
        if (!inReach) {
            EXPECT_EQ(culled, points.size()) << "a box out of reach holds a point the kernel integrates";
            ++outside;
        } else if (wholly) {
            EXPECT_EQ(culled, 0u) << "a box wholly in reach holds a point the kernel culls";
            ++within;
        } else {
            ++mixed;
        }
    }
    EXPECT_GT(outside, 10);
    EXPECT_GT(within, 10);
    EXPECT_GT(mixed, 10);
}

// Only one Kelvinlet has a reach that is a capsule around its path; any other
// mix of tools, and a box that is not finite, may hold culled vertices.
TEST(ChunkReach, WhollyInReachOnlyForOneKelvinlet) {
    const Bounds near{glm::vec3(-1.0f), glm::vec3(1.0f)};
    kernel::Kernel one = kelvinletKernel();
    EXPECT_TRUE(boxWithinReach(one, near));
    Move two{{test::kelvinletMotion(10.0, {40.0, 0.0, 0.0}), test::kelvinletMotion(10.0, {0.0, 40.0, 0.0})}};
    kernel::Kernel twoKernel = makeKernel(two, SolverOptions{});
    EXPECT_FALSE(boxWithinReach(twoKernel, near));
    Move affine{{test::affineMotion({0.0, 0.0, 0.0}, {5.0, 0.0, 0.0}, {}, 0.0, 5.0, 50.0)}};
    kernel::Kernel affineKernel = makeKernel(affine, SolverOptions{});
    EXPECT_FALSE(boxWithinReach(affineKernel, near));
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(boxWithinReach(one, Bounds{glm::vec3(-1.0f), glm::vec3(inf)}));
}

} // namespace
} // namespace sculptflow
