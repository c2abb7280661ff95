// Builders for the Vulkan objects that every pipeline here starts from.
#include "pipeline_objects.hpp"

#include <vector>

#include "context_impl.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

VkShaderModule createShaderModule(const Context& context, std::span<const uint32_t> spirv) {
    const Context::Impl& ctx = implOf(context);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SF_VK_CHECK(ctx.vk.vkCreateShaderModule(ctx.device, &info, ctx.allocator, &module));
    return module;
}

ComputeLayouts createComputeLayouts(const Context& context, std::span<const HostBinding> bindings,
                                    uint32_t pushBytes) {
    const Context::Impl& ctx = implOf(context);
    std::vector<VkDescriptorSetLayoutBinding> entries(bindings.size());
    for (uint32_t i = 0; i < entries.size(); ++i)
        entries[i] = {i, bindings[i].type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = uint32_t(entries.size());
    setInfo.pBindings = entries.data();
    ComputeLayouts layouts;
    SF_VK_CHECK(ctx.vk.vkCreateDescriptorSetLayout(ctx.device, &setInfo, ctx.allocator, &layouts.set));

    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &layouts.set;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &push;
    const VkResult result = ctx.vk.vkCreatePipelineLayout(ctx.device, &layoutInfo, ctx.allocator, &layouts.pipeline);
    if (result != VK_SUCCESS) {
        ctx.vk.vkDestroyDescriptorSetLayout(ctx.device, layouts.set, ctx.allocator);
        vkCheck(result, "vkCreatePipelineLayout");
    }
    return layouts;
}

VkPipeline createMeshPipeline(const Context& context, const MeshPipelineInfo& mesh) {
    const Context::Impl& ctx = implOf(context);
    const VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = mesh.vertexShader, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = mesh.fragmentShader, .pName = "main"}};
    const VkPipelineVertexInputStateCreateInfo vertexInput{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = uint32_t(mesh.bindings.size()),
        .pVertexBindingDescriptions = mesh.bindings.data(),
        .vertexAttributeDescriptionCount = uint32_t(mesh.attributes.size()),
        .pVertexAttributeDescriptions = mesh.attributes.data()};
    const VkPipelineInputAssemblyStateCreateInfo assembly{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    const VkPipelineViewportStateCreateInfo viewport{.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                                     .viewportCount = 1, .scissorCount = 1};
    const VkPipelineRasterizationStateCreateInfo raster{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE, .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f};
    const VkPipelineMultisampleStateCreateInfo multisample{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    const VkPipelineDepthStencilStateCreateInfo depth{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO, .depthTestEnable = VK_TRUE,
        .depthWriteEnable = VK_TRUE, .depthCompareOp = VK_COMPARE_OP_LESS};
    const VkPipelineColorBlendAttachmentState blendAttachment{
        .colorWriteMask =
            VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
    const VkPipelineColorBlendStateCreateInfo blend{.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                    .attachmentCount = 1, .pAttachments = &blendAttachment};
    const VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    const VkPipelineDynamicStateCreateInfo dynamic{.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                                   .dynamicStateCount = 2, .pDynamicStates = dynamicStates};
    const VkGraphicsPipelineCreateInfo info{
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2, .pStages = stages,
        .pVertexInputState = &vertexInput, .pInputAssemblyState = &assembly, .pViewportState = &viewport,
        .pRasterizationState = &raster, .pMultisampleState = &multisample, .pDepthStencilState = &depth,
        .pColorBlendState = &blend, .pDynamicState = &dynamic, .layout = mesh.layout, .renderPass = mesh.renderPass};
    VkPipeline pipeline = VK_NULL_HANDLE;
    SF_VK_CHECK(ctx.vk.vkCreateGraphicsPipelines(ctx.device, ctx.pipelineCache, 1, &info, ctx.allocator, &pipeline));
    return pipeline;
}

} // namespace sculptflow
