// Builders for the Vulkan objects that every pipeline here starts from.
#pragma once

#include <cstdint>
#include <span>

#include <sculptflow/context.hpp>
#include "spirv_bindings.hpp"

namespace sculptflow {

// A shader module from SPIR-V words. Throws sculptflow::Error on failure.
VkShaderModule createShaderModule(const Context& context, std::span<const uint32_t> spirv);

// A compute pipeline's layouts: one descriptor per binding (binding i of type
// bindings[i].type, compute stage) and one push-constant range of pushBytes.
struct ComputeLayouts {
    VkDescriptorSetLayout set = VK_NULL_HANDLE;
    VkPipelineLayout pipeline = VK_NULL_HANDLE;
};

// Creates both, or neither: throws sculptflow::Error with nothing left behind.
ComputeLayouts createComputeLayouts(const Context& context, std::span<const HostBinding> bindings,
                                    uint32_t pushBytes);

// What differs between the mesh-drawing pipelines: their shaders, vertex input,
// layout and render pass (createMeshRenderPass).
struct MeshPipelineInfo {
    VkShaderModule vertexShader = VK_NULL_HANDLE;
    VkShaderModule fragmentShader = VK_NULL_HANDLE;
    std::span<const VkVertexInputBindingDescription> bindings;
    std::span<const VkVertexInputAttributeDescription> attributes;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkRenderPass renderPass = VK_NULL_HANDLE;
};

// A triangle-list graphics pipeline with what every mesh draw here shares: no
// culling (open meshes show both sides; the shaders light the side in view),
// depth test and write with LESS, one opaque colour attachment, and dynamic
// viewport and scissor (so a resize rebuilds no pipeline).
VkPipeline createMeshPipeline(const Context& context, const MeshPipelineInfo& info);

} // namespace sculptflow
