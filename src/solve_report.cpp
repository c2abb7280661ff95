// Summarising per-vertex statistics into a dispatch report.
#include <sculptflow/solve_report.hpp>

#include <algorithm>

#include "kernel.hpp"

namespace sculptflow {

static_assert(kVertexMinStepClamped == kernel::kFlagMinStepClamped &&
                  kVertexIterationCap == kernel::kFlagIterationCap && kVertexNonFinite == kernel::kFlagNonFinite &&
                  kVertexCulled == kernel::kFlagCulled && kVertexFolded == kernel::kFlagFolded &&
                  kVertexUnverified == kernel::kFlagUnverified,
              "the public flag bits are the shader's");

SolveReport combineSegments(std::span<const SolveReport> segments) {
    SolveReport r;
    if (!segments.empty()) r.vertices = segments.front().vertices;
    for (const SolveReport& s : segments) {
        r.minStepClamped += s.minStepClamped;
        r.iterationCap += s.iterationCap;
        r.nonFinite += s.nonFinite;
        r.culled += s.culled;
        r.folded += s.folded;
        r.unverified += s.unverified;
        r.acceptedSteps += s.acceptedSteps;
        r.rejectedSteps += s.rejectedSteps;
        r.evaluations += s.evaluations;
        r.maxEvaluations = std::max(r.maxEvaluations, s.maxEvaluations);
        r.maxSteps = std::max(r.maxSteps, s.maxSteps);
        for (uint32_t v : s.firstClamped)
            if (r.firstClamped.size() < kReportedClampedIndices && std::find(r.firstClamped.begin(), r.firstClamped.end(), v) ==
                                                   r.firstClamped.end())
                r.firstClamped.push_back(v);
    }
    return r;
}

void accumulateSegment(std::span<VertexStatistics> sums, std::span<const VertexStatistics> segment) {
    for (size_t i = 0; i < sums.size() && i < segment.size(); ++i) {
        sums[i].flags |= segment[i].flags;
        sums[i].acceptedSteps += segment[i].acceptedSteps;
        sums[i].rejectedSteps += segment[i].rejectedSteps;
        sums[i].evaluations += segment[i].evaluations;
    }
}

SolveReport summarize(std::span<const VertexStatistics> statistics, size_t maxClampedIndices) {
    SolveReport r;
    r.vertices = statistics.size();
    for (size_t i = 0; i < statistics.size(); ++i) {
        const VertexStatistics& s = statistics[i];
        if (s.flags & kernel::kFlagMinStepClamped) {
            ++r.minStepClamped;
            if (r.firstClamped.size() < maxClampedIndices) r.firstClamped.push_back(uint32_t(i));
        }
        if (s.flags & kernel::kFlagIterationCap) ++r.iterationCap;
        if (s.flags & kernel::kFlagNonFinite) ++r.nonFinite;
        if (s.flags & kernel::kFlagCulled) ++r.culled;
        if (s.flags & kernel::kFlagFolded) ++r.folded;
        if (s.flags & kernel::kFlagUnverified) ++r.unverified;
        r.acceptedSteps += s.acceptedSteps;
        r.rejectedSteps += s.rejectedSteps;
        r.evaluations += s.evaluations;
        r.maxEvaluations = std::max(r.maxEvaluations, s.evaluations);
        r.maxSteps = std::max(r.maxSteps, s.acceptedSteps + s.rejectedSteps);
    }
    return r;
}

} // namespace sculptflow
