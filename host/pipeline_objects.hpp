// Builders for the Vulkan objects that every pipeline here starts from.
#pragma once

#include <cstdint>
#include <span>

#include <volk.h>

namespace sculptflow {

// A shader module from SPIR-V words. Throws sculptflow::Error on failure.
VkShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> spirv);

// A compute pipeline's layouts: one descriptor per binding (binding i of type
// bindings[i], compute stage) and one push-constant range of pushBytes.
struct ComputeLayouts {
    VkDescriptorSetLayout set = VK_NULL_HANDLE;
    VkPipelineLayout pipeline = VK_NULL_HANDLE;
};

// Creates both, or neither: throws sculptflow::Error with nothing left behind.
ComputeLayouts createComputeLayouts(VkDevice device, std::span<const VkDescriptorType> bindings,
                                    uint32_t pushBytes);

} // namespace sculptflow
