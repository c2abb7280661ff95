// The built-in stroke and the icosphere mesh.
#include <sculptflow/default_case.hpp>
#include "demo_fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <numbers>
#include <utility>

#include "unit_icosphere.hpp"

namespace sculptflow {
namespace {

// Smooth start and stop, like a hand's pull: 0 → 1 with zero velocity at both ends.
double ease(double u) { return u * u * (3.0 - 2.0 * u); }

} // namespace

Stroke defaultStroke() {
    ToolStroke tool;
    tool.kind = ToolKind::Kelvinlet;
    tool.innerRadius = 0.0185;
    tool.outerRadius = 0.1297;
    tool.stiffness = 1.0;
    tool.compressibility = 0.5;

    const glm::dvec3 start(-0.31, 0.65, 1.36);
    const glm::dvec3 pull(0.34, 0.16, 0.40);              // 0.55 m ≈ 425 voxels
    const glm::dvec3 bulge(0.0, 0.06, -0.03);              // the hand's path bows a little
    const glm::dvec3 twistAxis = glm::normalize(glm::dvec3(0.3, 0.8, -0.5));
    const double twistAngle = 110.0 * std::numbers::pi / 180.0;
    const glm::dquat startOrientation = glm::normalize(glm::dquat(0.28, 0.46, -0.47, 0.70));
    const int poseCount = 48;
    const double startTime = 212.5; // seconds into a session, as recorded times are
    const double duration = 0.72;

    for (int i = 0; i < poseCount; ++i) {
        double u = double(i) / (poseCount - 1);
        double e = ease(u);
        Pose pose;
        pose.position = start + e * pull + std::sin(std::numbers::pi * u) * bulge;
        pose.orientation = glm::angleAxis(e * twistAngle, twistAxis) * startOrientation;
        pose.time = startTime + u * duration;
        tool.poses.push_back(pose);
    }
    Stroke stroke;
    stroke.voxelSize = kRecordedVoxelSize;
    stroke.tools.push_back(std::move(tool));
    return stroke;
}

Mesh icosphere(int subdivisions, const glm::vec3& center, float radius) {
    std::vector<glm::vec3> unit;
    std::vector<uint32_t> tris;
    unitIcosphere(subdivisions, unit, tris);
    Mesh mesh;
    mesh.positions.reserve(unit.size());
    for (const glm::vec3& p : unit) mesh.positions.push_back(center + radius * p);
    mesh.faceIndices = std::move(tris);
    mesh.faceSizes.assign(mesh.faceIndices.size() / 3, 3u);
    return mesh;
}

Mesh defaultMesh(const Stroke& stroke) {
    const ToolStroke& tool = stroke.tools.front();
    return icosphere(5, glm::vec3(tool.poses.front().position), float(kDefaultSphereRadius * tool.outerRadius));
}

std::vector<glm::vec3> ballAroundTip(const ToolMotion& tool, size_t count, float radiusFactor, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const glm::vec3 center(tool.origin);
    const float radius = radiusFactor * float(tool.outerRadius);
    std::vector<glm::vec3> points;
    points.reserve(count);
    while (points.size() < count) { // rejection sampling of the unit ball
        glm::vec3 p;
        p.x = unit(rng); // one draw per statement: the order is then defined
        p.y = unit(rng);
        p.z = unit(rng);
        if (glm::dot(p, p) <= 1.0f) points.push_back(center + radius * p);
    }
    return points;
}

} // namespace sculptflow
