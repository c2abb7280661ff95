// Synchronization2 barriers, or their Vulkan 1.2 form.
#include "scoped_barrier.hpp"

#include <array>

namespace sculptflow {

namespace {

constexpr VkFlags64 kLowBits = 0xFFFFFFFFull; // where the 1.2 and synchronization2 bits coincide

} // namespace

VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 stages) {
    VkPipelineStageFlags legacy = VkPipelineStageFlags(stages & kLowBits);
    const VkPipelineStageFlags2 transfers = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                                            VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT;
    const VkPipelineStageFlags2 vertexInput =
        VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    if (stages & transfers) legacy |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (stages & vertexInput) legacy |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    if (stages & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
        legacy |= VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT |
                  VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT;
    if (stages & ~(kLowBits | transfers | vertexInput | VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT))
        legacy |= VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    return legacy;
}

VkAccessFlags legacyAccesses(VkAccessFlags2 accesses) {
    VkAccessFlags legacy = VkAccessFlags(accesses & kLowBits);
    const VkAccessFlags2 reads = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    if (accesses & reads) legacy |= VK_ACCESS_SHADER_READ_BIT;
    if (accesses & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) legacy |= VK_ACCESS_SHADER_WRITE_BIT;
    if (accesses & ~(kLowBits | reads | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT))
        legacy |= VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    return legacy;
}

void scopedBarrier(const Context::Impl& ctx, VkCommandBuffer commands, const AccessScope& src,
                   const AccessScope& dst) {
    if (ctx.vk.vkCmdPipelineBarrier2) {
        VkMemoryBarrier2 memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        memory.srcStageMask = src.stages;
        memory.srcAccessMask = src.accesses;
        memory.dstStageMask = dst.stages;
        memory.dstAccessMask = dst.accesses;
        VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.memoryBarrierCount = 1;
        dependency.pMemoryBarriers = &memory;
        ctx.vk.vkCmdPipelineBarrier2(commands, &dependency);
        return;
    }
    VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    memory.srcAccessMask = legacyAccesses(src.accesses);
    memory.dstAccessMask = legacyAccesses(dst.accesses);
    const VkPipelineStageFlags srcStages =
        src.stages ? legacyStages(src.stages) : VkPipelineStageFlags(VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    const VkPipelineStageFlags dstStages =
        dst.stages ? legacyStages(dst.stages) : VkPipelineStageFlags(VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    ctx.vk.vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void ownershipTransfer(const Context::Impl& ctx, VkCommandBuffer commands, std::span<const BufferAccess> ranges,
                       uint32_t from, uint32_t to, const AccessScope& src, const AccessScope& dst) {
    if (ranges.empty()) return;
    if (ctx.vk.vkCmdPipelineBarrier2) {
        std::array<VkBufferMemoryBarrier2, kMaxOwnershipTransfers> barriers{};
        for (size_t i = 0; i < ranges.size(); ++i) {
            VkBufferMemoryBarrier2& b = barriers[i];
            b = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
            b.srcStageMask = src.stages;
            b.srcAccessMask = src.accesses;
            b.dstStageMask = dst.stages;
            b.dstAccessMask = dst.accesses;
            b.srcQueueFamilyIndex = from;
            b.dstQueueFamilyIndex = to;
            b.buffer = ranges[i].buffer;
            b.offset = ranges[i].offset;
            b.size = ranges[i].size;
        }
        VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.bufferMemoryBarrierCount = uint32_t(ranges.size());
        dependency.pBufferMemoryBarriers = barriers.data();
        ctx.vk.vkCmdPipelineBarrier2(commands, &dependency);
        return;
    }
    std::array<VkBufferMemoryBarrier, kMaxOwnershipTransfers> barriers{};
    for (size_t i = 0; i < ranges.size(); ++i) {
        VkBufferMemoryBarrier& b = barriers[i];
        b = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
        b.srcAccessMask = legacyAccesses(src.accesses);
        b.dstAccessMask = legacyAccesses(dst.accesses);
        b.srcQueueFamilyIndex = from;
        b.dstQueueFamilyIndex = to;
        b.buffer = ranges[i].buffer;
        b.offset = ranges[i].offset;
        b.size = ranges[i].size;
    }
    const VkPipelineStageFlags srcStages =
        src.stages ? legacyStages(src.stages) : VkPipelineStageFlags(VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    const VkPipelineStageFlags dstStages =
        dst.stages ? legacyStages(dst.stages) : VkPipelineStageFlags(VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    ctx.vk.vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 0, nullptr, uint32_t(ranges.size()),
                                barriers.data(), 0, nullptr);
}

} // namespace sculptflow
