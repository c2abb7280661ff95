// The mesh draw: render pass (colour + depth), the lit-clay graphics pipeline, and
// the commands that draw one frame into a RenderTarget.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

namespace sculptflow {
class Context;
}

namespace sculptflow::viewer {

// Vertex buffer layout: binding 0 holds position and normal interleaved (voxels,
// float xyz each, 24 bytes a vertex: what the solver and its normals pass write);
// binding 1 one uint32 per vertex, the vertex's chunk, for its shade; binding 2
// one float per vertex, its mask (spec §3.5: 1 free, 0 frozen, shown darker);
// binding 3 the undeformed positions in binding 0's layout, for the heat map;
// binding 4 the solver's statistics (RendererMesh::statistics, 16 bytes a vertex),
// whose evaluations count colours the evaluations map.
inline constexpr uint32_t kStatisticsStride = 16;
inline constexpr uint32_t kEvaluationsOffset = 12; // VertexStatistics::evaluations
inline constexpr uint32_t kVertexStride = 24;
inline constexpr uint32_t kNormalOffset = 12;

// Matches the push constant block of viewer.vert and viewer.frag.
struct ViewerPushConstants {
    glm::mat4 viewProjection;
    glm::vec4 eye;   // xyz camera position; w ambient light
    glm::vec4 key;   // xyz towards the key light; w intensity
    glm::vec4 fill;  // the same for the fill light
    // rgb linear clay colour; w ≥ 0: chunk shade variation; w < 0: a heat map
    // instead (viewer.frag: dark blue for none, then blue, green, yellow, to red)
    // with −w at the top of its scale: r = 0, each vertex's displacement from
    // binding 3's position in voxels; r = 1, its evaluations (binding 4).
    glm::vec4 color;
};
static_assert(sizeof(ViewerPushConstants) == 128);

// Triangles drawn over the mesh in one colour (the depth is cleared first, so a
// tool's gizmo shows even inside the mesh), with the mesh's vertex layout.
struct OverlayDraw {
    VkBuffer vertices = VK_NULL_HANDLE; // bindings 0 and 3 (no heat), from vertexOffset
    VkDeviceSize vertexOffset = 0;
    VkBuffer attributes = VK_NULL_HANDLE; // binding 1 from 0, binding 2 from maskOffset
    VkDeviceSize maskOffset = 0;
    uint32_t vertexCount = 0;
    glm::vec3 color{1.0f}; // linear
};

// The buffers and camera of one draw.
struct DrawCall {
    VkBuffer vertices = VK_NULL_HANDLE; // binding 0
    VkBuffer chunkIds = VK_NULL_HANDLE; // binding 1
    VkBuffer mask = VK_NULL_HANDLE;     // binding 2
    VkBuffer rest = VK_NULL_HANDLE;     // binding 3: the undeformed vertices, binding 0's layout
    VkBuffer statistics = VK_NULL_HANDLE; // binding 4: the solver's per-vertex statistics
    VkBuffer indices = VK_NULL_HANDLE;  // uint32 triangles
    uint32_t indexCount = 0;
    ViewerPushConstants push{};
    glm::vec3 background{0.0f}; // linear
    std::vector<OverlayDraw> overlays; // after the mesh, in order
};

// Owns the shader modules, render pass, pipeline layout and pipeline. Viewport
// and scissor are dynamic, so a resize rebuilds only the RenderTarget.
class MeshPipeline {
public:
    MeshPipeline(const Context& context, VkFormat depthFormat);
    ~MeshPipeline();
    MeshPipeline(const MeshPipeline&) = delete;
    MeshPipeline& operator=(const MeshPipeline&) = delete;

    VkRenderPass renderPass() const { return renderPass_; }

    // Records the render pass: clear, draw, overlays. Its dependencies order it after the
    // previous frame's reads of the colour image (blit, readback) and make the
    // colour image ready for transfer reads (TRANSFER_SRC_OPTIMAL) after it.
    // The vertex buffer's own barrier comes before it (LiveMove::record ends with one).
    void record(VkCommandBuffer commands, VkFramebuffer framebuffer, VkExtent2D extent, const DrawCall& draw) const;

private:
    void release();

    VkDevice device_ = VK_NULL_HANDLE;
    VkShaderModule vertexShader_ = VK_NULL_HANDLE;
    VkShaderModule fragmentShader_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

} // namespace sculptflow::viewer
