// The library's side of GpuMesh and GpuSolver.
#pragma once

#include "chunk_reach.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"
#include "gpu_solver.hpp"

namespace sculptflow {

struct GpuMesh::Impl {
    Impl(Context& context, std::span<const glm::vec3> positions);
    const GpuBuffer& statisticsBuffer(Context& context);

    // Where the output may differ from the input: nowhere (as uploaded), only at
    // the last run's active list (the scratch holds it), or anywhere.
    enum class OutputState { EqualsInput, DiffersAtList, DiffersAnywhere };

    size_t vertexCount;
    Bounds bounds; // of the input, voxels
    OutputState outputState = OutputState::EqualsInput;
    GpuBuffer input;
    GpuBuffer output;
    GpuBuffer statistics;
    DeformScratch scratch;
};

struct GpuSolver::Impl {
    explicit Impl(Context& owner);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    GpuRun run(GpuMesh::Impl& mesh, const Move& move, const SolverOptions& options, bool statistics);
    void release();

    Context& context;
    bool compaction = true;
    DeformPipelines pipelines;
    GpuBuffer tools;        // ToolBlock
    GpuBuffer noStatistics; // bound when a run asks for no statistics
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    VkDescriptorSet descriptorSet = VK_NULL_HANDLE;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool timestamps = VK_NULL_HANDLE;
};

} // namespace sculptflow
