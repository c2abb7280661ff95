// Builders for the Vulkan objects that every pipeline here starts from.
#include "pipeline_objects.hpp"

#include <vector>

#include "vulkan_check.hpp"

namespace sculptflow {

VkShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> spirv) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SF_VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
    return module;
}

ComputeLayouts createComputeLayouts(VkDevice device, std::span<const VkDescriptorType> bindings,
                                    uint32_t pushBytes) {
    std::vector<VkDescriptorSetLayoutBinding> entries(bindings.size());
    for (uint32_t i = 0; i < entries.size(); ++i)
        entries[i] = {i, bindings[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = uint32_t(entries.size());
    setInfo.pBindings = entries.data();
    ComputeLayouts layouts;
    SF_VK_CHECK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &layouts.set));

    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &layouts.set;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &push;
    const VkResult result = vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layouts.pipeline);
    if (result != VK_SUCCESS) {
        vkDestroyDescriptorSetLayout(device, layouts.set, nullptr);
        vkCheck(result, "vkCreatePipelineLayout");
    }
    return layouts;
}

} // namespace sculptflow
