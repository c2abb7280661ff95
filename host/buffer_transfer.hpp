// Filling and reading buffers that may not be mapped (BufferMemory::GpuRead on a
// Staged context): through a host-visible staging buffer and one copy on the
// context's queue, waited for. Mapped buffers are copied directly.
#pragma once

#include <cstdint>

#include "gpu_buffer.hpp"

namespace sculptflow {

// Writes `bytes` from `data` at `offset` into `buffer`. Later submissions on the
// context's queue see the data. Synchronous; uses the queue like GpuSolver::run.
void uploadBuffer(const GpuBuffer& buffer, VkDeviceSize offset, const void* data, VkDeviceSize bytes);

// Reads `bytes` at `offset` of `buffer` into `data`, after all work submitted
// before on the context's queue. Synchronous.
void downloadBuffer(const GpuBuffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize bytes);

} // namespace sculptflow
