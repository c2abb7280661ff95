// The offscreen colour and depth images, their framebuffer and render pass.
#include "render_target.hpp"

#include <string>

#include <sculptflow/error.hpp>
#include "context_impl.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

constexpr VkPipelineStageFlags kAttachmentStages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                   VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
constexpr VkAccessFlags kAttachmentWrites =
    VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;

} // namespace

VkFormat chooseDepthFormat(const Context& context) {
    const Context::Impl& ctx = implOf(context);
    for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
        VkFormatProperties properties;
        ctx.vk.vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice, format, &properties);
        if (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) return format;
    }
    throw Error(ErrorCode::Unsupported, "render: the device has no depth attachment format");
}

VkRenderPass createMeshRenderPass(const Context& context, VkFormat depthFormat) {
    const Context::Impl& ctx = implOf(context);
    // Both attachments start UNDEFINED (cleared every frame); colour ends ready to be read by transfers.
    const VkAttachmentDescription attachments[2] = {
        {0, kColorFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
         VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
        {0, depthFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
         VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
    const VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkAttachmentReference depthRef{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &colorRef;
    subpass.pDepthStencilAttachment = &depthRef;
    // In: after the previous frame's attachment writes and its transfer reads of
    // the colour image (the blit to the swapchain, a screenshot). Out: transfers
    // read the colour image after this pass's writes.
    const VkSubpassDependency dependencies[2] = {
        {VK_SUBPASS_EXTERNAL, 0, kAttachmentStages | VK_PIPELINE_STAGE_TRANSFER_BIT, kAttachmentStages,
         kAttachmentWrites, kAttachmentWrites | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT, 0},
        {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0}};
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 2;
    info.pAttachments = attachments;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = dependencies;
    VkRenderPass pass = VK_NULL_HANDLE;
    SF_VK_CHECK(ctx.vk.vkCreateRenderPass(ctx.device, &info, ctx.allocator, &pass));
    return pass;
}

RenderTarget::RenderTarget(const Context& context, VkExtent2D extent, VkFormat depthFormat, VkRenderPass renderPass)
    : context_(&context), extent_(extent) {
    const Context::Impl& ctx = implOf(*context_);
    const auto& limits = context.properties().limits;
    if (extent.width == 0 || extent.height == 0 || extent.width > limits.maxFramebufferWidth ||
        extent.height > limits.maxFramebufferHeight)
        throw Error("render: a " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
                    " frame is outside what the device renders (1 to " + std::to_string(limits.maxFramebufferWidth) +
                    "x" + std::to_string(limits.maxFramebufferHeight) + ")");
    try {
        const VkFormat formats[2] = {kColorFormat, depthFormat};
        const VkImageUsageFlags usages[2] = {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                             VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT};
        const VkImageAspectFlags aspects[2] = {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT};
        for (int i = 0; i < 2; ++i) {
            VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
            info.imageType = VK_IMAGE_TYPE_2D;
            info.format = formats[i];
            info.extent = {extent.width, extent.height, 1};
            info.mipLevels = 1;
            info.arrayLayers = 1;
            info.samples = VK_SAMPLE_COUNT_1_BIT;
            info.tiling = VK_IMAGE_TILING_OPTIMAL;
            info.usage = usages[i];
            info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
            info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
            SF_VK_CHECK(ctx.vk.vkCreateImage(ctx.device, &info, ctx.allocator, &images_[i]));
            VkMemoryRequirements requirements;
            ctx.vk.vkGetImageMemoryRequirements(ctx.device, images_[i], &requirements);
            VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
            allocation.allocationSize = requirements.size;
            allocation.memoryTypeIndex =
                ctx.memoryType(requirements.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
            SF_VK_CHECK(ctx.vk.vkAllocateMemory(ctx.device, &allocation, ctx.allocator, &memory_[i]));
            SF_VK_CHECK(ctx.vk.vkBindImageMemory(ctx.device, images_[i], memory_[i], 0));
            VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
            viewInfo.image = images_[i];
            viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
            viewInfo.format = formats[i];
            viewInfo.subresourceRange = {aspects[i], 0, 1, 0, 1};
            SF_VK_CHECK(ctx.vk.vkCreateImageView(ctx.device, &viewInfo, ctx.allocator, &views_[i]));
        }
        VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        info.renderPass = renderPass;
        info.attachmentCount = 2;
        info.pAttachments = views_;
        info.width = extent.width;
        info.height = extent.height;
        info.layers = 1;
        SF_VK_CHECK(ctx.vk.vkCreateFramebuffer(ctx.device, &info, ctx.allocator, &framebuffer_));
    } catch (...) {
        release();
        throw;
    }
}

RenderTarget::~RenderTarget() { release(); }

void RenderTarget::release() {
    const Context::Impl& ctx = implOf(*context_);
    if (framebuffer_) ctx.vk.vkDestroyFramebuffer(ctx.device, framebuffer_, ctx.allocator);
    framebuffer_ = VK_NULL_HANDLE;
    for (int i = 0; i < 2; ++i) {
        if (views_[i]) ctx.vk.vkDestroyImageView(ctx.device, views_[i], ctx.allocator);
        if (images_[i]) ctx.vk.vkDestroyImage(ctx.device, images_[i], ctx.allocator);
        if (memory_[i]) ctx.vk.vkFreeMemory(ctx.device, memory_[i], ctx.allocator);
        views_[i] = VK_NULL_HANDLE;
        images_[i] = VK_NULL_HANDLE;
        memory_[i] = VK_NULL_HANDLE;
    }
}

} // namespace sculptflow
