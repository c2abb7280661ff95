// Buffers with their own memory: create, bind, map, and free in reverse order.
#include "gpu_buffer.hpp"

#include <utility>

#include "context_impl.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

GpuBuffer::GpuBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, const char* what,
                     BufferMemory memory)
    : ctx_(&implOf(context)), size_(size) {
    Context::Impl& ctx = *ctx_;
    if (memory == BufferMemory::GpuRead) {
        memory = ctx.placement == BufferPlacement::Staged ? BufferMemory::DeviceLocal : BufferMemory::HostVisible;
        usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT; // staging copies
    }
    ctx.reserveMemory(size, what); // before any Vulkan call: nothing to undo if refused
    reserved_ = size;
    try {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = size;
        info.usage = usage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        SF_VK_CHECK(ctx.vk.vkCreateBuffer(ctx.device, &info, ctx.allocator, &buffer_));
        VkMemoryRequirements requirements;
        ctx.vk.vkGetBufferMemoryRequirements(ctx.device, buffer_, &requirements);
        VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocation.allocationSize = requirements.size;
        const bool hostVisible = memory == BufferMemory::HostVisible;
        allocation.memoryTypeIndex =
            hostVisible ? ctx.memoryType(requirements.memoryTypeBits,
                                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
                        : ctx.memoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        ctx.checkHeap(allocation.memoryTypeIndex, allocation.allocationSize, what, reserved_);
        SF_VK_CHECK(ctx.vk.vkAllocateMemory(ctx.device, &allocation, ctx.allocator, &memory_));
        SF_VK_CHECK(ctx.vk.vkBindBufferMemory(ctx.device, buffer_, memory_, 0));
        ctx.name(VK_OBJECT_TYPE_BUFFER, buffer_, what);
        if (hostVisible) SF_VK_CHECK(ctx.vk.vkMapMemory(ctx.device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
    } catch (...) {
        release();
        throw;
    }
}

GpuBuffer::~GpuBuffer() { release(); }

GpuBuffer::GpuBuffer(GpuBuffer&& other) noexcept { *this = std::move(other); }

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
    if (this != &other) {
        release();
        ctx_ = std::exchange(other.ctx_, nullptr);
        reserved_ = std::exchange(other.reserved_, 0);
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, nullptr);
    }
    return *this;
}

void GpuBuffer::release() {
    if (!ctx_) return;
    Context::Impl& ctx = *ctx_;
    if (buffer_) ctx.vk.vkDestroyBuffer(ctx.device, buffer_, ctx.allocator);
    if (memory_) ctx.vk.vkFreeMemory(ctx.device, memory_, ctx.allocator); // unmaps implicitly
    if (reserved_) ctx.releaseMemory(reserved_);
    reserved_ = 0;
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

} // namespace sculptflow
