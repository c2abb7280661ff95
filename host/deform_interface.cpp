// deform.comp's descriptor writes, tool upload and compaction choice, shared by
// GpuSolver and LiveMove.
#include "deform_interface.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <sculptflow/error.hpp>
#include "src/chunk_reach.hpp"
#include "context_impl.hpp"
#include "memory_barrier.hpp"

namespace sculptflow {
namespace {

constexpr uint32_t countOf(VkDescriptorType type) {
    return uint32_t(std::count_if(kDeformBindings.begin(), kDeformBindings.end(),
                                  [type](const HostBinding& b) { return b.type == type; }));
}
static_assert(countOf(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) + countOf(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) ==
              kDeformBindingCount, "deformPoolSizes counts only these two types");
static_assert(kDeformMask - kDeformScratchFirst == std::tuple_size_v<decltype(DeformBuffers::scratch)>);

} // namespace

void checkDeformShader(std::span<const uint32_t> spirv, const std::string& shader) {
    checkShaderBindings(spirv, kDeformBindings, shader);
    const std::optional<uint32_t> version = specializationDefault(spirv, kDeformInterfaceVersionId);
    if (version == kDeformInterfaceVersion) return;
    throw Error(ErrorCode::ShaderCompile,
                shader + " is for another version of sculptflow: it declares " +
                    (version ? "interface version " + std::to_string(*version) : std::string("no interfaceVersion")) +
                    ", and this library needs " + std::to_string(kDeformInterfaceVersion) +
                    ". Export the shaders again (`sculptflow shaders export DIR`) and carry your edits over.");
}

std::array<VkDescriptorPoolSize, 2> deformPoolSizes(uint32_t sets, uint32_t otherStorage) {
    return {{{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, sets * countOf(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)},
             {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sets * countOf(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) + otherStorage}}};
}

DeformInterface::DeformInterface(Context& context)
    : tools_(context, sizeof(ToolBlock), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
             "the tool block", BufferMemory::DeviceLocal),
      placeholder_(context, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the unused bindings' placeholder",
                   BufferMemory::DeviceLocal) {}

void DeformInterface::write(const Context& context, VkDescriptorSet set, const DeformBuffers& buffers) const {
    const Context::Impl& ctx = implOf(context);
    auto orPlaceholder = [&](const VkDescriptorBufferInfo& info) {
        return info.buffer ? info : VkDescriptorBufferInfo{placeholder_.handle(), 0, VK_WHOLE_SIZE};
    };
    std::array<VkDescriptorBufferInfo, kDeformBindingCount> infos;
    infos[kDeformTools] = {tools_.handle(), 0, VK_WHOLE_SIZE};
    infos[kDeformInput] = buffers.input;
    infos[kDeformOutput] = buffers.output;
    infos[kDeformStatistics] = orPlaceholder(buffers.statistics);
    std::copy(buffers.scratch.begin(), buffers.scratch.end(), infos.begin() + kDeformScratchFirst);
    infos[kDeformMask] = orPlaceholder(buffers.mask);
    infos[kDeformVolumeChanges] = orPlaceholder(buffers.volumeChanges);
    infos[kDeformCarriedBounds] = orPlaceholder(buffers.carriedBounds);
    std::array<VkWriteDescriptorSet, kDeformBindingCount> writes;
    for (uint32_t i = 0; i < kDeformBindingCount; ++i) {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = kDeformBindings[i].type;
        writes[i].pBufferInfo = &infos[i];
    }
    ctx.vk.vkUpdateDescriptorSets(ctx.device, kDeformBindingCount, writes.data(), 0, nullptr);
}

void DeformInterface::recordToolUpload(VkCommandBuffer commands, const Context& context,
                                       const kernel::Kernel& kernel) const {
    const Context::Impl& ctx = implOf(context);
    ToolBlock block{};
    std::copy(std::begin(kernel.tools), std::end(kernel.tools), std::begin(block.tools));
    ctx.vk.vkCmdUpdateBuffer(commands, tools_.handle(), 0, sizeof(block), &block);
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);
}

bool compactionPays(kernel::Kernel& kernel, const Bounds& bounds, bool masked) {
    return masked || !boxWithinReach(kernel, bounds);
}

} // namespace sculptflow
