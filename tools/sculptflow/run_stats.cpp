// The statistics JSON of a run.
#include "run_stats.hpp"

#include <algorithm>

namespace sculptflow::cli {

nlohmann::json flagsJson(const SolveReport& r) {
    return {{"min_step_clamped", r.minStepClamped},
            {"iteration_cap", r.iterationCap},
            {"non_finite", r.nonFinite},
            {"culled", r.culled}};
}

nlohmann::json evaluationsJson(const SolveReport& whole, std::span<const SolveReport> segments) {
    nlohmann::json perSegment = nlohmann::json::array();
    for (const SolveReport& s : segments) perSegment.push_back(s.evaluations);
    return {{"mean", whole.meanEvaluations()},
            {"max", whole.maxEvaluations},
            {"total", whole.evaluations},
            {"per_segment", perSegment}};
}

nlohmann::json runJson(const MoveInputs& in) {
    nlohmann::json symmetry; // null: none
    if (in.stroke.symmetry.axes) {
        const glm::dvec3& c = in.stroke.symmetry.origin;
        symmetry = {{"axes", symmetryAxesName(in.stroke.symmetry.axes)}, {"origin", {c.x, c.y, c.z}}};
    }
    nlohmann::json mask;
    if (!in.maskSource.empty()) {
        const auto frozen = std::count(in.mask.begin(), in.mask.end(), 0.0f);
        const auto free = std::count(in.mask.begin(), in.mask.end(), 1.0f);
        mask = {{"source", in.maskSource},
                {"frozen", frozen},
                {"partial", std::ptrdiff_t(in.mask.size()) - frozen - free}};
    }
    return {{"mode", std::string(moveModeName(in.mode))},
            {"segments", in.segments.size()},
            {"tools", in.segments.empty() ? 0 : in.segments.front().tools.size()},
            {"symmetry", symmetry},
            {"mask", mask}};
}

} // namespace sculptflow::cli
