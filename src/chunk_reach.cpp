// Box-level reach and a displacement bound for chunk culling (spec §4, item 5).
#include "chunk_reach.hpp"

#include <cmath>

#include "finite.hpp"

namespace sculptflow {
namespace {


// sup |v| of one regularised Kelvinlet term of radius e, with r = √(|R|² + e²) ≥ e:
// grab ≤ (|a − b| + a/2 + |b|)·|f|/e (each of 1/r, e²/r³, |R|²/r³ is ≤ 1/e), and
// twist, scale ≤ 2.5·|load|/e² (|R|/r³ and 1.5e²|R|/r⁵ are ≤ 1/e² and 1.5/e²).
double kelvinletTermSpeedBound(const kernel::Tool& t, double e) {
    const double a = t.kelvinA, b = t.kelvinB;
    const double grab = (std::abs(a - b) + 0.5 * a + std::abs(b)) * glm::length(glm::dvec3(t.grabLoad)) / e;
    const double loads = std::abs(a) * glm::length(glm::dvec3(t.twistLoad)) + std::abs(double(t.kelvinScale) * t.scaleLoad);
    return grab + 2.5 * loads / (e * e);
}

// sup |v| of Kelvinlet i, for its profile: the weighted terms one by one, or the
// sharp profiles' termwise bound at ρ = 0 (kinds/kelvinlet.glsl). An affine flow's speed is
// at most an affine tool's within r_out, and 0 beyond, so displacementBound's
// affine term covers it.
double kelvinletPeakSpeed(const kernel::Kernel& kernel, int i) {
    const kernel::Tool& t = kernel.tools[i];
    const double eps = t.outerRadius;
    const double second = kernel::kKelvinletSecondRadius * eps;
    switch (t.shape) {
    case kernel::kProfileBiScale: return kelvinletTermSpeedBound(t, eps) + kelvinletTermSpeedBound(t, second);
    case kernel::kProfileTriScale:
        return kelvinletTermSpeedBound(t, eps) +
               std::abs(kernel::kTriScaleSecondWeight) * kelvinletTermSpeedBound(t, second) +
               kernel::kTriScaleThirdWeight * kelvinletTermSpeedBound(t, kernel::kKelvinletThirdRadius * eps);
    default: {
        kernel::Kernel shared = kernel; // the shared GLSL's members are not const
        return shared.kelvinletSpeedBound(i, 0.0f);
    }
    }
}

} // namespace

bool boxInReach(kernel::Kernel& kernel, const Bounds& box) {
    if (!isFinite(box.min) || !isFinite(box.max)) return true;
    return kernel.sphereInReach(0.5f * (box.min + box.max), 0.5f * glm::length(box.max - box.min),
                                kernel.settings.tolerance);
}

bool boxWithinReach(kernel::Kernel& kernel, const Bounds& box) {
    if (!isFinite(box.min) || !isFinite(box.max)) return false;
    if (kernel.toolCount != 1 || kernel::kKindTable[kernel.tools[0].kind].compact) return false;
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? box.max.x : box.min.x, (corner & 2) ? box.max.y : box.min.y,
                          (corner & 4) ? box.max.z : box.min.z);
        if (kernel.outOfReach(p, kernel.settings.tolerance)) return false;
    }
    return true;
}

float displacementBound(const kernel::Kernel& kernel) {
    double kelvinlets = 0.0;
    for (int i = 0; i < kernel.toolCount; ++i)
        if (!kernel::kKindTable[kernel.tools[i].kind].compact) kelvinlets += kelvinletPeakSpeed(kernel, i);
    double bound = kelvinlets;
    for (int i = 0; i < kernel.toolCount; ++i) {
        const kernel::Tool& t = kernel.tools[i];
        if (!kernel::kKindTable[t.kind].compact) continue;
        // |R| starts ≤ r_out and grows at most at rate k|R| + (Kelvinlet push).
        const double k = glm::length(glm::dvec3(t.rotation)) + std::abs(double(t.logScale));
        const double reach = (double(t.outerRadius) + kelvinlets) * std::exp(k);
        bound += glm::length(glm::dvec3(t.translation)) + k * reach;
    }
    return float(bound);
}

} // namespace sculptflow
