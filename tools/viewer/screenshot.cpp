// Reading the offscreen frame back, and telling a drawn frame from a blank one.
#include "screenshot.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include "host/gpu_buffer.hpp"
#include "host/render_target.hpp"
#include "host/vulkan_check.hpp"
#include "one_time_commands.hpp"

namespace sculptflow::viewer {

RgbaImage readBack(Context& context, VkCommandPool pool, const RenderTarget& target) {
    const VkExtent2D extent = target.extent();
    GpuBuffer pixels(context, VkDeviceSize(extent.width) * extent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     "the screenshot");

    submitAndWait(context, pool, [&](VkCommandBuffer commands) {
        // After the render pass's colour writes (its external dependency already
        // covers transfers in the same submission; this one covers earlier submissions).
        VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        before.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 1, &before, 0, nullptr, 0, nullptr);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {extent.width, extent.height, 1};
        vkCmdCopyImageToBuffer(commands, target.colorImage(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.handle(),
                               1, &region);
        VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                             nullptr, 0, nullptr);
    });

    RgbaImage image{extent.width, extent.height, std::vector<uint8_t>(size_t(extent.width) * extent.height * 4)};
    std::memcpy(image.pixels.data(), pixels.mapped(), image.pixels.size());
    return image;
}

ImageSummary summarize(const RgbaImage& image) {
    ImageSummary summary;
    summary.pixels = size_t(image.width) * image.height;
    if (summary.pixels == 0) return summary;
    std::unordered_set<uint32_t> colors;
    const uint8_t* corner = image.at(0, 0);
    for (size_t i = 0; i < summary.pixels; ++i) {
        const uint8_t* p = &image.pixels[i * 4];
        colors.insert(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16);
        if (std::memcmp(p, corner, 3) != 0) ++summary.foregroundPixels;
    }
    summary.distinctColors = colors.size();
    return summary;
}

std::string blankReason(const ImageSummary& summary, size_t minColors, double minCoverage) {
    if (summary.pixels == 0) return "the image is empty";
    if (summary.distinctColors < minColors)
        return "only " + std::to_string(summary.distinctColors) + " distinct colours (fewer than " +
               std::to_string(minColors) + ")";
    const double coverage = double(summary.foregroundPixels) / double(summary.pixels);
    if (coverage < minCoverage)
        return "only " + std::to_string(summary.foregroundPixels) + " of " + std::to_string(summary.pixels) +
               " pixels differ from the background";
    return "";
}

size_t differingPixels(const RgbaImage& a, const RgbaImage& b, int threshold) {
    if (a.width != b.width || a.height != b.height)
        return std::max(size_t(a.width) * a.height, size_t(b.width) * b.height);
    size_t count = 0;
    for (size_t i = 0; i < a.pixels.size(); i += 4)
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c])) > threshold) {
                ++count;
                break;
            }
    return count;
}

} // namespace sculptflow::viewer
