// Per-vertex debug statistics and their per-dispatch summary.
#pragma once

#include "export.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace sculptflow {

// VertexStatistics::flags bits.
enum VertexFlag : uint32_t {
    kVertexMinStepClamped = 1u, // a step at h_min was accepted over tolerance
    kVertexIterationCap = 2u,   // the attempt budget (finished with RK4) or the device's loop budget ran out
    kVertexNonFinite = 4u,      // input or state not finite; output = input
    kVertexCulled = 8u,         // outside every tool's reach, or masked (mask 0): not integrated
    kVertexFolded = 16u,        // volume change J ≤ 0 (only with SolverOptions::volumeChange)
    kVertexUnverified = 32u,    // not certified within tol: its error bound is over tol after a second pass (with SolverOptions::verify also: the checking pass ends over tol/2 from it, or the rounding both share may)
};

// Per-vertex debug statistics.
struct VertexStatistics {
    uint32_t flags = 0; // VertexFlag bits
    uint32_t acceptedSteps = 0;
    uint32_t rejectedSteps = 0;
    uint32_t evaluations = 0;
};

// Per-dispatch summary of the statistics.
struct SolveReport {
    size_t vertices = 0;
    size_t minStepClamped = 0;
    size_t iterationCap = 0;
    size_t nonFinite = 0;
    size_t culled = 0;
    size_t folded = 0;
    size_t unverified = 0; // the error bound over tol (with SolverOptions::verify also: the checking pass apart)
    uint64_t acceptedSteps = 0;
    uint64_t rejectedSteps = 0;
    uint64_t evaluations = 0;
    uint32_t maxEvaluations = 0;
    uint32_t maxSteps = 0;                 // accepted + rejected, worst vertex
    std::vector<uint32_t> firstClamped;    // indices of the first clamped vertices

    double meanEvaluations() const { return vertices ? double(evaluations) / double(vertices) : 0.0; }
};

// Continuous mode's report: counts, steps and evaluations summed over the
// segments (a vertex flagged in two segments counts twice); maxima over them.
// `vertices` is the mesh's (the first segment's).
SCULPTFLOW_API SolveReport combineSegments(std::span<const SolveReport> segments);

// Indices of clamped vertices a report keeps (SolveReport::firstClamped).
inline constexpr size_t kReportedClampedIndices = 16;

SCULPTFLOW_API SolveReport summarize(std::span<const VertexStatistics> statistics,
                                     size_t maxClampedIndices = kReportedClampedIndices);

// Continuous mode's per-vertex statistics: adds a segment's to the sums so far
// (flags or-ed, steps and evaluations added); the spans have one entry a vertex.
SCULPTFLOW_API void accumulateSegment(std::span<VertexStatistics> sums, std::span<const VertexStatistics> segment);

} // namespace sculptflow
