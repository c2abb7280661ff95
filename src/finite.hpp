// Whether every component of a vector is finite: the one test the host's input
// checks, bounds and renderer share for NaN and infinity.
#pragma once

#include <cmath>

#include <glm/ext/quaternion_double.hpp>
#include <glm/vec3.hpp>

namespace sculptflow {

template <typename T, glm::qualifier Q>
bool isFinite(const glm::vec<3, T, Q>& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

template <typename T, glm::qualifier Q>
bool isFinite(const glm::qua<T, Q>& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

} // namespace sculptflow
