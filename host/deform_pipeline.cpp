// Builds deform.comp's pipelines from the SPIR-V embedded at build time.
#include "deform_pipeline.hpp"

#include <array>

#include "context.hpp"
#include "deform_comp_spirv.h"
#include "vulkan_check.hpp"

namespace sculptflow {

DeformPipelines::DeformPipelines(const Context& context) : device_(context.device()) {
    try {
        module_ = createModule(k_deform_comp_spirv);

        std::array<VkDescriptorSetLayoutBinding, kDeformBindingCount> bindings{};
        for (uint32_t i = 0; i < bindings.size(); ++i) {
            bindings[i].binding = i;
            bindings[i].descriptorType = i == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            bindings[i].descriptorCount = 1;
            bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        }
        VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        setInfo.bindingCount = uint32_t(bindings.size());
        setInfo.pBindings = bindings.data();
        SF_VK_CHECK(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout_));

        VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(DeformPushConstants)};
        VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        layoutInfo.setLayoutCount = 1;
        layoutInfo.pSetLayouts = &setLayout_;
        layoutInfo.pushConstantRangeCount = 1;
        layoutInfo.pPushConstantRanges = &push;
        SF_VK_CHECK(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_));
    } catch (...) {
        release();
        throw;
    }
}

DeformPipelines::~DeformPipelines() { release(); }

void DeformPipelines::release() {
    for (auto& [variant, pipeline] : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
    pipelines_.clear();
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (setLayout_) vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
    if (module_) vkDestroyShaderModule(device_, module_, nullptr);
    layout_ = VK_NULL_HANDLE;
    setLayout_ = VK_NULL_HANDLE;
    module_ = VK_NULL_HANDLE;
}

VkShaderModule DeformPipelines::createModule(std::span<const uint32_t> spirv) const {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SF_VK_CHECK(vkCreateShaderModule(device_, &info, nullptr, &module));
    return module;
}

VkPipeline DeformPipelines::pipeline(const DeformVariant& variant) {
    if (auto found = pipelines_.find(variant); found != pipelines_.end()) return found->second;
    VkPipeline built = build(module_, variant);
    pipelines_.emplace(variant, built);
    return built;
}

void DeformPipelines::replaceShader(std::span<const uint32_t> spirv) {
    VkShaderModule module = createModule(spirv);
    std::map<DeformVariant, VkPipeline> rebuilt;
    try {
        for (const auto& [variant, old] : pipelines_) rebuilt.emplace(variant, build(module, variant));
    } catch (...) {
        for (auto& [variant, pipeline] : rebuilt) vkDestroyPipeline(device_, pipeline, nullptr);
        vkDestroyShaderModule(device_, module, nullptr);
        throw;
    }
    for (auto& [variant, pipeline] : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
    vkDestroyShaderModule(device_, module_, nullptr);
    pipelines_ = std::move(rebuilt);
    module_ = module;
}

VkPipeline DeformPipelines::build(VkShaderModule module, const DeformVariant& variant) const {
    struct {
        int32_t method;
        int32_t maxIterations;
        VkBool32 statistics;
        int32_t toolCount;
        uint32_t affineTools;
        int32_t pass;
    } constants{variant.method, variant.maxIterations, variant.statistics ? VK_TRUE : VK_FALSE, variant.toolCount,
                variant.affineTools, variant.pass};
    const std::array<VkSpecializationMapEntry, 6> entries{{
        {0, offsetof(decltype(constants), method), sizeof(int32_t)},
        {1, offsetof(decltype(constants), maxIterations), sizeof(int32_t)},
        {2, offsetof(decltype(constants), statistics), sizeof(VkBool32)},
        {3, offsetof(decltype(constants), toolCount), sizeof(int32_t)},
        {4, offsetof(decltype(constants), affineTools), sizeof(uint32_t)},
        {5, offsetof(decltype(constants), pass), sizeof(int32_t)},
    }};
    VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), sizeof(constants),
                                        &constants};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    SF_VK_CHECK(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    return pipeline;
}

} // namespace sculptflow
