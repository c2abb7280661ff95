// Small moves built by hand for the kernel tests.
#pragma once

#include <glm/glm.hpp>

#include <sculptflow/motion.hpp>

namespace sculptflow::test {

// A Kelvinlet tool of radius eps (voxels) at the origin with the given motion.
inline ToolMotion kelvinletMotion(double eps, glm::dvec3 translation, glm::dvec3 rotation = {},
                                  double logScale = 0.0, double stiffness = 1.0,
                                  double compressibility = 0.5) {
    ToolMotion m;
    m.kind = ToolKind::Kelvinlet;
    m.origin = {0.0, 0.0, 0.0};
    m.translation = translation;
    m.rotation = rotation;
    m.logScale = logScale;
    m.innerRadius = 0.2 * eps;
    m.outerRadius = eps;
    m.stiffness = stiffness;
    m.compressibility = compressibility;
    return m;
}

// An affine tool at `origin` with falloff radii rIn < rOut (voxels).
inline ToolMotion affineMotion(glm::dvec3 origin, glm::dvec3 translation, glm::dvec3 rotation,
                               double logScale, double rIn, double rOut) {
    ToolMotion m;
    m.kind = ToolKind::Affine;
    m.origin = origin;
    m.translation = translation;
    m.rotation = rotation;
    m.logScale = logScale;
    m.innerRadius = rIn;
    m.outerRadius = rOut;
    return m;
}

// Rodrigues' rotation of v by the rotation vector r, in double.
inline glm::dvec3 rotate(const glm::dvec3& r, const glm::dvec3& v) {
    double angle = glm::length(r);
    if (angle == 0.0) return v;
    glm::dvec3 k = r / angle;
    return v * std::cos(angle) + glm::cross(k, v) * std::sin(angle) +
           k * glm::dot(k, v) * (1.0 - std::cos(angle));
}

// The affine flow's closed form (spec §3.1): x(s) = o(s) + e^{λs}·Rot(s·r)·(x0 − p_A).
inline glm::dvec3 affineClosedForm(const ToolMotion& m, const glm::dvec3& x0, double s) {
    return m.tipAt(s) + std::exp(m.logScale * s) * rotate(s * m.rotation, x0 - m.origin);
}

} // namespace sculptflow::test
