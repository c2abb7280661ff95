// Recording, submitting and reading back one deform dispatch.
#include "gpu_solver_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <sculptflow/error.hpp>
#include <sculptflow/hot_reload.hpp>
#include <sculptflow/mesh.hpp>
#include "src/kernel_tools.hpp"
#include "src/verified_chain.hpp"
#include "buffer_transfer.hpp"
#include "context_impl.hpp"
#include "deform_recorder.hpp"
#include "memory_barrier.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

// The input is copied over the whole output when a run cannot tell where it differs.
constexpr VkBufferUsageFlags kPositions =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
// A bounded dispatch cannot hang, but a driver fault could: never wait forever.
constexpr uint64_t kSolveFenceTimeoutNs = 300ull * 1000 * 1000 * 1000;

VkDeviceSize positionBytes(size_t vertices) { return std::max<VkDeviceSize>(12 * vertices, 16); }


// The whole mesh is checked against the heap before any of it is allocated, so a
// mesh that cannot fit fails at once, naming what it needs.
size_t checkMeshFits(Context& context, size_t vertices, bool masked) {
    const uint64_t perVertex = 2 * 12 + 8 + (masked ? 4 : 0); // input, output, compaction scratch, mask
    const uint64_t needed = perVertex * vertices;
    const uint64_t available = context.deviceHeapAvailable();
    if (needed > available)
        throw Error(ErrorCode::OutOfDeviceMemory,
                    "a mesh of " + std::to_string(vertices) + " vertices needs " + std::to_string(needed) +
                        " bytes of GPU memory (" + std::to_string(perVertex) +
                        " a vertex), but the device-local heap has " + std::to_string(available) + " bytes available");
    return vertices;
}

} // namespace

GpuMesh::Impl::Impl(Context& context, std::span<const glm::vec3> positions, std::span<const float> maskValues)
    : vertexCount(checkMeshFits(context, positions.size(), !maskValues.empty())),
      input(context, positionBytes(positions.size()), kPositions, "mesh input positions", BufferMemory::GpuRead),
      output(context, positionBytes(positions.size()), kPositions, "mesh output positions", BufferMemory::GpuRead),
      scratch(context, uint32_t(positions.size()), positions),
      owner(&context) {
    static_assert(sizeof(glm::vec3) == 12);
    setMask(context, maskValues);
    if (!positions.empty()) bounds = {positions.front(), positions.front()};
    for (const glm::vec3& p : positions) bounds = {glm::min(bounds.min, p), glm::max(bounds.max, p)};
    uploadBuffer(input, 0, positions.data(), positions.size_bytes());
    uploadBuffer(output, 0, positions.data(), positions.size_bytes());
}

std::vector<glm::vec3> GpuMesh::readPositions() const {
    const Impl& m = *impl_;
    std::vector<glm::vec3> out(m.vertexCount);
    downloadBuffer(m.output, 0, out.data(), out.size() * sizeof(glm::vec3));
    return out;
}

std::vector<VertexStatistics> GpuMesh::readStatistics() const {
    const Impl& m = *impl_;
    if (!m.statistics.handle()) return {};
    static_assert(sizeof(VertexStatistics) == 16); // uvec4 in deform.comp
    std::vector<VertexStatistics> out(m.vertexCount);
    downloadBuffer(m.statistics, 0, out.data(), out.size() * sizeof(VertexStatistics));
    return out;
}

void GpuMesh::Impl::setMask(Context& context, std::span<const float> values) {
    if (values.empty()) {
        mask = GpuBuffer();
        scratch.freezeBlocks({});
        return;
    }
    validateMask(values, vertexCount, "GpuMesh mask");
    if (!mask.handle())
        mask = GpuBuffer(context, 4 * VkDeviceSize(vertexCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the mesh's mask",
                         BufferMemory::GpuRead);
    uploadBuffer(mask, 0, values.data(), values.size_bytes());
    scratch.freezeBlocks(values); // blocks the mask freezes cost the runs nothing
}

const GpuBuffer& GpuMesh::Impl::workBuffer(Context& context) {
    if (!work.handle())
        work = GpuBuffer(context, output.size(), kPositions, "continuous mode's segment input", BufferMemory::DeviceLocal);
    return work;
}

std::vector<float> GpuMesh::readVolumeChanges() const {
    const Impl& m = *impl_;
    if (!m.volumeChanges.handle()) return {};
    std::vector<float> out(m.vertexCount);
    downloadBuffer(m.volumeChanges, 0, out.data(), out.size() * sizeof(float));
    return out;
}

const GpuBuffer& GpuMesh::Impl::volumeChangeBuffer(Context& context) {
    if (!volumeChanges.handle())
        volumeChanges = GpuBuffer(context, std::max<VkDeviceSize>(4 * vertexCount, 16),
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "per-vertex volume changes", BufferMemory::GpuRead);
    return volumeChanges;
}

const GpuBuffer& GpuMesh::Impl::carriedBoundBuffer(Context& context) {
    if (!carriedBounds.handle())
        carriedBounds = GpuBuffer(context, std::max<VkDeviceSize>(4 * vertexCount, 16),
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  "per-vertex carried error bounds", BufferMemory::DeviceLocal);
    return carriedBounds;
}

const GpuBuffer& GpuMesh::Impl::statisticsBuffer(Context& context) {
    if (!statistics.handle())
        statistics = GpuBuffer(context, std::max<VkDeviceSize>(16 * vertexCount, 16),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "per-vertex statistics", BufferMemory::GpuRead);
    return statistics;
}

GpuSolver::Impl::Impl(Context& owner)
    : context(owner),
      pipelines(owner),
      deform(owner) {
    const Context::Impl& ctx = implOf(context);
    VkDevice device = context.device();
    try {
        const auto sizes = deformPoolSizes(1);
        VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        poolInfo.maxSets = 1;
        poolInfo.poolSizeCount = uint32_t(sizes.size());
        poolInfo.pPoolSizes = sizes.data();
        SF_VK_CHECK(ctx.vk.vkCreateDescriptorPool(device, &poolInfo, ctx.allocator, &descriptorPool));
        VkDescriptorSetLayout setLayout = pipelines.setLayout();
        VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        setInfo.descriptorPool = descriptorPool;
        setInfo.descriptorSetCount = 1;
        setInfo.pSetLayouts = &setLayout;
        SF_VK_CHECK(ctx.vk.vkAllocateDescriptorSets(device, &setInfo, &descriptorSet));

        VkCommandPoolCreateInfo commandPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        commandPoolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        commandPoolInfo.queueFamilyIndex = context.queueFamily();
        SF_VK_CHECK(ctx.vk.vkCreateCommandPool(device, &commandPoolInfo, ctx.allocator, &commandPool));
        VkCommandBufferAllocateInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        commandInfo.commandPool = commandPool;
        commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        commandInfo.commandBufferCount = 1;
        SF_VK_CHECK(ctx.vk.vkAllocateCommandBuffers(device, &commandInfo, &commands));

        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_VK_CHECK(ctx.vk.vkCreateFence(device, &fenceInfo, ctx.allocator, &fence));
        if (ctx.timestampBits > 0) { // else GPU times are NaN
            VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
            queryInfo.queryCount = 2;
            SF_VK_CHECK(ctx.vk.vkCreateQueryPool(device, &queryInfo, ctx.allocator, &timestamps));
        }
    } catch (...) {
        release();
        throw;
    }
}

GpuSolver::Impl::~Impl() { release(); }

void GpuSolver::Impl::release() {
    const Context::Impl& ctx = implOf(context);
    VkDevice device = context.device();
    if (timestamps) ctx.vk.vkDestroyQueryPool(device, timestamps, ctx.allocator);
    if (fence) ctx.vk.vkDestroyFence(device, fence, ctx.allocator);
    if (commandPool) ctx.vk.vkDestroyCommandPool(device, commandPool, ctx.allocator);
    if (descriptorPool) ctx.vk.vkDestroyDescriptorPool(device, descriptorPool, ctx.allocator);
    timestamps = VK_NULL_HANDLE;
    fence = VK_NULL_HANDLE;
    commandPool = VK_NULL_HANDLE;
    descriptorPool = VK_NULL_HANDLE;
}

GpuRun GpuSolver::Impl::run(GpuMesh::Impl& mesh, const Move& move, const SolverOptions& options, bool statistics) {
    const kernel::Kernel kernel = makeKernel(move, options); // validates, throws before any GPU work
    return submit(mesh, kernel, statistics || options.volumeChange, false);
}

GpuRun GpuSolver::Impl::runContinuous(GpuMesh::Impl& mesh, std::span<const Move> segments,
                                      const SolverOptions& options, bool statistics) {
    std::vector<kernel::Kernel> kernels;
    for (size_t k = 0; k < segments.size(); ++k) // all validated before any work
        kernels.push_back(makeSegmentKernel(segments[k], options, k, segments.size()));
    statistics = statistics || options.volumeChange;
    GpuRun total;
    total.gpuMilliseconds = 0.0;
    std::vector<VertexStatistics> sums(statistics ? mesh.vertexCount : 0);
    // The end map is the segments' maps in turn, so its volume change is their product.
    std::vector<float> volumeChanges(options.volumeChange ? mesh.vertexCount : 0, 1.0f);
    for (size_t k = 0; k < kernels.size(); ++k) {
        GpuRun run = submit(mesh, kernels[k], statistics, k > 0);
        total.gpuMilliseconds += run.gpuMilliseconds;
        if (!statistics) continue;
        std::vector<VertexStatistics> segment(sums.size());
        downloadBuffer(mesh.statistics, 0, segment.data(), segment.size() * sizeof(VertexStatistics));
        accumulateSegment(sums, segment);
        if (options.volumeChange) {
            std::vector<float> segmentVolume(volumeChanges.size());
            downloadBuffer(mesh.volumeChanges, 0, segmentVolume.data(), segmentVolume.size() * sizeof(float));
            for (size_t v = 0; v < volumeChanges.size(); ++v) volumeChanges[v] *= segmentVolume[v];
        }
        total.segments.push_back(std::move(run.report));
    }
    if (statistics) {
        uploadBuffer(mesh.statisticsBuffer(context), 0, sums.data(), sums.size() * sizeof(VertexStatistics));
        total.report = combineSegments(total.segments);
    }
    if (options.volumeChange)
        uploadBuffer(mesh.volumeChangeBuffer(context), 0, volumeChanges.data(), volumeChanges.size() * sizeof(float));
    return total;
}

GpuRun GpuSolver::Impl::submit(GpuMesh::Impl& mesh, kernel::Kernel kernel, bool statistics, bool continuing) {
    const Context::Impl& ctx = implOf(context);
    VkDevice device = context.device();

    const GpuBuffer& input = continuing ? mesh.workBuffer(context) : mesh.input;
    const bool masked = mesh.mask.handle() != VK_NULL_HANDLE;
    auto all = [](const GpuBuffer& buffer) { return VkDescriptorBufferInfo{buffer.handle(), 0, VK_WHOLE_SIZE}; };
    DeformBuffers buffers;
    buffers.input = all(input);
    buffers.output = all(mesh.output);
    if (statistics) buffers.statistics = all(mesh.statisticsBuffer(context));
    buffers.scratch = mesh.scratch.buffers();
    if (masked) buffers.mask = all(mesh.mask);
    if (kernel.computeVolumeChange) buffers.volumeChanges = all(mesh.volumeChangeBuffer(context));
    if (kernel.carryBound) buffers.carriedBounds = all(mesh.carriedBoundBuffer(context));
    deform.write(context, descriptorSet, buffers);

    SF_VK_CHECK(ctx.vk.vkResetCommandBuffer(commands, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SF_VK_CHECK(ctx.vk.vkBeginCommandBuffer(commands, &begin));
    if (timestamps) {
        ctx.vk.vkCmdResetQueryPool(commands, timestamps, 0, 2);
        ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps, 0);
    }
    // The first segment starts every vertex's bound at 0 (recordToolUpload's barrier orders the fill).
    if (kernel.carryBound && !continuing)
        ctx.vk.vkCmdFillBuffer(commands, mesh.carriedBounds.handle(), 0, VK_WHOLE_SIZE, 0);
    deform.recordToolUpload(commands, context, kernel);
    const DeformBinding binding{descriptorSet, {0, 0, 0, 3, 0, 3, 0, 1}, masked};
    using OutputState = GpuMesh::Impl::OutputState;
    // A continuing segment reads a copy of the output and writes every vertex
    // back: the mesh's blocks hold the undeformed positions, so it does not compact.
    const bool compact = !continuing && compaction && compactionPays(kernel, mesh.bounds, masked);
    const DeformScratch* scratch = compact ? &mesh.scratch : nullptr;
    // The compacted path writes a culled vertex only with statistics, so the
    // output must equal the input wherever this run does not solve.
    const bool restoreList = compact && !statistics && mesh.outputState == OutputState::DiffersAtList;
    // Continuing, the segment reads a copy of the output so far; a compacted run
    // after one that wrote anywhere starts from an output equal to the input.
    const bool resetOutput = compact && !statistics && mesh.outputState == OutputState::DiffersAnywhere;
    if (continuing || resetOutput) {
        const VkBufferCopy whole{0, 0, mesh.input.size()};
        const VkBuffer from = continuing ? mesh.output.handle() : mesh.input.handle();
        const VkBuffer to = continuing ? input.handle() : mesh.output.handle();
        ctx.vk.vkCmdCopyBuffer(commands, from, to, 1, &whole);
        // The shaders read the copy and write the output after it (which the copy may have read).
        memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    buildDeformPipelines(pipelines, kernel, statistics, scratch, masked);
    recordDeform(commands, context, pipelines, kernel, statistics, binding, 0, uint32_t(mesh.vertexCount),
                 scratch, restoreList);
    if (timestamps) ctx.vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps, 1);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    ctx.vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                                &toHost, 0, nullptr, 0, nullptr);
    SF_VK_CHECK(ctx.vk.vkEndCommandBuffer(commands));

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    SF_VK_CHECK(ctx.vk.vkResetFences(device, 1, &fence));
    mesh.outputState = OutputState::DiffersAnywhere; // until the run is known to have finished
    SF_VK_CHECK(ctx.vk.vkQueueSubmit(context.queue(), 1, &submit, fence));
    SF_VK_CHECK(ctx.vk.vkWaitForFences(device, 1, &fence, VK_TRUE, kSolveFenceTimeoutNs));
    // The uncompacted pass writes every vertex; the compacted path differs from the input only at its list.
    mesh.outputState = compact ? OutputState::DiffersAtList : OutputState::DiffersAnywhere;

    GpuRun result;
    result.gpuMilliseconds = std::numeric_limits<double>::quiet_NaN();
    uint64_t ticks[2] = {0, 0};
    if (timestamps &&
        ctx.vk.vkGetQueryPoolResults(device, timestamps, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS &&
        ticks[1] >= ticks[0])
        result.gpuMilliseconds = double(ticks[1] - ticks[0]) * context.properties().limits.timestampPeriod * 1e-6;
    if (statistics) {
        std::vector<VertexStatistics> perVertex(mesh.vertexCount);
        downloadBuffer(mesh.statistics, 0, perVertex.data(), perVertex.size() * sizeof(VertexStatistics));
        result.report = summarize(perVertex);
    }
    context.throwOnValidationMessages();
    return result;
}

GpuMesh::GpuMesh(Context& context, std::span<const glm::vec3> positions, std::span<const float> mask)
    : impl_(std::make_unique<Impl>(context, positions, mask)) {}
void GpuMesh::setMask(std::span<const float> mask) { impl_->setMask(*impl_->owner, mask); }
GpuMesh::~GpuMesh() = default;
size_t GpuMesh::vertexCount() const { return impl_->vertexCount; }
VkBuffer GpuMesh::inputBuffer() const { return impl_->input.handle(); }
VkBuffer GpuMesh::outputBuffer() const { return impl_->output.handle(); }

GpuSolver::GpuSolver(Context& context) : impl_(std::make_unique<Impl>(context)) {}
GpuSolver::~GpuSolver() = default;
GpuRun GpuSolver::run(GpuMesh& mesh, const Move& move, const SolverOptions& options, bool statistics) {
    return impl_->run(implOf(mesh), move, options, statistics);
}
GpuRun GpuSolver::runContinuous(GpuMesh& mesh, std::span<const Move> segments, const SolverOptions& options,
                                bool statistics) {
    return impl_->runContinuous(implOf(mesh), segments, options, statistics);
}
Context& GpuSolver::context() const { return impl_->context; }
void GpuSolver::setCompaction(bool compaction) { impl_->compaction = compaction; }
bool GpuSolver::compaction() const { return impl_->compaction; }
void useShader(GpuSolver& solver, std::span<const uint32_t> spirv) {
    implOf(solver).pipelines.replaceShader({spirv, {}});
}

GpuSolution solveOnGpu(GpuSolver& solver, const Move& move, std::span<const glm::vec3> start,
                       const SolverOptions& options, std::span<const float> mask) {
    GpuMesh mesh(solver.context(), start, mask);
    GpuRun run = solver.run(mesh, move, options, true);
    return {mesh.readPositions(), mesh.readStatistics(), run.report, {}, run.gpuMilliseconds, mesh.readVolumeChanges()};
}

GpuSolution solveContinuousOnGpu(GpuSolver& solver, std::span<const Move> segments, std::span<const glm::vec3> start,
                                 const SolverOptions& options, std::span<const float> mask) {
    GpuMesh mesh(solver.context(), start, mask);
    GpuRun run = solver.runContinuous(mesh, segments, options, true);
    GpuSolution out{mesh.readPositions(), mesh.readStatistics(), run.report, std::move(run.segments),
                    run.gpuMilliseconds, mesh.readVolumeChanges()};
    if (checksWholeChain(options, segments.size())) {
        const GpuSolution plain =
            solveContinuousOnGpu(solver, segments, plainChainStart(start), plainChainOptions(options), mask);
        checkAgainstPlainChain(plain.positions, plain.statistics, options.tolerance, out.positions, out.statistics,
                               out.report);
        out.gpuMilliseconds += plain.gpuMilliseconds;
    }
    return out;
}

} // namespace sculptflow
