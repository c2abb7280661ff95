// The headless GPU path: upload a mesh, run one move, read the result back.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "context.hpp"
#include "motion.hpp"
#include "solve_report.hpp"
#include "solver_options.hpp"

namespace sculptflow {

// A mesh's positions on the GPU, in voxels: the undeformed input, the deformed
// output (both tightly packed float xyz, 12 bytes a vertex) and, once a run has
// asked for them, per-vertex statistics (16 bytes a vertex); and a compaction
// scratch with the vertices in spatial blocks (8 bytes a vertex), allocated with
// the mesh. Only runs write the output: a run rewrites just the vertices it or
// the run before it solved. Made on one Context, used with a GpuSolver of it.
class SCULPTFLOW_API GpuMesh {
public:
    // `mask`: empty, or one value in [0, 1] a vertex (validateMask),
    // uploaded here (4 bytes a vertex); runs scale each displacement by it.
    GpuMesh(Context& context, std::span<const glm::vec3> positions, std::span<const float> mask = {});
    ~GpuMesh();
    GpuMesh(const GpuMesh&) = delete;
    GpuMesh& operator=(const GpuMesh&) = delete;

    size_t vertexCount() const;
    VkBuffer inputBuffer() const;
    VkBuffer outputBuffer() const;

    // The output of the last run (before any run: a copy of the input).
    std::vector<glm::vec3> readPositions() const;
    // The statistics of the last run that asked for them; empty before.
    std::vector<VertexStatistics> readStatistics() const;
    // Each vertex's volume change J from the last run with SolverOptions::volumeChange
    // (4 bytes a vertex, allocated by the first such run); empty before.
    std::vector<float> readVolumeChanges() const;

    // Replaces the mask (empty: none) for the runs after this; validated first.
    void setMask(std::span<const float> mask);

    struct Impl; // the library's side, opaque to callers

private:
    friend struct ImplAccess; // the library's internal way in
    std::unique_ptr<Impl> impl_;
};

struct GpuRun {
    double gpuMilliseconds = 0.0; // between timestamps around the dispatches; NaN if unsupported
    SolveReport report;           // filled when statistics were requested
    std::vector<SolveReport> segments; // runContinuous with statistics: one a segment
};

// Runs moves on the context's device and queue. Synchronous: run() records,
// submits and waits (never more than 5 minutes), so one GpuSolver serves one
// thread at a time, and the queue must not be used by another thread meanwhile.
class SCULPTFLOW_API GpuSolver {
public:
    explicit GpuSolver(Context& context);
    ~GpuSolver();
    GpuSolver(const GpuSolver&) = delete;
    GpuSolver& operator=(const GpuSolver&) = delete;

    // Integrates every vertex of `mesh` through `move` into its output buffer.
    // Options and tools are validated first: sculptflow::Error names the bad
    // parameter and nothing is dispatched. Without statistics the shader does no
    // extra work and nothing but the timestamps is read back. With validation on,
    // any layer message makes it throw. options.volumeChange implies statistics.
    GpuRun run(GpuMesh& mesh, const Move& move, const SolverOptions& options, bool statistics = true);

    // Continuous mode: the segments in turn, each from the last one's
    // output and at options.tolerance / segments.size(), into the mesh's output;
    // the input stays the undeformed mesh. One submission a segment. With
    // statistics, the mesh's statistics are summed over the segments.
    GpuRun runContinuous(GpuMesh& mesh, std::span<const Move> segments, const SolverOptions& options,
                         bool statistics = true);

    Context& context() const;

    // True (the default): unless the whole mesh is in reach, cull and compact the
    // vertices in reach first, then integrate only those. False: one pass over
    // every vertex, culling per vertex inside the solver.
    void setCompaction(bool compaction);
    bool compaction() const;

    struct Impl; // the library's side, opaque to callers

private:
    friend struct ImplAccess; // the library's internal way in
    std::unique_ptr<Impl> impl_;
};

struct GpuSolution {
    std::vector<glm::vec3> positions; // voxels
    std::vector<VertexStatistics> statistics;
    SolveReport report;
    std::vector<SolveReport> segments; // continuous mode: one a segment
    double gpuMilliseconds = 0.0;
    std::vector<float> volumeChanges; // with SolverOptions::volumeChange; else empty
};

// Upload, run with statistics, read back.
SCULPTFLOW_API GpuSolution solveOnGpu(GpuSolver& solver, const Move& move, std::span<const glm::vec3> start,
                                      const SolverOptions& options, std::span<const float> mask = {});
SCULPTFLOW_API GpuSolution solveContinuousOnGpu(GpuSolver& solver, std::span<const Move> segments,
                                                std::span<const glm::vec3> start, const SolverOptions& options,
                                                std::span<const float> mask = {});

} // namespace sculptflow
