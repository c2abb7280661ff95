// Allocate, record, submit, wait, free: the viewer's setup-time submissions.
#include "one_time_commands.hpp"

#include <sculptflow/context.hpp>
#include "host/vulkan_check.hpp"

namespace sculptflow::viewer {
namespace {

constexpr uint64_t kOneTimeFenceTimeoutNs = 60ull * 1000 * 1000 * 1000;

} // namespace

void submitAndWait(Context& context, VkCommandPool pool, const std::function<void(VkCommandBuffer)>& record) {
    VkDevice device = context.device();
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    SF_VK_CHECK(vkAllocateCommandBuffers(device, &allocate, &commands));
    VkFence fence = VK_NULL_HANDLE;
    try {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        SF_VK_CHECK(vkBeginCommandBuffer(commands, &begin));
        record(commands);
        SF_VK_CHECK(vkEndCommandBuffer(commands));
        const VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_VK_CHECK(vkCreateFence(device, &fenceInfo, nullptr, &fence));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        SF_VK_CHECK(vkQueueSubmit(context.queue(), 1, &submit, fence));
        SF_VK_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, kOneTimeFenceTimeoutNs));
    } catch (...) {
        vkQueueWaitIdle(context.queue());
        if (fence) vkDestroyFence(device, fence, nullptr);
        vkFreeCommandBuffers(device, pool, 1, &commands);
        throw;
    }
    vkDestroyFence(device, fence, nullptr);
    vkFreeCommandBuffers(device, pool, 1, &commands);
}

} // namespace sculptflow::viewer
