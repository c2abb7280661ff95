// Continuous mode's check of the whole chain under SolverOptions::verify.
#pragma once

#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include <sculptflow/solve_report.hpp>
#include <sculptflow/solver_options.hpp>

namespace sculptflow {

// Each segment's checking pass certifies that segment's own error, not what later
// segments' flows make of it (spec §2 chains them). So continuous mode under verify
// also solves the plain chain (the first passes, chained): where the chains end
// more than tol/2 apart (kVerifyAgreementShare of the stroke's tolerance), the
// vertex is flagged UNVERIFIED and counted in `report`, as a segment's check would;
// the plain chain's evaluations are added to the vertices' and the report's.
// True when a continuous solve of `segments` segments checks its chain; then the
// plain chain is solved with plainChainOptions(options) from plainChainStart(start).
inline bool checksWholeChain(const SolverOptions& options, size_t segments) { return options.verify && segments > 1; }
inline SolverOptions plainChainOptions(SolverOptions options) {
    options.verify = false;
    return options;
}

// The starts probed as a first pass probes them (probedStart in integrate.glsl):
// the plain chain starts there once, so that the chains differ by how far the
// whole stroke stretches a change of the start, not only by how far one segment does.
std::vector<glm::vec3> plainChainStart(std::span<const glm::vec3> start);

void checkAgainstPlainChain(std::span<const glm::vec3> plain, std::span<const VertexStatistics> plainStatistics,
                            double strokeTolerance, std::span<const glm::vec3> verified,
                            std::span<VertexStatistics> statistics, SolveReport& report);

} // namespace sculptflow
