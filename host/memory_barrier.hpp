// The one kind of barrier this library records: a global memory barrier. Its
// buffers are bound whole, so a buffer barrier would cover the same bytes.
#pragma once

#include "vulkan_functions.hpp"

namespace sculptflow {

inline void memoryBarrier(const VulkanFunctions& vk, VkCommandBuffer commands, VkPipelineStageFlags srcStages,
                          VkAccessFlags srcAccess, VkPipelineStageFlags dstStages, VkAccessFlags dstAccess) {
    VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    memory.srcAccessMask = srcAccess;
    memory.dstAccessMask = dstAccess;
    vk.vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

} // namespace sculptflow
