// Continuous mode's check of the whole chain (verified_chain.hpp).
#include "verified_chain.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "kernel.hpp"

namespace sculptflow {

namespace {

// 2^-19 of the start's largest coordinate: 16–32 float roundings a coordinate, more
// than a pass's own rounding of its state and of its field add up to.
constexpr float kChainProbe = 1.9073486e-6f;

} // namespace

std::vector<glm::vec3> plainChainStart(std::span<const glm::vec3> start) {
    std::vector<glm::vec3> probed(start.size());
    for (size_t i = 0; i < start.size(); ++i) {
        const glm::vec3 x = start[i];
        const float size = std::max(std::max(std::abs(x.x), std::abs(x.y)), std::max(std::abs(x.z), 1.0f));
        probed[i] = x + glm::vec3(1.0f, -1.0f, 1.0f) * (size * kChainProbe);
    }
    return probed;
}

void checkAgainstPlainChain(std::span<const glm::vec3> plain, std::span<const VertexStatistics> plainStatistics,
                            double strokeTolerance, std::span<const glm::vec3> verified,
                            std::span<VertexStatistics> statistics, SolveReport& report) {
    const double agreement = kernel::kVerifyAgreementShare * strokeTolerance;
    for (size_t i = 0; i < verified.size(); ++i) {
        statistics[i].evaluations += plainStatistics[i].evaluations;
        report.evaluations += plainStatistics[i].evaluations;
        uint32_t& flags = statistics[i].flags;
        if (flags & (kVertexNonFinite | kVertexUnverified)) continue;
        // A plain chain its own bound does not certify is no reference (and its flag
        // is the default path's, which verify keeps).
        const bool plainCertified = (plainStatistics[i].flags & kVertexUnverified) == 0;
        if (!plainCertified || !(glm::distance(glm::dvec3(verified[i]), glm::dvec3(plain[i])) <= agreement)) {
            flags |= kVertexUnverified;
            ++report.unverified;
        }
    }
}

} // namespace sculptflow
