// The offscreen frame a mesh is drawn into: a colour image, its depth buffer, their
// framebuffer and the render pass that draws them. MeshRenderer draws here and
// reads the colour back; the viewer draws here too, then blits it to the
// swapchain or reads it back for a screenshot, so what is saved is what is shown.
#pragma once

#include <cstdint>

#include <sculptflow/context.hpp>

namespace sculptflow {


// 8-bit sRGB RGBA: the shaders write linear light and the hardware encodes it.
inline constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;

// A depth format the device can render to. Throws sculptflow::Error when none.
VkFormat chooseDepthFormat(const Context& context);

// One subpass that clears both attachments and ends with the colour image in
// TRANSFER_SRC_OPTIMAL; it waits for the previous frame's attachment writes and
// transfer reads of the colour image, and transfers read the colour after it.
VkRenderPass createMeshRenderPass(const Context& context, VkFormat depthFormat);

// Owns the two images, their memory, views and the framebuffer for `renderPass`
// (createMeshRenderPass's). The colour image is left in TRANSFER_SRC_OPTIMAL after each frame.
class RenderTarget {
public:
    RenderTarget(const Context& context, VkExtent2D extent, VkFormat depthFormat, VkRenderPass renderPass);
    ~RenderTarget();
    RenderTarget(const RenderTarget&) = delete;
    RenderTarget& operator=(const RenderTarget&) = delete;

    VkExtent2D extent() const { return extent_; }
    VkImage colorImage() const { return images_[0]; }
    VkFramebuffer framebuffer() const { return framebuffer_; }

private:
    void release();

    const Context* context_ = nullptr;
    VkExtent2D extent_{0, 0};
    VkImage images_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE}; // colour, depth
    VkDeviceMemory memory_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkImageView views_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

} // namespace sculptflow
