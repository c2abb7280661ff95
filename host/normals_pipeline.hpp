// normals.comp's pipeline: vertex normals recomputed from the deformed positions.
#pragma once

#include <cstdint>

#include "context.hpp"

namespace sculptflow {


// normals.comp's push constants: a vertex range and float offsets/strides.
struct NormalsPushConstants {
    uint32_t firstVertex;
    uint32_t vertexCount;
    uint32_t positionOffset;
    uint32_t positionStride;
    uint32_t normalOffset;
    uint32_t normalStride;
};

constexpr uint32_t kNormalsWorkgroupSize = 64; // local_size_x in normals.comp

// Owns the set layout (0: positions, 1: adjacency start, 2: adjacency pairs,
// 3: normals; all storage buffers), the pipeline layout and the pipeline.
class NormalsPipeline {
public:
    explicit NormalsPipeline(const Context& context);
    ~NormalsPipeline();
    NormalsPipeline(const NormalsPipeline&) = delete;
    NormalsPipeline& operator=(const NormalsPipeline&) = delete;

    VkDescriptorSetLayout setLayout() const { return setLayout_; }
    VkPipelineLayout layout() const { return layout_; }
    VkPipeline pipeline() const { return pipeline_; }

    // Records dispatches for `push`'s vertex range (split past the workgroup-count limit).
    void record(VkCommandBuffer commands, const Context& context, VkDescriptorSet set,
                NormalsPushConstants push) const;

private:
    void release();

    const Context* context_ = nullptr;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

} // namespace sculptflow
