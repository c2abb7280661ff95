// The per-vertex compute passes of the renderer's path, built from the SPIR-V
// embedded at build time: normals.comp (vertex normals recomputed from the
// deformed positions) and restore.comp (xyz attributes copied back from the snapshot).
#pragma once

#include <cstdint>

#include <sculptflow/context.hpp>
#include "spirv_bindings.hpp"

namespace sculptflow {

enum class VertexPass {
    Normals, // normals.comp: kNormalsBindings
    Restore, // restore.comp: kRestoreBindings
};

// Their bindings (set 0), all storage buffers; each shader is checked against its own when built.
constexpr HostBinding kNormalsBindings[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Positions"},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "AdjacencyStart"},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "AdjacencyPairs"},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Normals"}};
constexpr HostBinding kRestoreBindings[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Source"}, // the snapshot
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Destination"}}; // the renderer's stream

// Both shaders' push constants: a vertex range and the float offsets/strides of
// the stream read (positions, or the snapshot) and the stream written.
struct VertexPassPushConstants {
    uint32_t firstVertex;
    uint32_t vertexCount;
    uint32_t inputOffset;
    uint32_t inputStride;
    uint32_t outputOffset;
    uint32_t outputStride;
};

constexpr uint32_t kVertexPassWorkgroupSize = 64; // local_size_x in normals.comp and restore.comp

// Owns the set layout (storage buffers), the pipeline layout and the pipeline.
class VertexPassPipeline {
public:
    VertexPassPipeline(const Context& context, VertexPass pass);
    ~VertexPassPipeline();
    VertexPassPipeline(const VertexPassPipeline&) = delete;
    VertexPassPipeline& operator=(const VertexPassPipeline&) = delete;

    VkDescriptorSetLayout setLayout() const { return setLayout_; }
    VkPipelineLayout layout() const { return layout_; }
    VkPipeline pipeline() const { return pipeline_; }

    // Records dispatches for `push`'s vertex range (split past the workgroup-count limit).
    void record(VkCommandBuffer commands, const Context& context, VkDescriptorSet set,
                VertexPassPushConstants push) const;

private:
    void release();

    const Context* context_ = nullptr;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

} // namespace sculptflow
