// Command buffers, fences and semaphores of the frames in flight.
#include "frame_ring.hpp"

#include "host/vulkan_check.hpp"

namespace sculptflow::viewer {
namespace {

constexpr uint64_t kFrameFenceTimeoutNs = 60ull * 1000 * 1000 * 1000;

} // namespace

FrameRing::FrameRing(VkDevice device, uint32_t queueFamily) : device_(device) {
    try {
        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = queueFamily;
        SF_VK_CHECK(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_));
        VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocate.commandPool = pool_;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = kFramesInFlight;
        SF_VK_CHECK(vkAllocateCommandBuffers(device, &allocate, commands_.data()));
        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        const VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        for (uint32_t i = 0; i < kFramesInFlight; ++i) {
            SF_VK_CHECK(vkCreateFence(device, &fenceInfo, nullptr, &fences_[i]));
            SF_VK_CHECK(vkCreateSemaphore(device, &semaphoreInfo, nullptr, &acquired_[i]));
        }
    } catch (...) {
        release();
        throw;
    }
}

FrameRing::~FrameRing() { release(); }

void FrameRing::release() {
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
        if (fences_[i]) vkDestroyFence(device_, fences_[i], nullptr);
        if (acquired_[i]) vkDestroySemaphore(device_, acquired_[i], nullptr);
        fences_[i] = VK_NULL_HANDLE;
        acquired_[i] = VK_NULL_HANDLE;
    }
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr); // frees the command buffers
    pool_ = VK_NULL_HANDLE;
}

void FrameRing::wait(uint32_t slot) const {
    SF_VK_CHECK(vkWaitForFences(device_, 1, &fences_[slot], VK_TRUE, kFrameFenceTimeoutNs));
}

VkCommandBuffer FrameRing::begin(uint32_t slot) const {
    SF_VK_CHECK(vkResetFences(device_, 1, &fences_[slot]));
    SF_VK_CHECK(vkResetCommandBuffer(commands_[slot], 0));
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SF_VK_CHECK(vkBeginCommandBuffer(commands_[slot], &info));
    return commands_[slot];
}

} // namespace sculptflow::viewer
