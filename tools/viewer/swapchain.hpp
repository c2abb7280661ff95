// The window's swapchain (FIFO): images the offscreen frame is blitted to, and presentation.
#pragma once

#include <cstdint>
#include <vector>

#include <volk.h>

namespace sculptflow::viewer {

class ViewerDevice;

// Owns the swapchain and one "rendered" semaphore per image (a semaphore a
// present waits on is reused only when its image is acquired again).
class Swapchain {
public:
    // Throws sculptflow::Error when the surface offers no format or usage the blit needs.
    Swapchain(const ViewerDevice& device, VkSurfaceKHR surface, VkExtent2D windowSize);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    // Recreates for the window's new size (the device must be idle).
    void recreate(VkExtent2D windowSize);

    VkSwapchainKHR handle() const { return swapchain_; }
    VkExtent2D extent() const { return extent_; }
    VkFormat format() const { return format_; }
    VkImage image(uint32_t index) const { return images_[index]; }
    VkSemaphore renderedSemaphore(uint32_t index) const { return rendered_[index]; }

    // Records the copy of `source` (TRANSFER_SRC_OPTIMAL, `sourceExtent`, written
    // by a render pass earlier in the command buffer) into image `index`, and its
    // transition to PRESENT_SRC_KHR. The acquire semaphore must be waited on at
    // VK_PIPELINE_STAGE_TRANSFER_BIT.
    void recordBlit(VkCommandBuffer commands, uint32_t index, VkImage source, VkExtent2D sourceExtent) const;

private:
    void create(VkExtent2D windowSize, VkSwapchainKHR old);
    void destroyImages();

    VkDevice device_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkExtent2D extent_{0, 0};
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    std::vector<VkImage> images_;
    std::vector<VkSemaphore> rendered_;
};

} // namespace sculptflow::viewer
