// Buffers with their own memory: create, bind, map, and free in reverse order.
#include "gpu_buffer.hpp"

#include <utility>

#include "context.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

GpuBuffer::GpuBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, const char* what,
                     BufferMemory memory)
    : context_(&context), device_(context.device()), size_(size) {
    context.reserveMemory(size, what); // before any Vulkan call: nothing to undo if refused
    reserved_ = size;
    try {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = size;
        info.usage = usage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        SF_VK_CHECK(vkCreateBuffer(device_, &info, nullptr, &buffer_));
        VkMemoryRequirements requirements;
        vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
        VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocation.allocationSize = requirements.size;
        const bool hostVisible = memory == BufferMemory::HostVisible;
        allocation.memoryTypeIndex =
            hostVisible ? context.memoryType(requirements.memoryTypeBits,
                                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
                        : context.memoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        SF_VK_CHECK(vkAllocateMemory(device_, &allocation, nullptr, &memory_));
        SF_VK_CHECK(vkBindBufferMemory(device_, buffer_, memory_, 0));
        if (hostVisible) SF_VK_CHECK(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
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
        context_ = std::exchange(other.context_, nullptr);
        device_ = std::exchange(other.device_, VK_NULL_HANDLE);
        reserved_ = std::exchange(other.reserved_, 0);
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, nullptr);
    }
    return *this;
}

void GpuBuffer::release() {
    if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr); // unmaps implicitly
    if (context_ && reserved_) context_->releaseMemory(reserved_);
    reserved_ = 0;
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

} // namespace sculptflow
