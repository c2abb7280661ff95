// Builds normals.comp from the SPIR-V embedded at build time and records it.
#include "normals_pipeline.hpp"

#include <algorithm>
#include <array>

#include "context.hpp"
#include "normals_comp_spirv.h"
#include "pipeline_objects.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

NormalsPipeline::NormalsPipeline(const Context& context) : device_(context.device()) {
    VkShaderModule module = VK_NULL_HANDLE;
    try {
        std::array<VkDescriptorType, 4> bindings;
        bindings.fill(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        const ComputeLayouts layouts = createComputeLayouts(device_, bindings, sizeof(NormalsPushConstants));
        setLayout_ = layouts.set;
        layout_ = layouts.pipeline;
        module = createShaderModule(device_, k_normals_comp_spirv);
        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout_;
        SF_VK_CHECK(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
        vkDestroyShaderModule(device_, module, nullptr);
    } catch (...) {
        if (module) vkDestroyShaderModule(device_, module, nullptr);
        release();
        throw;
    }
}

NormalsPipeline::~NormalsPipeline() { release(); }

void NormalsPipeline::release() {
    if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (setLayout_) vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
    pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    setLayout_ = VK_NULL_HANDLE;
}

void NormalsPipeline::record(VkCommandBuffer commands, const Context& context, VkDescriptorSet set,
                             NormalsPushConstants push) const {
    if (push.vertexCount == 0) return;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
    const uint64_t perDispatch =
        uint64_t(context.properties().limits.maxComputeWorkGroupCount[0]) * kNormalsWorkgroupSize;
    const uint64_t end = uint64_t(push.firstVertex) + push.vertexCount;
    for (uint64_t start = push.firstVertex; start < end; start += perDispatch) {
        NormalsPushConstants part = push;
        part.firstVertex = uint32_t(start);
        part.vertexCount = uint32_t(std::min<uint64_t>(perDispatch, end - start));
        vkCmdPushConstants(commands, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(part), &part);
        vkCmdDispatch(commands, (part.vertexCount + kNormalsWorkgroupSize - 1) / kNormalsWorkgroupSize, 1, 1);
    }
}

} // namespace sculptflow
