// The barriers at the edges of LiveMove::record(), in synchronization2 terms:
// recorded with vkCmdPipelineBarrier2 where the Context has synchronization2,
// and as a Vulkan 1.2 barrier with the flags mapped down elsewhere.
#pragma once

#include <span>

#include <sculptflow/live_move.hpp>
#include "context_impl.hpp"

namespace sculptflow {

// Vulkan 1.2's flags for synchronization2's: the bits the two share stay, the
// newer ones become the older ones that cover them (COPY → TRANSFER,
// VERTEX_ATTRIBUTE_INPUT → VERTEX_INPUT, SHADER_STORAGE_READ → SHADER_READ, …);
// ones without an older form widen to ALL_COMMANDS / MEMORY_READ|WRITE.
VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 stages);
VkAccessFlags legacyAccesses(VkAccessFlags2 accesses);

// A global memory barrier from `src` to `dst`. No stages: TOP_OF_PIPE as a source,
// BOTTOM_OF_PIPE as a destination (an execution dependency on nothing).
void scopedBarrier(const Context::Impl& ctx, VkCommandBuffer commands, const AccessScope& src,
                   const AccessScope& dst);

// Queue family ownership transfers of `ranges` from family `from` to family `to`:
// the acquire half (src without stages) or the release half (dst without stages).
void ownershipTransfer(const Context::Impl& ctx, VkCommandBuffer commands, std::span<const BufferAccess> ranges,
                       uint32_t from, uint32_t to, const AccessScope& src, const AccessScope& dst);

} // namespace sculptflow
