// Continuous mode's check of the whole chain (verified_chain.hpp).
#include "verified_chain.hpp"

#include <glm/geometric.hpp>

#include "kernel.hpp"

namespace sculptflow {

std::vector<glm::vec3> plainChainStart(std::span<const glm::vec3> start) {
    kernel::Kernel k; // probedStart reads none of its state
    std::vector<glm::vec3> probed(start.size());
    for (size_t i = 0; i < start.size(); ++i) probed[i] = k.probedStart(start[i], 1.0f);
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
        if (!(glm::distance(glm::dvec3(verified[i]), glm::dvec3(plain[i])) <= agreement)) { // NaN disagrees
            flags |= kVertexUnverified;
            ++report.unverified;
        }
    }
}

} // namespace sculptflow
