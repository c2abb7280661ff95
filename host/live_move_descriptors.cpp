// LiveMove's descriptor sets: the renderer's streams, the snapshot and the
// library's buffers bound to deform.comp (move and continuous mode), normals.comp
// and restore.comp (positions and normals).
#include "live_move_impl.hpp"

#include <algorithm>
#include <string>

#include <sculptflow/error.hpp>
#include "context_impl.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

void LiveMove::Impl::createDescriptors(const RendererMesh& mesh) {
    const Context::Impl& ctx = implOf(context_);
    VkDevice device = context_.device();
    // Two deform sets (move and continuous mode), normals (4 buffers) and two restores (2 each).
    const auto sizes = deformPoolSizes(2, 4 + 2 * 2);
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 5;
    poolInfo.poolSizeCount = uint32_t(sizes.size());
    poolInfo.pPoolSizes = sizes.data();
    SF_VK_CHECK(ctx.vk.vkCreateDescriptorPool(device, &poolInfo, ctx.allocator, &descriptorPool_));
    auto allocate = [&](VkDescriptorSetLayout layout) {
        VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        info.descriptorPool = descriptorPool_;
        info.descriptorSetCount = 1;
        info.pSetLayouts = &layout;
        VkDescriptorSet set = VK_NULL_HANDLE;
        SF_VK_CHECK(ctx.vk.vkAllocateDescriptorSets(device, &info, &set));
        return set;
    };

    // A renderer buffer is bound from its offset rounded down to the device's
    // alignment; the shaders add the rest as a float offset.
    const VkDeviceSize alignment = context_.properties().limits.minStorageBufferOffsetAlignment;
    const VkDeviceSize maxRange = context_.properties().limits.maxStorageBufferRange;
    // elementBytes: 12 for float xyz, 4 for a mask value.
    auto bindStream = [&](const auto& stream, VkDeviceSize elementBytes, const char* name, uint32_t& floatOffset) {
        VkDescriptorBufferInfo info{stream.buffer, stream.offset / alignment * alignment, 0};
        info.range = stream.offset + VkDeviceSize(vertexCount_ - 1) * stream.stride + elementBytes - info.offset;
        if (info.range > maxRange)
            throw Error(std::string("mesh.") + name + ": " + std::to_string(info.range) +
                        " bytes exceed the device's maxStorageBufferRange; split the mesh");
        floatOffset = uint32_t((stream.offset - info.offset) / 4);
        return info;
    };
    uint32_t positionFloatOffset = 0;
    const VkDescriptorBufferInfo positions = bindStream(mesh.positions, 12, "positions", positionFloatOffset);
    const uint32_t positionStride = mesh.positions.stride / 4;
    const uint32_t snapshotFloatOffset =
        uint32_t((spans_.front().snapshotOffset + mesh.positions.offset - spans_.front().begin) / 4);

    uint32_t maskFloatOffset = 0;
    const VkDescriptorBufferInfo mask =
        hasMask_ ? bindStream(mesh.mask, 4, "mask", maskFloatOffset) : VkDescriptorBufferInfo{};
    const uint32_t maskStride = hasMask_ ? mesh.mask.stride / 4 : 0;

    // Move mode reads the snapshot; continuous mode reads the positions it writes,
    // each invocation its own vertex.
    deformBinding_ = {allocate(pipelines_.deform().setLayout()),
                      {0, 0, snapshotFloatOffset, positionStride, positionFloatOffset, positionStride,
                       maskFloatOffset, maskStride},
                      hasMask_};
    continuousBinding_ = deformBinding_;
    continuousBinding_.set = allocate(pipelines_.deform().setLayout());
    continuousBinding_.layout.inputOffset = positionFloatOffset;
    const VkDescriptorBufferInfo snapshot{snapshot_.handle(), 0, VK_WHOLE_SIZE};
    if (hasStatistics_ && 16 * VkDeviceSize(vertexCount_) > maxRange)
        throw Error("mesh.statistics: " + std::to_string(16 * VkDeviceSize(vertexCount_)) +
                    " bytes exceed the device's maxStorageBufferRange; split the mesh");
    const VkDescriptorBufferInfo statistics =
        hasStatistics_ ? VkDescriptorBufferInfo{mesh.statistics, 0, 16 * VkDeviceSize(vertexCount_)}
                       : VkDescriptorBufferInfo{};
    DeformBuffers buffers; // no volume changes: placeholders
    buffers.input = snapshot;
    buffers.output = positions;
    buffers.statistics = statistics;
    buffers.scratch = deformScratch_.buffers();
    buffers.mask = mask;
    deform_.write(context_, deformBinding_.set, buffers);
    buffers.input = positions;
    deform_.write(context_, continuousBinding_.set, buffers);

    VkWriteDescriptorSet writes[4 + 2 * 2];
    uint32_t writeCount = 0;
    auto writeStorage = [&](VkDescriptorSet set, uint32_t binding, const VkDescriptorBufferInfo* info) {
        VkWriteDescriptorSet& w = writes[writeCount++];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = info;
    };

    // Restores read the snapshot, a byte copy of the spans: a stream's floats sit
    // there at its offset from its span's start, with its own stride.
    auto snapshotFloatOffsetOf = [&](const VertexStream& stream) {
        for (const Span& span : spans_)
            if (span.buffer == stream.buffer && span.begin <= stream.offset && stream.offset < span.end)
                return uint32_t((span.snapshotOffset + stream.offset - span.begin) / 4);
        throw Error(ErrorCode::InvalidState, "internal: a stream outside the snapshot's spans");
    };
    VkDescriptorBufferInfo restoreBuffers[2];
    uint32_t restoreNormalOffset = 0;
    const VkDescriptorBufferInfo normals =
        hasNormals_ ? bindStream(mesh.normals, 12, "normals", restoreNormalOffset) : VkDescriptorBufferInfo{};
    for (int stream = 0; stream < (hasNormals_ ? 2 : 1); ++stream) {
        restoreSets_[stream] = allocate(pipelines_.restore().setLayout());
        restoreBuffers[stream] = stream == 0 ? positions : normals;
        writeStorage(restoreSets_[stream], 0, &snapshot);
        writeStorage(restoreSets_[stream], 1, &restoreBuffers[stream]);
        const VertexStream& source = stream == 0 ? mesh.positions : mesh.normals;
        restoreLayouts_[stream] = {0, 0, snapshotFloatOffsetOf(source), source.stride / 4,
                                   stream == 0 ? positionFloatOffset : restoreNormalOffset, source.stride / 4};
    }

    positionsRange_ = positions;
    if (hasNormals_) normalsRange_ = normals;
    if (hasMask_) maskRange_ = mask;
    if (hasStatistics_) statisticsRange_ = statistics;
    listTransferRanges();

    VkDescriptorBufferInfo normalsBuffers[4];
    if (hasNormals_) {
        normalsSet_ = allocate(pipelines_.normals().setLayout());
        normalsBuffers[0] = positions;
        normalsBuffers[1] = {adjacencyStart_.handle(), 0, VK_WHOLE_SIZE};
        normalsBuffers[2] = {adjacencyPairs_.handle(), 0, VK_WHOLE_SIZE};
        normalsBuffers[3] = normals;
        normalsLayout_ = {0, 0, positionFloatOffset, positionStride, restoreNormalOffset, mesh.normals.stride / 4};
        for (uint32_t i = 0; i < 4; ++i) writeStorage(normalsSet_, i, &normalsBuffers[i]);
    }
    ctx.vk.vkUpdateDescriptorSets(device, writeCount, writes, 0, nullptr);
}

void LiveMove::Impl::listTransferRanges() {
    std::array<VkDescriptorBufferInfo, kMaxOwnershipTransfers> ranges{};
    uint32_t count = 0;
    for (const VkDescriptorBufferInfo* range : {&positionsRange_, &normalsRange_, &maskRange_, &statisticsRange_}) {
        if (!range->buffer) continue;
        VkDescriptorBufferInfo merged = *range;
        // A range overlapping earlier ones in its buffer absorbs them (one transfer
        // a byte: a barrier must not name a byte twice).
        for (uint32_t i = 0; i < count;) {
            const VkDescriptorBufferInfo& other = ranges[i];
            if (other.buffer == merged.buffer && other.offset <= merged.offset + merged.range &&
                merged.offset <= other.offset + other.range) {
                const VkDeviceSize end = std::max(other.offset + other.range, merged.offset + merged.range);
                merged.offset = std::min(other.offset, merged.offset);
                merged.range = end - merged.offset;
                ranges[i] = ranges[--count];
                i = 0;
            } else {
                ++i;
            }
        }
        ranges[count++] = merged;
    }
    const VkAccessFlags2 accesses = VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                                    VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    transferRangeCount_ = count;
    for (uint32_t i = 0; i < count; ++i)
        transferRanges_[i] = {ranges[i].buffer, ranges[i].offset, ranges[i].range,
                              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT, accesses};
}

} // namespace sculptflow
