// Builds normals.comp and restore.comp from the SPIR-V embedded at build time, and records them.
#include "vertex_pass_pipeline.hpp"

#include <algorithm>

#include "context_impl.hpp"
#include "memory_barrier.hpp"
#include "generated/normals_comp_spirv.h"
#include "pipeline_objects.hpp"
#include "generated/restore_comp_spirv.h"
#include "vulkan_check.hpp"

namespace sculptflow {

VertexPassPipeline::VertexPassPipeline(const Context& context, VertexPass pass) : context_(&context) {
    const Context::Impl& ctx = implOf(*context_);
    VkShaderModule module = VK_NULL_HANDLE;
    const bool normals = pass == VertexPass::Normals;
    const std::span<const HostBinding> host = normals ? std::span<const HostBinding>(kNormalsBindings)
                                                      : std::span<const HostBinding>(kRestoreBindings);
    const std::span<const uint32_t> spirv = normals ? std::span<const uint32_t>(k_normals_comp_spirv)
                                                    : std::span<const uint32_t>(k_restore_comp_spirv);
    try {
        checkShaderBindings(spirv, host, normals ? "normals.comp" : "restore.comp");
        const ComputeLayouts layouts = createComputeLayouts(*context_, host, sizeof(VertexPassPushConstants));
        setLayout_ = layouts.set;
        layout_ = layouts.pipeline;
        module = createShaderModule(*context_, spirv);
        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout_;
        SF_VK_CHECK(
            ctx.vk.vkCreateComputePipelines(ctx.device, ctx.pipelineCache, 1, &info, ctx.allocator, &pipeline_));
        ctx.vk.vkDestroyShaderModule(ctx.device, module, ctx.allocator);
        ctx.name(VK_OBJECT_TYPE_PIPELINE, pipeline_, normals ? "normals" : "restore");
    } catch (...) {
        if (module) ctx.vk.vkDestroyShaderModule(ctx.device, module, ctx.allocator);
        release();
        throw;
    }
}

VertexPassPipeline::~VertexPassPipeline() { release(); }

void VertexPassPipeline::release() {
    const Context::Impl& ctx = implOf(*context_);
    if (pipeline_) ctx.vk.vkDestroyPipeline(ctx.device, pipeline_, ctx.allocator);
    if (layout_) ctx.vk.vkDestroyPipelineLayout(ctx.device, layout_, ctx.allocator);
    if (setLayout_) ctx.vk.vkDestroyDescriptorSetLayout(ctx.device, setLayout_, ctx.allocator);
    pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    setLayout_ = VK_NULL_HANDLE;
}

void VertexPassPipeline::record(VkCommandBuffer commands, const Context& context, VkDescriptorSet set,
                                VertexPassPushConstants push) const {
    if (push.vertexCount == 0) return;
    const Context::Impl& ctx = implOf(context);
    ctx.vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    ctx.vk.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
    const uint64_t perDispatch = uint64_t(ctx.maxWorkgroupsPerDispatch) * kVertexPassWorkgroupSize;
    const uint64_t end = uint64_t(push.firstVertex) + push.vertexCount;
    for (uint64_t start = push.firstVertex; start < end; start += perDispatch) {
        // The parts write disjoint vertices of one buffer bound whole: ordered, so
        // that synchronization validation sees no overlap.
        if (start != push.firstVertex)
            memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        VertexPassPushConstants part = push;
        part.firstVertex = uint32_t(start);
        part.vertexCount = uint32_t(std::min<uint64_t>(perDispatch, end - start));
        ctx.vk.vkCmdPushConstants(commands, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(part), &part);
        ctx.vk.vkCmdDispatch(commands, (part.vertexCount + kVertexPassWorkgroupSize - 1) / kVertexPassWorkgroupSize, 1, 1);
    }
}

} // namespace sculptflow
