// A buffer in host-visible memory, mapped for its whole life.
#pragma once

#include <volk.h>

namespace sculptflow {

class Context;

// Host-visible and coherent (device-local too where the device offers it), so
// the headless path uploads and reads back through the mapping. Move-only.
class GpuBuffer {
public:
    GpuBuffer() = default;
    // `what` names the buffer in errors (an exceeded memory budget, say).
    GpuBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, const char* what = "a buffer");
    ~GpuBuffer();
    GpuBuffer(GpuBuffer&& other) noexcept;
    GpuBuffer& operator=(GpuBuffer&& other) noexcept;
    GpuBuffer(const GpuBuffer&) = delete;
    GpuBuffer& operator=(const GpuBuffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    void* mapped() const { return mapped_; }

private:
    void release();

    Context* context_ = nullptr;
    VkDevice device_ = VK_NULL_HANDLE;
    VkDeviceSize reserved_ = 0; // counted against the context's memory budget
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

} // namespace sculptflow
