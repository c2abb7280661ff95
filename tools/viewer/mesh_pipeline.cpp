// The viewer's graphics pipeline on the shared mesh pass, and the draw of one frame.
#include "mesh_pipeline.hpp"

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include "host/pipeline_objects.hpp"
#include "host/render_target.hpp"
#include "host/vulkan_check.hpp"
#include "viewer_frag_spirv.h"
#include "viewer_vert_spirv.h"

namespace sculptflow::viewer {

MeshPipeline::MeshPipeline(const Context& context, VkFormat depthFormat) : device_(context.device()) {
    if (!(context.queueFlags() & VK_QUEUE_GRAPHICS_BIT))
        throw Error("viewer: the queue of " + context.deviceName() + " has no graphics support");
    try {
        vertexShader_ = createShaderModule(context, k_viewer_vert_spirv);
        fragmentShader_ = createShaderModule(context, k_viewer_frag_spirv);
        renderPass_ = createMeshRenderPass(context, depthFormat);

        const VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                        sizeof(ViewerPushConstants)};
        VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        layoutInfo.pushConstantRangeCount = 1;
        layoutInfo.pPushConstantRanges = &range;
        SF_VK_CHECK(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_));

        const VkVertexInputBindingDescription bindings[5] = {{0, kVertexStride, VK_VERTEX_INPUT_RATE_VERTEX},
                                                             {1, 4, VK_VERTEX_INPUT_RATE_VERTEX},
                                                             {2, 4, VK_VERTEX_INPUT_RATE_VERTEX},
                                                             {3, kVertexStride, VK_VERTEX_INPUT_RATE_VERTEX},
                                                             {4, kStatisticsStride, VK_VERTEX_INPUT_RATE_VERTEX}};
        const VkVertexInputAttributeDescription attributes[6] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                                 {1, 0, VK_FORMAT_R32G32B32_SFLOAT, kNormalOffset},
                                                                 {2, 1, VK_FORMAT_R32_UINT, 0},
                                                                 {3, 2, VK_FORMAT_R32_SFLOAT, 0},
                                                                 {4, 3, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                                 {5, 4, VK_FORMAT_R32_UINT, kEvaluationsOffset}};
        pipeline_ = createMeshPipeline(context, {vertexShader_, fragmentShader_, bindings, attributes, layout_,
                                                 renderPass_});
    } catch (...) {
        release();
        throw;
    }
}

MeshPipeline::~MeshPipeline() { release(); }

void MeshPipeline::release() {
    if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (renderPass_) vkDestroyRenderPass(device_, renderPass_, nullptr);
    if (fragmentShader_) vkDestroyShaderModule(device_, fragmentShader_, nullptr);
    if (vertexShader_) vkDestroyShaderModule(device_, vertexShader_, nullptr);
    pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    renderPass_ = VK_NULL_HANDLE;
    fragmentShader_ = VK_NULL_HANDLE;
    vertexShader_ = VK_NULL_HANDLE;
}

void MeshPipeline::record(VkCommandBuffer commands, VkFramebuffer framebuffer, VkExtent2D extent,
                          const DrawCall& draw) const {
    VkClearValue clears[2];
    clears[0].color = {{draw.background.r, draw.background.g, draw.background.b, 1.0f}};
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = renderPass_;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, extent};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
    const VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(commands, 0, 1, &viewport);
    vkCmdSetScissor(commands, 0, 1, &scissor);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    if (draw.indexCount > 0) {
        vkCmdPushConstants(commands, layout_, kStages, 0, sizeof(ViewerPushConstants), &draw.push);
        const VkBuffer buffers[5] = {draw.vertices, draw.chunkIds, draw.mask, draw.rest ? draw.rest : draw.vertices,
                                     draw.statistics ? draw.statistics : draw.vertices};
        const VkDeviceSize offsets[5] = {0, 0, 0, 0, 0};
        vkCmdBindVertexBuffers(commands, 0, 5, buffers, offsets);
        vkCmdBindIndexBuffer(commands, draw.indices, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(commands, draw.indexCount, 1, 0, 0, 0);
    }
    if (!draw.overlays.empty()) {
        VkClearAttachment depth{VK_IMAGE_ASPECT_DEPTH_BIT, 0, {}};
        depth.clearValue.depthStencil = {1.0f, 0};
        const VkClearRect rect{scissor, 0, 1};
        vkCmdClearAttachments(commands, 1, &depth, 1, &rect);
    }
    for (const OverlayDraw& overlay : draw.overlays) {
        ViewerPushConstants push = draw.push;
        push.color = glm::vec4(overlay.color, 0.0f); // one colour: no chunk shades
        vkCmdPushConstants(commands, layout_, kStages, 0, sizeof(ViewerPushConstants), &push);
        // Binding 4 is read but unused (no heat map): the vertices' 24-byte stride covers its 16.
        const VkBuffer buffers[5] = {overlay.vertices, overlay.attributes, overlay.attributes, overlay.vertices,
                                     overlay.vertices};
        const VkDeviceSize offsets[5] = {overlay.vertexOffset, 0, overlay.maskOffset, overlay.vertexOffset,
                                         overlay.vertexOffset};
        vkCmdBindVertexBuffers(commands, 0, 5, buffers, offsets);
        vkCmdDraw(commands, overlay.vertexCount, 1, 0, 0);
    }
    vkCmdEndRenderPass(commands);
}

} // namespace sculptflow::viewer
