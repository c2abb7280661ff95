// A Vulkan buffer with its own memory, host-visible or device-local.
#pragma once

#include <sculptflow/context.hpp>

namespace sculptflow {

// Where a buffer lives: host-visible memory is mapped for its whole life.
enum class BufferMemory {
    HostVisible, // and coherent; device-local too where the device offers it
    DeviceLocal, // not mapped: filled by the GPU (copies, vkCmdUpdateBuffer, shaders)
    // Read by the GPU every run: HostVisible where the context's placement is
    // Mapped, DeviceLocal where it is Staged. Fill and read it with uploadBuffer
    // and downloadBuffer (buffer_transfer.hpp), which work either way.
    GpuRead,
};

// A buffer and its own memory. The headless path uploads and reads back through
// the mapping; the renderer's path keeps per-frame data device-local. Move-only.
class GpuBuffer {
public:
    GpuBuffer() = default;
    // `what` names the buffer in errors (an exceeded memory budget, say).
    GpuBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, const char* what = "a buffer",
              BufferMemory memory = BufferMemory::HostVisible);
    ~GpuBuffer();
    GpuBuffer(GpuBuffer&& other) noexcept;
    GpuBuffer& operator=(GpuBuffer&& other) noexcept;
    GpuBuffer(const GpuBuffer&) = delete;
    GpuBuffer& operator=(const GpuBuffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    Context::Impl& context() const { return *ctx_; }
    void* mapped() const { return mapped_; } // null for BufferMemory::DeviceLocal

private:
    void release();

    Context::Impl* ctx_ = nullptr;
    VkDeviceSize reserved_ = 0; // counted against the context's memory budget
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

} // namespace sculptflow
