// The statistics JSON of a run.
#include "run_stats.hpp"

#include "unit_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sculptflow::cli {

nlohmann::json flagsJson(const SolveReport& r) {
    return {{"min_step_clamped", r.minStepClamped},
            {"iteration_cap", r.iterationCap},
            {"non_finite", r.nonFinite},
            {"culled", r.culled},
            {"folded", r.folded},
            {"unverified", r.unverified}};
}

VolumeChangeSummary summarizeVolumeChanges(std::span<const float> volumeChanges) {
    VolumeChangeSummary out;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0.0;
    size_t finite = 0;
    for (const float j : volumeChanges) {
        if (!(j > 0.0f)) ++out.folded; // NaN included, as the FOLDED flag has it
        if (!std::isfinite(j)) continue;
        lo = std::min(lo, double(j));
        hi = std::max(hi, double(j));
        sum += j;
        ++finite;
    }
    if (finite == 0) {
        out.min = out.max = out.mean = std::numeric_limits<double>::quiet_NaN();
        return out;
    }
    out.min = lo;
    out.max = hi;
    out.mean = sum / double(finite);
    return out;
}

nlohmann::json volumeChangeJson(const VolumeChangeSummary& summary) {
    // JSON has no NaN: null says there was no finite value.
    auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
    return {{"min", number(summary.min)},
            {"max", number(summary.max)},
            {"mean", number(summary.mean)},
            {"folded", summary.folded}};
}

uint32_t maxRunEvaluations(std::span<const VertexStatistics> statistics) {
    uint32_t most = 0;
    for (const VertexStatistics& s : statistics) most = std::max(most, s.evaluations);
    return most;
}

nlohmann::json evaluationsJson(const SolveReport& whole, std::span<const SolveReport> segments,
                               uint32_t maxPerVertex) {
    nlohmann::json perSegment = nlohmann::json::array();
    uint32_t inOneSegment = 0;
    for (const SolveReport& s : segments) {
        perSegment.push_back(s.evaluations);
        inOneSegment = std::max(inOneSegment, s.maxEvaluations);
    }
    return {{"per", "vertex over the whole run (summed over the segments)"},
            {"mean", whole.meanEvaluations()},
            {"max", maxPerVertex},
            {"max_in_one_segment", inOneSegment},
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
            {"mask", mask},
            {"warnings", warningsJson(in.warnings)}};
}

} // namespace sculptflow::cli
