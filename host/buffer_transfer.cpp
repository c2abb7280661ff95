// Staged uploads and readbacks: a staging buffer of at most kStagingBytes, a
// copy per chunk, each submitted and waited for.
#include "buffer_transfer.hpp"

#include <algorithm>
#include <cstring>

#include <sculptflow/error.hpp>
#include "context_impl.hpp"
#include "memory_barrier.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

// Staging memory is held only while a transfer runs; chunks keep it bounded
// whatever the mesh's size.
constexpr VkDeviceSize kStagingBytes = VkDeviceSize(32) << 20;
constexpr uint64_t kTransferFenceTimeoutNs = 60ull * 1000 * 1000 * 1000;

enum class Direction { ToBuffer, FromBuffer };

// One command buffer with one copy, submitted and waited for; everything it
// makes is destroyed before it returns, whatever happens.
class OneCopy {
public:
    explicit OneCopy(Context::Impl& ctx) : ctx_(ctx) {
        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = ctx.queueFamily;
        SF_VK_CHECK(ctx.vk.vkCreateCommandPool(ctx.device, &poolInfo, ctx.allocator, &pool_));
        try {
            VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            allocate.commandPool = pool_;
            allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            allocate.commandBufferCount = 1;
            SF_VK_CHECK(ctx.vk.vkAllocateCommandBuffers(ctx.device, &allocate, &commands_));
            VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            SF_VK_CHECK(ctx.vk.vkCreateFence(ctx.device, &fenceInfo, ctx.allocator, &fence_));
        } catch (...) {
            release();
            throw;
        }
    }
    ~OneCopy() { release(); }
    OneCopy(const OneCopy&) = delete;
    OneCopy& operator=(const OneCopy&) = delete;

    void run(Direction direction, VkBuffer staging, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes) {
        const VulkanFunctions& vk = ctx_.vk;
        SF_VK_CHECK(vk.vkResetCommandBuffer(commands_, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        SF_VK_CHECK(vk.vkBeginCommandBuffer(commands_, &begin));
        // Earlier work on the queue (a run's writes, or its reads of what this overwrites) comes first.
        memoryBarrier(vk, commands_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
        VkBufferCopy region{};
        region.size = bytes;
        if (direction == Direction::ToBuffer) {
            region.dstOffset = offset;
            vk.vkCmdCopyBuffer(commands_, staging, buffer, 1, &region);
            // Later submissions read it from any stage.
            memoryBarrier(vk, commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
        } else {
            region.srcOffset = offset;
            vk.vkCmdCopyBuffer(commands_, buffer, staging, 1, &region);
            memoryBarrier(vk, commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }
        SF_VK_CHECK(vk.vkEndCommandBuffer(commands_));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands_;
        SF_VK_CHECK(vk.vkResetFences(ctx_.device, 1, &fence_));
        SF_VK_CHECK(vk.vkQueueSubmit(ctx_.queue, 1, &submit, fence_));
        const VkResult waited = vk.vkWaitForFences(ctx_.device, 1, &fence_, VK_TRUE, kTransferFenceTimeoutNs);
        if (waited == VK_TIMEOUT)
            throw Error(ErrorCode::Vulkan, "a staging copy did not finish within 60 s", VK_TIMEOUT);
        SF_VK_CHECK(waited);
    }

private:
    void release() {
        if (fence_) ctx_.vk.vkDestroyFence(ctx_.device, fence_, ctx_.allocator);
        if (pool_) ctx_.vk.vkDestroyCommandPool(ctx_.device, pool_, ctx_.allocator); // frees commands_
        fence_ = VK_NULL_HANDLE;
        pool_ = VK_NULL_HANDLE;
    }

    Context::Impl& ctx_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

void checkRange(const GpuBuffer& buffer, VkDeviceSize offset, VkDeviceSize bytes) {
    if (offset > buffer.size() || bytes > buffer.size() - offset)
        throw Error("buffer transfer of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                    " past a buffer of " + std::to_string(buffer.size()));
}

void transfer(Direction direction, const GpuBuffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize bytes) {
    Context::Impl& ctx = buffer.context();
    const VkDeviceSize chunk = std::min(bytes, kStagingBytes);
    // The staging buffer goes through the context, so it counts against its budget.
    Context& context = *ctx.owner;
    GpuBuffer staging(context, chunk, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      "a staging buffer", BufferMemory::HostVisible);
    OneCopy copy(ctx);
    auto* bytesAt = static_cast<uint8_t*>(data);
    for (VkDeviceSize done = 0; done < bytes; done += chunk) {
        const VkDeviceSize part = std::min(chunk, bytes - done);
        if (direction == Direction::ToBuffer) std::memcpy(staging.mapped(), bytesAt + done, part);
        copy.run(direction, staging.handle(), buffer.handle(), offset + done, part);
        if (direction == Direction::FromBuffer) std::memcpy(bytesAt + done, staging.mapped(), part);
    }
}

} // namespace

void uploadBuffer(const GpuBuffer& buffer, VkDeviceSize offset, const void* data, VkDeviceSize bytes) {
    checkRange(buffer, offset, bytes);
    if (bytes == 0) return;
    if (buffer.mapped()) {
        std::memcpy(static_cast<uint8_t*>(buffer.mapped()) + offset, data, bytes);
        return;
    }
    transfer(Direction::ToBuffer, buffer, offset, const_cast<void*>(data), bytes);
}

void downloadBuffer(const GpuBuffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize bytes) {
    checkRange(buffer, offset, bytes);
    if (bytes == 0) return;
    if (buffer.mapped()) {
        std::memcpy(data, static_cast<const uint8_t*>(buffer.mapped()) + offset, bytes);
        return;
    }
    transfer(Direction::FromBuffer, buffer, offset, data, bytes);
}

} // namespace sculptflow
