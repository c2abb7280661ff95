// The GPU solver's headless path: upload a mesh, run one move, read the result back.
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "chunk_reach.hpp"
#include "context.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"
#include "motion.hpp"
#include "solve_report.hpp"
#include "solver_options.hpp"

namespace sculptflow {

// A mesh's positions on the GPU, in voxels: the undeformed input, the deformed
// output (both tightly packed float xyz, 12 bytes a vertex) and, once a run has
// asked for them, per-vertex statistics (16 bytes a vertex); and the compaction
// scratch with the vertices in spatial blocks (8 bytes a vertex, see
// DeformScratch), allocated with the mesh. Only runs write the output: a run
// rewrites just the vertices it or the run before it solved.
class GpuMesh {
public:
    GpuMesh(Context& context, std::span<const glm::vec3> positions);

    size_t vertexCount() const { return vertexCount_; }
    VkBuffer inputBuffer() const { return input_.handle(); }
    VkBuffer outputBuffer() const { return output_.handle(); }

    // The output of the last run (before any run: a copy of the input).
    std::vector<glm::vec3> readPositions() const;
    // The statistics of the last run that asked for them; empty before.
    std::vector<VertexStatistics> readStatistics() const;

private:
    friend class GpuSolver;
    const GpuBuffer& statisticsBuffer(Context& context);

    // Where the output may differ from the input: nowhere (as uploaded), only at
    // the last run's active list (the scratch holds it), or anywhere.
    enum class OutputState { EqualsInput, DiffersAtList, DiffersAnywhere };

    size_t vertexCount_;
    Bounds bounds_; // of the input, voxels
    OutputState outputState_ = OutputState::EqualsInput;
    GpuBuffer input_;
    GpuBuffer output_;
    GpuBuffer statistics_;
    DeformScratch scratch_;
};

struct GpuRun {
    double gpuMilliseconds = 0.0; // between timestamps around the dispatches; NaN if unsupported
    SolveReport report;           // filled when statistics were requested
};

// Runs moves on the context's device. Synchronous: run() records, submits and
// waits, so one GpuSolver serves one thread at a time.
class GpuSolver {
public:
    explicit GpuSolver(Context& context);
    ~GpuSolver();
    GpuSolver(const GpuSolver&) = delete;
    GpuSolver& operator=(const GpuSolver&) = delete;

    // Integrates every vertex of `mesh` through `move` into its output buffer.
    // Options and tools are validated first: sculptflow::Error names the bad
    // parameter and nothing is dispatched. Without statistics the shader does no
    // extra work and nothing but the timestamps is read back.
    GpuRun run(GpuMesh& mesh, const Move& move, const SolverOptions& options, bool statistics = true);

    Context& context() const { return context_; }

    // True (the default): unless the whole mesh is in reach (its bounds, see
    // boxWithinReach), cull and compact the vertices in reach first, then
    // integrate only those (DeformScratch). False: one pass over every vertex,
    // culling per vertex inside the solver. The passes cost about 16% on a mesh
    // that is all in reach, which is why that case skips them.
    void setCompaction(bool compaction) { compaction_ = compaction; }
    bool compaction() const { return compaction_; }

    // Runs another build of deform.comp from now on (hot reload; see
    // ShaderReloader). Takes effect between runs; on failure the old one stays.
    void useShader(std::span<const uint32_t> spirv) { pipelines_.replaceShader(spirv); }

private:
    void release();

    Context& context_;
    bool compaction_ = true;
    DeformPipelines pipelines_;
    GpuBuffer tools_;        // ToolBlock
    GpuBuffer noStatistics_; // bound when a run asks for no statistics
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkDescriptorSet descriptorSet_ = VK_NULL_HANDLE;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
};

struct GpuSolution {
    std::vector<glm::vec3> positions; // voxels
    std::vector<VertexStatistics> statistics;
    SolveReport report;
    double gpuMilliseconds = 0.0;
};

// Upload, run with statistics, read back.
GpuSolution solveOnGpu(GpuSolver& solver, const Move& move, std::span<const glm::vec3> start,
                       const SolverOptions& options);

} // namespace sculptflow
