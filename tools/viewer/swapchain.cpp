// Swapchain creation (sRGB format, FIFO), recreation on resize, and the blit into its images.
#include "swapchain.hpp"

#include <algorithm>

#include <sculptflow/error.hpp>
#include "host/vulkan_check.hpp"
#include "viewer_device.hpp"

namespace sculptflow::viewer {
namespace {

// An sRGB format, so that the blit from the sRGB offscreen image keeps the colours.
VkSurfaceFormatKHR chooseFormat(VkPhysicalDevice device, VkSurfaceKHR surface) {
    uint32_t count = 0;
    SF_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(device, surface, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    SF_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(device, surface, &count, formats.data()));
    if (formats.empty()) throw Error("the window's surface offers no format");
    for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB})
        for (const VkSurfaceFormatKHR& f : formats)
            if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    return formats.front();
}

} // namespace

Swapchain::Swapchain(const ViewerDevice& device, VkSurfaceKHR surface, VkExtent2D windowSize)
    : device_(device.device()), physicalDevice_(device.physicalDevice()), surface_(surface) {
    create(windowSize, VK_NULL_HANDLE);
}

Swapchain::~Swapchain() {
    destroyImages();
    if (swapchain_) vkDestroySwapchainKHR(device_, swapchain_, nullptr);
}

void Swapchain::recreate(VkExtent2D windowSize) {
    destroyImages();
    VkSwapchainKHR old = swapchain_;
    swapchain_ = VK_NULL_HANDLE;
    try {
        create(windowSize, old);
    } catch (...) {
        vkDestroySwapchainKHR(device_, old, nullptr);
        throw;
    }
    vkDestroySwapchainKHR(device_, old, nullptr);
}

void Swapchain::destroyImages() {
    for (VkSemaphore s : rendered_) vkDestroySemaphore(device_, s, nullptr);
    rendered_.clear();
    images_.clear();
}

void Swapchain::create(VkExtent2D windowSize, VkSwapchainKHR old) {
    VkSurfaceCapabilitiesKHR caps;
    SF_VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice_, surface_, &caps));
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        throw Error("the window's surface cannot be a transfer destination (needed for the blit)");
    const VkSurfaceFormatKHR format = chooseFormat(physicalDevice_, surface_);
    extent_ = caps.currentExtent;
    if (extent_.width == UINT32_MAX) { // the surface takes the swapchain's size
        extent_.width = std::clamp(windowSize.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent_.height = std::clamp(windowSize.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount > 0) imageCount = std::min(imageCount, caps.maxImageCount);

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = imageCount;
    info.imageFormat = format.format;
    info.imageColorSpace = format.colorSpace;
    info.imageExtent = extent_;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                              ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha &
                                                            -caps.supportedCompositeAlpha); // lowest bit
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR; // always supported; paces the loop to the display
    info.clipped = VK_TRUE;
    info.oldSwapchain = old;
    SF_VK_CHECK(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain_));
    format_ = format.format;

    uint32_t count = 0;
    SF_VK_CHECK(vkGetSwapchainImagesKHR(device_, swapchain_, &count, nullptr));
    images_.resize(count);
    SF_VK_CHECK(vkGetSwapchainImagesKHR(device_, swapchain_, &count, images_.data()));
    rendered_.assign(count, VK_NULL_HANDLE);
    const VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (VkSemaphore& s : rendered_) SF_VK_CHECK(vkCreateSemaphore(device_, &semaphoreInfo, nullptr, &s));
}

void Swapchain::recordBlit(VkCommandBuffer commands, uint32_t index, VkImage source, VkExtent2D sourceExtent) const {
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    // The acquire semaphore is waited on at TRANSFER: this barrier's first scope
    // includes that wait, so the transition happens after the presentation engine
    // is done with the image.
    VkImageMemoryBarrier toDestination{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toDestination.srcAccessMask = 0;
    toDestination.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toDestination.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    toDestination.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toDestination.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toDestination.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toDestination.image = images_[index];
    toDestination.subresourceRange = range;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &toDestination);

    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {int32_t(sourceExtent.width), int32_t(sourceExtent.height), 1};
    blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
    vkCmdBlitImage(commands, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images_[index],
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);

    VkImageMemoryBarrier toPresent = toDestination;
    toPresent.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toPresent.dstAccessMask = 0; // the semaphore signal makes it visible to the presentation engine
    toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &toPresent);
}

} // namespace sculptflow::viewer
