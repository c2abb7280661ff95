// The tolerance planner: the continuous-mode split and the method's calibration.
#include "tolerance_plan.hpp"

#include <algorithm>

#include "method_table.hpp"

namespace sculptflow {

double internalTolerance(const Move& move, const SolverOptions& options) {
    const kernel::MethodTraits traits = methodTraits(options.method);
    const bool biLaplacian = std::any_of(move.tools.begin(), move.tools.end(), [](const ToolMotion& m) {
        return m.kind == ToolKind::Kelvinlet && m.profile == KelvinletProfile::BiLaplacian;
    });
    return traits.toleranceFactor * options.tolerance * (biLaplacian ? traits.biLaplacianFactor : 1.0);
}

TolerancePlan planTolerance(const Move& move, const SolverOptions& options, size_t segments) {
    TolerancePlan plan;
    plan.stroke = options.tolerance;
    plan.segment = segmentTolerance(options.tolerance, segments);
    plan.internal = internalTolerance(move, segmentOptions(options, segments));
    return plan;
}

} // namespace sculptflow
