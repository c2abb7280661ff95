// Recording, submitting and reading back one deform dispatch.
#include "gpu_solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "error.hpp"
#include "deform_recorder.hpp"
#include "kernel_tools.hpp"
#include "memory_barrier.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
// The input is copied over the whole output when a run cannot tell where it differs.
constexpr VkBufferUsageFlags kPositions =
    kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
// A bounded dispatch cannot hang, but a driver fault could: never wait forever.
constexpr uint64_t kFenceTimeoutNs = 300ull * 1000 * 1000 * 1000;

VkDeviceSize positionBytes(size_t vertices) { return std::max<VkDeviceSize>(12 * vertices, 16); }

} // namespace

GpuMesh::GpuMesh(Context& context, std::span<const glm::vec3> positions)
    : vertexCount_(positions.size()),
      input_(context, positionBytes(positions.size()), kPositions, "mesh input positions"),
      output_(context, positionBytes(positions.size()), kPositions, "mesh output positions"),
      scratch_(context, uint32_t(positions.size()), positions) {
    static_assert(sizeof(glm::vec3) == 12);
    if (!positions.empty()) bounds_ = {positions.front(), positions.front()};
    for (const glm::vec3& p : positions) bounds_ = {glm::min(bounds_.min, p), glm::max(bounds_.max, p)};
    std::memcpy(input_.mapped(), positions.data(), positions.size_bytes());
    std::memcpy(output_.mapped(), positions.data(), positions.size_bytes());
}

std::vector<glm::vec3> GpuMesh::readPositions() const {
    std::vector<glm::vec3> out(vertexCount_);
    std::memcpy(out.data(), output_.mapped(), out.size() * sizeof(glm::vec3));
    return out;
}

std::vector<VertexStatistics> GpuMesh::readStatistics() const {
    if (!statistics_.handle()) return {};
    static_assert(sizeof(VertexStatistics) == 16); // uvec4 in deform.comp
    std::vector<VertexStatistics> out(vertexCount_);
    std::memcpy(out.data(), statistics_.mapped(), out.size() * sizeof(VertexStatistics));
    return out;
}

const GpuBuffer& GpuMesh::statisticsBuffer(Context& context) {
    if (!statistics_.handle())
        statistics_ = GpuBuffer(context, std::max<VkDeviceSize>(16 * vertexCount_, 16), kStorage,
                                "per-vertex statistics");
    return statistics_;
}

GpuSolver::GpuSolver(Context& context)
    : context_(context),
      pipelines_(context),
      tools_(context, sizeof(ToolBlock), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT),
      noStatistics_(context, 16, kStorage) {
    VkDevice device = context.device();
    try {
        const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDeformBindingCount - 1}};
        VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        poolInfo.maxSets = 1;
        poolInfo.poolSizeCount = 2;
        poolInfo.pPoolSizes = sizes;
        SF_VK_CHECK(vkCreateDescriptorPool(device, &poolInfo, nullptr, &descriptorPool_));
        VkDescriptorSetLayout setLayout = pipelines_.setLayout();
        VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        setInfo.descriptorPool = descriptorPool_;
        setInfo.descriptorSetCount = 1;
        setInfo.pSetLayouts = &setLayout;
        SF_VK_CHECK(vkAllocateDescriptorSets(device, &setInfo, &descriptorSet_));

        VkCommandPoolCreateInfo commandPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        commandPoolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        commandPoolInfo.queueFamilyIndex = context.queueFamily();
        SF_VK_CHECK(vkCreateCommandPool(device, &commandPoolInfo, nullptr, &commandPool_));
        VkCommandBufferAllocateInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        commandInfo.commandPool = commandPool_;
        commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        commandInfo.commandBufferCount = 1;
        SF_VK_CHECK(vkAllocateCommandBuffers(device, &commandInfo, &commands_));

        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_VK_CHECK(vkCreateFence(device, &fenceInfo, nullptr, &fence_));
        VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
        queryInfo.queryCount = 2;
        SF_VK_CHECK(vkCreateQueryPool(device, &queryInfo, nullptr, &timestamps_));
    } catch (...) {
        release();
        throw;
    }
}

GpuSolver::~GpuSolver() { release(); }

void GpuSolver::release() {
    VkDevice device = context_.device();
    if (timestamps_) vkDestroyQueryPool(device, timestamps_, nullptr);
    if (fence_) vkDestroyFence(device, fence_, nullptr);
    if (commandPool_) vkDestroyCommandPool(device, commandPool_, nullptr);
    if (descriptorPool_) vkDestroyDescriptorPool(device, descriptorPool_, nullptr);
    timestamps_ = VK_NULL_HANDLE;
    fence_ = VK_NULL_HANDLE;
    commandPool_ = VK_NULL_HANDLE;
    descriptorPool_ = VK_NULL_HANDLE;
}

GpuRun GpuSolver::run(GpuMesh& mesh, const Move& move, const SolverOptions& options, bool statistics) {
    kernel::Kernel kernel = makeKernel(move, options); // validates, throws before any GPU work
    VkDevice device = context_.device();

    ToolBlock block{};
    std::copy(std::begin(kernel.tools), std::end(kernel.tools), std::begin(block.tools));
    std::memcpy(tools_.mapped(), &block, sizeof(block));

    const GpuBuffer& statisticsBuffer = statistics ? mesh.statisticsBuffer(context_) : noStatistics_;
    const VkDescriptorBufferInfo buffers[] = {{tools_.handle(), 0, VK_WHOLE_SIZE},
                                              {mesh.input_.handle(), 0, VK_WHOLE_SIZE},
                                              {mesh.output_.handle(), 0, VK_WHOLE_SIZE},
                                              {statisticsBuffer.handle(), 0, VK_WHOLE_SIZE},
                                              mesh.scratch_.buffers()[0],
                                              mesh.scratch_.buffers()[1],
                                              mesh.scratch_.buffers()[2],
                                              mesh.scratch_.buffers()[3],
                                              mesh.scratch_.buffers()[4]};
    static_assert(std::size(buffers) == kDeformBindingCount);
    VkWriteDescriptorSet writes[kDeformBindingCount];
    for (uint32_t i = 0; i < kDeformBindingCount; ++i) {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = descriptorSet_;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = i == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &buffers[i];
    }
    vkUpdateDescriptorSets(device, kDeformBindingCount, writes, 0, nullptr);

    SF_VK_CHECK(vkResetCommandBuffer(commands_, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SF_VK_CHECK(vkBeginCommandBuffer(commands_, &begin));
    vkCmdResetQueryPool(commands_, timestamps_, 0, 2);
    vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 0);
    const DeformBinding binding{descriptorSet_, {0, 0, 0, 3, 0, 3}};
    const bool compact = compaction_ && !boxWithinReach(kernel, mesh.bounds_);
    const DeformScratch* scratch = compact ? &mesh.scratch_ : nullptr;
    // The compacted path writes a culled vertex only with statistics, so the
    // output must equal the input wherever this run does not solve.
    const bool restoreList = compact && !statistics && mesh.outputState_ == GpuMesh::OutputState::DiffersAtList;
    if (compact && !statistics && mesh.outputState_ == GpuMesh::OutputState::DiffersAnywhere) {
        const VkBufferCopy whole{0, 0, mesh.input_.size()};
        vkCmdCopyBuffer(commands_, mesh.input_.handle(), mesh.output_.handle(), 1, &whole);
        memoryBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    }
    buildDeformPipelines(pipelines_, kernel, statistics, scratch);
    recordDeform(commands_, context_, pipelines_, kernel, statistics, binding, 0, uint32_t(mesh.vertexCount()),
                 scratch, restoreList);
    vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 1);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &toHost, 0, nullptr, 0, nullptr);
    SF_VK_CHECK(vkEndCommandBuffer(commands_));

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    SF_VK_CHECK(vkResetFences(device, 1, &fence_));
    mesh.outputState_ = GpuMesh::OutputState::DiffersAnywhere; // until the run is known to have finished
    SF_VK_CHECK(vkQueueSubmit(context_.queue(), 1, &submit, fence_));
    SF_VK_CHECK(vkWaitForFences(device, 1, &fence_, VK_TRUE, kFenceTimeoutNs));
    // The uncompacted pass writes every vertex; the compacted path differs from the input only at its list.
    mesh.outputState_ = compact ? GpuMesh::OutputState::DiffersAtList : GpuMesh::OutputState::DiffersAnywhere;

    GpuRun result;
    uint64_t ticks[2] = {0, 0};
    VkResult query = vkGetQueryPoolResults(device, timestamps_, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    result.gpuMilliseconds = query == VK_SUCCESS && ticks[1] >= ticks[0]
                                 ? double(ticks[1] - ticks[0]) * context_.properties().limits.timestampPeriod * 1e-6
                                 : std::numeric_limits<double>::quiet_NaN();
    if (statistics) result.report = summarize(mesh.readStatistics());
    context_.throwOnValidationMessages();
    return result;
}

GpuSolution solveOnGpu(GpuSolver& solver, const Move& move, std::span<const glm::vec3> start,
                       const SolverOptions& options) {
    GpuMesh mesh(solver.context(), start);
    GpuRun run = solver.run(mesh, move, options, true);
    return {mesh.readPositions(), mesh.readStatistics(), run.report, run.gpuMilliseconds};
}

} // namespace sculptflow
