// How far a solve's result is from the CPU reference and from the double ground truth.
#include "result_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <sculptflow/error.hpp>
#include "kernel.hpp"

namespace sculptflow {
namespace {

constexpr uint32_t kProblemFlags = ~kernel::kFlagCulled; // culled vertices are results, not failures
// UNVERIFIED thresholds the distance between two passes, which the GPU and the CPU
// round differently, so a vertex near the threshold may flip (tsit5 on test0's
// linear affine flow: 22% of vertices); the truth check covers those vertices instead.
constexpr uint32_t kAgreementFlags = ~kernel::kFlagUnverified;

// A difference that is not finite must fail every threshold, never hide in std::max.
double distance(const glm::dvec3& a, const glm::dvec3& b) {
    double d = glm::length(a - b);
    return std::isfinite(d) ? d : std::numeric_limits<double>::infinity();
}

} // namespace

double TruthComparison::flaggedShare() const {
    const size_t base = std::max(inReach, flagged);
    return base ? double(flagged) / double(base) : 0.0;
}

ReferenceComparison compareWithReference(std::span<const glm::vec3> gpuPositions,
                                         std::span<const VertexStatistics> gpuStatistics,
                                         std::span<const glm::vec3> cpuPositions,
                                         std::span<const VertexStatistics> cpuStatistics) {
    const size_t n = gpuPositions.size();
    if (gpuStatistics.size() != n || cpuPositions.size() != n || cpuStatistics.size() != n)
        throw Error("validate: GPU and CPU results differ in vertex count");
    ReferenceComparison r;
    std::vector<double> differences;
    differences.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        if ((gpuStatistics[i].flags ^ cpuStatistics[i].flags) & kAgreementFlags) ++r.flagMismatches;
        if ((gpuStatistics[i].flags | cpuStatistics[i].flags) & kProblemFlags) continue;
        differences.push_back(distance(glm::dvec3(gpuPositions[i]), glm::dvec3(cpuPositions[i])));
    }
    r.compared = differences.size();
    r.flagAgreement = n ? 1.0 - double(r.flagMismatches) / double(n) : 1.0;
    if (!differences.empty()) {
        r.maxDifference = *std::max_element(differences.begin(), differences.end());
        // Nearest rank: the smallest difference that at least 99% of the vertices do not exceed.
        const size_t rank = size_t(std::ceil(0.99 * double(differences.size())));
        auto nth = differences.begin() + std::ptrdiff_t(std::max<size_t>(rank, 1) - 1);
        std::nth_element(differences.begin(), nth, differences.end());
        r.p99Difference = *nth;
    }
    return r;
}

TruthComparison compareWithTruth(std::span<const glm::vec3> gpuPositions,
                                 std::span<const VertexStatistics> gpuStatistics,
                                 std::span<const glm::dvec3> truthPositions, const std::vector<bool>& converged) {
    const size_t n = gpuPositions.size();
    if (gpuStatistics.size() != n || truthPositions.size() != n || converged.size() != n)
        throw Error("validate: GPU results and ground truth differ in vertex count");
    TruthComparison t;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const bool integrated = gpuStatistics[i].evaluations > 0; // culled in every segment: 0
        if (integrated) ++t.inReach;
        if (gpuStatistics[i].flags & kProblemFlags) {
            ++t.flagged;
            continue;
        }
        if (!converged[i]) {
            ++t.notConverged;
            continue;
        }
        double error = distance(glm::dvec3(gpuPositions[i]), truthPositions[i]);
        t.maxError = std::max(t.maxError, error);
        sum += error;
        ++t.compared;
        if (integrated) ++t.integrated;
    }
    t.meanError = t.compared ? sum / double(t.compared) : 0.0;
    return t;
}

} // namespace sculptflow
