// The library's side of GpuMesh and GpuSolver.
#pragma once

#include <sculptflow/gpu_solver.hpp>
#include "src/chunk_reach.hpp"
#include "deform_interface.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"

namespace sculptflow {

struct GpuMesh::Impl {
    Impl(Context& context, std::span<const glm::vec3> positions, std::span<const float> maskValues);
    const GpuBuffer& statisticsBuffer(Context& context);
    const GpuBuffer& volumeChangeBuffer(Context& context);
    const GpuBuffer& carriedBoundBuffer(Context& context);
    const GpuBuffer& workBuffer(Context& context);
    void setMask(Context& context, std::span<const float> values);

    // Where the output may differ from the input: nowhere (as uploaded), only at
    // the last run's active list (the scratch holds it), or anywhere.
    enum class OutputState { EqualsInput, DiffersAtList, DiffersAnywhere };

    size_t vertexCount;
    Bounds bounds; // of the input, voxels
    OutputState outputState = OutputState::EqualsInput;
    GpuBuffer input;
    GpuBuffer output;
    GpuBuffer statistics;
    GpuBuffer volumeChanges; // one float a vertex, once a run computes them
    GpuBuffer carriedBounds; // continuous mode: each vertex's error bound so far (Kernel::carryBound)
    GpuBuffer mask; // one float a vertex; no buffer: no mask
    GpuBuffer work; // continuous mode: the last segment's output, read by the next
    DeformScratch scratch;
    Context* owner = nullptr; // the context it was made on
};

struct GpuSolver::Impl {
    explicit Impl(Context& owner);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    GpuRun run(GpuMesh::Impl& mesh, const Move& move, const SolverOptions& options, bool statistics);
    GpuRun runContinuous(GpuMesh::Impl& mesh, std::span<const Move> segments, const SolverOptions& options,
                         bool statistics);
    // One submission of `kernel`: from the mesh's input, or (continuing) from the
    // output so far, through the work buffer.
    GpuRun submit(GpuMesh::Impl& mesh, kernel::Kernel kernel, bool statistics, bool continuing);
    void release();

    Context& context;
    bool compaction = true;
    DeformPipelines pipelines;
    DeformInterface deform; // the tool block and the unused bindings' placeholder
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    VkDescriptorSet descriptorSet = VK_NULL_HANDLE;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool timestamps = VK_NULL_HANDLE;
};

} // namespace sculptflow
