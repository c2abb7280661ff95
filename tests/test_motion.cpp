// Pose pairs to motion: rotation vectors, the double cover, units and time.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>

namespace sculptflow {
namespace {

void expectNear(const glm::dvec3& a, const glm::dvec3& b, double tol) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

TEST(Motion, RotationVectorOfKnownRotations) {
    const glm::dquat qA = glm::normalize(glm::dquat(0.3, -0.5, 0.2, 0.7));
    const glm::dvec3 axis = glm::normalize(glm::dvec3(1.0, 2.0, -0.5));
    for (double angle : {0.0, 1e-9, 0.3, 1.7, std::numbers::pi - 1e-6}) {
        glm::dquat qB = glm::angleAxis(angle, axis) * qA;
        expectNear(rotationVector(qA, qB), axis * angle, 1e-12 + 1e-12 * angle);
    }
}

TEST(Motion, DoubleCoverGivesTheSameRotation) {
    const glm::dquat qA = glm::normalize(glm::dquat(0.9, 0.1, -0.3, 0.2));
    const glm::dquat qB = glm::angleAxis(1.2, glm::dvec3(0.0, 0.0, 1.0)) * qA;
    expectNear(rotationVector(qA, -qB), rotationVector(qA, qB), 1e-12);
    expectNear(rotationVector(-qA, qB), rotationVector(qA, qB), 1e-12);
}

TEST(Motion, RotationTakesTheShortArc) {
    const glm::dquat qA(1.0, 0.0, 0.0, 0.0);
    const glm::dvec3 z(0.0, 0.0, 1.0);
    // 200° one way is 160° the other way.
    glm::dvec3 r = rotationVector(qA, glm::angleAxis(200.0 * std::numbers::pi / 180.0, z));
    expectNear(r, -z * (160.0 * std::numbers::pi / 180.0), 1e-12);
    EXPECT_LE(glm::length(r), std::numbers::pi);
}

TEST(Motion, ToolMotionInVoxelsWithTimeOriginRemoved) {
    ToolStroke tool;
    tool.kind = ToolKind::Affine;
    tool.innerRadius = 0.02;
    tool.outerRadius = 0.13;
    Pose a, b;
    a.position = {0.10, 0.20, 0.30};
    b.position = {0.36, 0.20, 0.30};
    a.time = 332.71649169921875; // recorded times: large origin, small difference
    b.time = 333.4386901855469;
    b.scale = 2.0;
    tool.poses = {a, b};
    ToolMotion m = toolMotion(tool, 0, 1, 0.0013);
    expectNear(m.origin, a.position / 0.0013, 1e-9);
    expectNear(m.translation, glm::dvec3(200.0, 0.0, 0.0), 1e-9);
    EXPECT_NEAR(m.logScale, std::log(2.0), 1e-15);
    EXPECT_DOUBLE_EQ(m.duration, b.time - a.time);
    EXPECT_NEAR(m.outerRadius, 100.0, 1e-9);
    EXPECT_NEAR(m.tipAt(0.5).x, m.origin.x + 100.0, 1e-9);
}

TEST(Motion, InnerRadiusClampedBelowOuter) {
    ToolStroke tool;
    tool.innerRadius = 0.5;
    tool.outerRadius = 0.2;
    tool.poses = {Pose{}, Pose{}};
    tool.poses[1].time = 1.0;
    ToolMotion m = toolMotion(tool, 0, 1, 0.1);
    EXPECT_DOUBLE_EQ(m.innerRadius, m.outerRadius);
}

TEST(Motion, MoveToolModeUsesFirstAndLastPose) {
    Stroke stroke;
    stroke.voxelSize = 0.5;
    ToolStroke tool;
    tool.outerRadius = 1.0;
    for (int i = 0; i < 5; ++i) {
        Pose p;
        p.position = {double(i * i), 0.0, 0.0};
        p.time = 10.0 + i;
        tool.poses.push_back(p);
    }
    stroke.tools = {tool};
    Move move = moveToolMotion(stroke);
    ASSERT_EQ(move.tools.size(), 1u);
    EXPECT_DOUBLE_EQ(move.tools[0].translation.x, 16.0 / 0.5);
    EXPECT_DOUBLE_EQ(move.tools[0].duration, 4.0);
    std::vector<Move> steps = continuousMotions(stroke);
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_DOUBLE_EQ(steps[3].tools[0].translation.x, (16.0 - 9.0) / 0.5);
}

TEST(Motion, BadArgumentsAreRefused) {
    ToolStroke tool;
    tool.poses = {Pose{}, Pose{}};
    EXPECT_THROW(toolMotion(tool, 0, 2, 1.0), Error);
    EXPECT_THROW(toolMotion(tool, 0, 1, 0.0), Error);
    EXPECT_THROW(toolMotion(tool, 0, 1, std::nan("")), Error);
}

} // namespace
} // namespace sculptflow
