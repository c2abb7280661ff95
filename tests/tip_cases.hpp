// Cases several test files build from a stroke: its tools as another kind, and
// vertices on concentric spheres around a tool's tip (the vertices that move
// most, least, and by the most twisted paths).
#pragma once

#include <initializer_list>
#include <vector>

#include <glm/vec3.hpp>

#include <sculptflow/default_case.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/stroke.hpp>

namespace sculptflow::test {

inline Stroke withKind(Stroke stroke, ToolKind kind) {
    for (ToolStroke& tool : stroke.tools) tool.kind = kind;
    return stroke;
}

// Icospheres of the given subdivision at each fraction of the tool's outer radius.
inline std::vector<glm::vec3> spheresAroundTip(const ToolMotion& tool,
                                               std::initializer_list<float> radii = {0.1f, 0.2f, 0.3f, 0.5f,
                                                                                     0.75f, 1.0f, 1.5f},
                                               int subdivisions = 3) {
    std::vector<glm::vec3> points;
    for (float f : radii) {
        Mesh sphere = icosphere(subdivisions, glm::vec3(tool.origin), f * float(tool.outerRadius));
        points.insert(points.end(), sphere.positions.begin(), sphere.positions.end());
    }
    return points;
}

// A 642-vertex sphere where the built-in mesh sits, around the built-in stroke's
// tool tip, scaled by `unit` about the world origin (100: the same in centimetres).
inline Mesh builtInTipSphere(float unit = 1.0f) {
    const Stroke stroke = defaultStroke();
    const ToolStroke& tool = stroke.tools.front();
    Mesh mesh = icosphere(3, glm::vec3(tool.poses.front().position), float(0.3 * tool.outerRadius));
    for (glm::vec3& p : mesh.positions) p *= unit;
    return mesh;
}

} // namespace sculptflow::test
