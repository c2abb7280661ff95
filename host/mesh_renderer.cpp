// Offscreen mesh rendering: camera, normals, the graphics pipeline, readback and PNG files.
#include "mesh_renderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include <glm/gtc/matrix_transform.hpp>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include "src/finite.hpp"
#include "generated/mesh_frag_spirv.h"
#include "generated/mesh_vert_spirv.h"
#include "context_impl.hpp"
#include "gpu_buffer.hpp"
#include "pipeline_objects.hpp"
#include "render_target.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

constexpr uint32_t kSupersample = 2;                         // per axis; averaged on readback
constexpr uint64_t kRenderFenceTimeoutNs = 300ull * 1000 * 1000 * 1000;
constexpr float kFieldOfViewY = glm::radians(30.0f);
constexpr float kMargin = 1.06f;
// Linear light: ambient, key and fill (directions in view space: x right, y up, z to the eye).
constexpr float kAmbient = 0.12f, kKey = 0.85f, kFill = 0.25f;
const glm::vec3 kKeyDirection = glm::normalize(glm::vec3(-0.5f, 0.8f, 0.6f));
const glm::vec3 kFillDirection = glm::normalize(glm::vec3(0.8f, -0.2f, 0.5f));

// Matches the push constant block of mesh.vert and mesh.frag.
struct MeshPushConstants {
    glm::mat4 viewProjection;
    glm::vec4 eye, key, fill;
};
static_assert(sizeof(MeshPushConstants) == 112);

struct Vertex {
    glm::vec3 position, normal, color;
};
static_assert(sizeof(Vertex) == 36);


float srgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
float linearToSrgb(float c) { return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f; }
glm::vec3 srgbToLinear(const glm::vec3& c) { return {srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b)}; }

// Calls fn(a, b, c) for each triangle of the polygons' fans, after checking the indices.
template <class Fn>
void forEachTriangle(std::span<const uint32_t> faceSizes, std::span<const uint32_t> faceIndices, size_t vertexCount,
                     Fn&& fn) {
    size_t first = 0;
    for (uint32_t size : faceSizes) {
        if (size < 3 || first + size > faceIndices.size())
            throw Error("mesh view: face sizes do not match the indices");
        for (uint32_t k = 0; k < size; ++k)
            if (faceIndices[first + k] >= vertexCount) throw Error("mesh view: face index out of range");
        for (uint32_t k = 1; k + 1 < size; ++k)
            fn(faceIndices[first], faceIndices[first + k], faceIndices[first + k + 1]);
        first += size;
    }
}

// Non-finite vertices moved to the mean of their finite neighbours (left as they are without one).
std::vector<glm::vec3> drawablePositions(const MeshView& view) {
    std::vector<glm::vec3> out(view.positions.begin(), view.positions.end());
    std::vector<glm::vec3> sum(out.size(), glm::vec3(0.0f));
    std::vector<uint32_t> count(out.size(), 0);
    bool anyBad = std::any_of(out.begin(), out.end(), [](const glm::vec3& p) { return !isFinite(p); });
    if (!anyBad) return out;
    forEachTriangle(view.faceSizes, view.faceIndices, out.size(), [&](uint32_t a, uint32_t b, uint32_t c) {
        for (uint32_t v : {a, b, c})
            for (uint32_t w : {a, b, c})
                if (v != w && !isFinite(view.positions[v]) && isFinite(view.positions[w])) {
                    sum[v] += view.positions[w];
                    ++count[v];
                }
    });
    for (size_t i = 0; i < out.size(); ++i)
        if (!isFinite(out[i]) && count[i]) out[i] = sum[i] / float(count[i]);
    return out;
}

} // namespace

void writePng(const RgbaImage& image, const std::filesystem::path& path) {
    std::vector<uint8_t> rgb(size_t(image.width) * image.height * 3);
    for (size_t i = 0; i < size_t(image.width) * image.height; ++i)
        std::memcpy(&rgb[i * 3], &image.pixels[i * 4], 3);
    // Through a stream, which takes the path on every platform (stb's fopen takes char only).
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const auto write = [](void* stream, void* bytes, int size) {
        static_cast<std::ofstream*>(stream)->write(static_cast<const char*>(bytes), size);
    };
    if (!out || !stbi_write_png_to_func(write, &out, int(image.width), int(image.height), 3, rgb.data(),
                                        int(image.width) * 3) || !out.flush())
        throw Error(path.string() + ": could not write the PNG");
}

RgbaImage readPng(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    int width = 0, height = 0, channels = 0;
    uint8_t* data = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &width,
                                          &height, &channels, 4);
    if (!data) throw Error(path.string() + ": could not read the PNG (" + stbi_failure_reason() + ")");
    RgbaImage image{uint32_t(width), uint32_t(height), std::vector<uint8_t>(data, data + size_t(width) * height * 4)};
    stbi_image_free(data);
    return image;
}

glm::vec3 cameraDirection() { return glm::normalize(glm::vec3(1.0f, 0.8f, -1.0f)); }

Camera fitCamera(std::span<const std::span<const glm::vec3>> pointSets, float aspect) {
    const glm::vec3 back = cameraDirection();
    const glm::vec3 right = glm::normalize(glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), back));
    const glm::vec3 up = glm::cross(back, right);
    // Bounds in the camera's basis; the eye is placed so that every point fits.
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (auto set : pointSets)
        for (const glm::vec3& p : set)
            if (isFinite(p)) {
                glm::vec3 q(glm::dot(p, right), glm::dot(p, up), glm::dot(p, back));
                lo = glm::min(lo, q);
                hi = glm::max(hi, q);
            }
    if (lo.x > hi.x) lo = hi = glm::vec3(0.0f); // nothing finite: an empty view
    const glm::vec3 centre = 0.5f * (lo + hi);
    const float tanY = std::tan(0.5f * kFieldOfViewY), tanX = tanY * aspect;
    float eyeDepth = hi.z + 1e-3f * std::max(1.0f, glm::length(hi - lo));
    for (auto set : pointSets)
        for (const glm::vec3& p : set)
            if (isFinite(p)) {
                float x = glm::dot(p, right) - centre.x, y = glm::dot(p, up) - centre.y, z = glm::dot(p, back);
                eyeDepth = std::max({eyeDepth, z + kMargin * std::abs(x) / tanX, z + kMargin * std::abs(y) / tanY});
            }
    Camera camera;
    camera.eye = centre.x * right + centre.y * up + eyeDepth * back;
    camera.view = glm::lookAtRH(camera.eye, camera.eye - back, up);
    const float farPlane = 1.05f * (eyeDepth - lo.z) + 1e-3f;
    const float nearPlane = std::max(0.95f * (eyeDepth - hi.z), 1e-4f * farPlane);
    camera.projection = glm::perspectiveRH_ZO(kFieldOfViewY, aspect, nearPlane, farPlane);
    camera.projection[1][1] = -camera.projection[1][1]; // Vulkan's y points down
    return camera;
}

std::vector<glm::vec3> vertexNormals(std::span<const glm::vec3> positions, std::span<const uint32_t> faceSizes,
                                     std::span<const uint32_t> faceIndices) {
    std::vector<glm::vec3> normals(positions.size(), glm::vec3(0.0f));
    forEachTriangle(faceSizes, faceIndices, positions.size(), [&](uint32_t a, uint32_t b, uint32_t c) {
        // The cross product's length is twice the area: larger faces weigh more.
        glm::vec3 n = glm::cross(positions[b] - positions[a], positions[c] - positions[a]);
        if (!isFinite(n)) return;
        normals[a] += n;
        normals[b] += n;
        normals[c] += n;
    });
    for (glm::vec3& n : normals) {
        float length = glm::length(n);
        n = length > 0.0f && std::isfinite(length) ? n / length : glm::vec3(0.0f);
    }
    return normals;
}

MeshRenderer::MeshRenderer(Context& context) : context_(context) {
    const Context::Impl& ctx = implOf(context_);
    VkDevice device = context.device();
    try {
        if (!(context.queueFlags() & VK_QUEUE_GRAPHICS_BIT))
            throw Error(ErrorCode::Unsupported,
                        "render: the queue of " + context.deviceName() + " has no graphics support");
        depthFormat_ = chooseDepthFormat(context);
        vertexShader_ = createShaderModule(context, k_mesh_vert_spirv);
        fragmentShader_ = createShaderModule(context, k_mesh_frag_spirv);
        renderPass_ = createMeshRenderPass(context, depthFormat_);

        const VkShaderStageFlags pushStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
        const VkPushConstantRange push{pushStages, 0, sizeof(MeshPushConstants)};
        const VkPipelineLayoutCreateInfo layoutInfo{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                                    .pushConstantRangeCount = 1, .pPushConstantRanges = &push};
        SF_VK_CHECK(ctx.vk.vkCreatePipelineLayout(device, &layoutInfo, ctx.allocator, &layout_));

        const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
        const VkVertexInputAttributeDescription attributes[3] = {
            {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
            {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
            {2, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, color)}};
        pipeline_ = createMeshPipeline(context, {vertexShader_, fragmentShader_, {&binding, 1}, attributes, layout_,
                                                renderPass_});

        const VkCommandPoolCreateInfo poolInfo{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                               .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                               .queueFamilyIndex = context.queueFamily()};
        SF_VK_CHECK(ctx.vk.vkCreateCommandPool(device, &poolInfo, ctx.allocator, &commandPool_));
        const VkCommandBufferAllocateInfo commandInfo{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                      .commandPool = commandPool_,
                                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                                      .commandBufferCount = 1};
        SF_VK_CHECK(ctx.vk.vkAllocateCommandBuffers(device, &commandInfo, &commands_));
        const VkFenceCreateInfo fenceInfo{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_VK_CHECK(ctx.vk.vkCreateFence(device, &fenceInfo, ctx.allocator, &fence_));
    } catch (...) {
        release();
        throw;
    }
}

MeshRenderer::~MeshRenderer() { release(); }

void MeshRenderer::release() {
    const Context::Impl& ctx = implOf(context_);
    VkDevice device = context_.device();
    if (fence_) ctx.vk.vkDestroyFence(device, fence_, ctx.allocator);
    if (commandPool_) ctx.vk.vkDestroyCommandPool(device, commandPool_, ctx.allocator);
    if (pipeline_) ctx.vk.vkDestroyPipeline(device, pipeline_, ctx.allocator);
    if (layout_) ctx.vk.vkDestroyPipelineLayout(device, layout_, ctx.allocator);
    if (renderPass_) ctx.vk.vkDestroyRenderPass(device, renderPass_, ctx.allocator);
    if (fragmentShader_) ctx.vk.vkDestroyShaderModule(device, fragmentShader_, ctx.allocator);
    if (vertexShader_) ctx.vk.vkDestroyShaderModule(device, vertexShader_, ctx.allocator);
    fence_ = VK_NULL_HANDLE, commandPool_ = VK_NULL_HANDLE, pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE, renderPass_ = VK_NULL_HANDLE, fragmentShader_ = vertexShader_ = VK_NULL_HANDLE;
}

RgbaImage MeshRenderer::render(uint32_t width, uint32_t height, std::span<const MeshView> views,
                               glm::vec3 background) {
    const VkPhysicalDeviceLimits& limits = context_.properties().limits;
    const uint32_t w = width * kSupersample, h = height * kSupersample;
    if (width == 0 || height == 0 || w > std::min(limits.maxFramebufferWidth, limits.maxImageDimension2D) ||
        h > std::min(limits.maxFramebufferHeight, limits.maxImageDimension2D))
        throw Error("render: image size " + std::to_string(width) + "x" + std::to_string(height) +
                    " is empty or beyond what " + context_.deviceName() + " can render");

    // Every view's vertices and triangles, one after another in one buffer.
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices;
    std::vector<std::pair<uint32_t, uint32_t>> ranges; // first index, count
    for (const MeshView& view : views) {
        if (view.colors.size() != view.positions.size()) throw Error("mesh view: one colour per vertex is needed");
        if (view.x < 0 || view.y < 0 || view.width == 0 || view.height == 0 || view.x + view.width > width ||
            view.y + view.height > height)
            throw Error("mesh view: the viewport lies outside the image");
        const std::vector<glm::vec3> positions = drawablePositions(view);
        const std::vector<glm::vec3> normals = vertexNormals(positions, view.faceSizes, view.faceIndices);
        const uint32_t base = uint32_t(vertices.size()), first = uint32_t(indices.size());
        for (size_t i = 0; i < positions.size(); ++i)
            vertices.push_back({positions[i], normals[i], srgbToLinear(glm::clamp(view.colors[i], 0.0f, 1.0f))});
        forEachTriangle(view.faceSizes, view.faceIndices, positions.size(), [&](uint32_t a, uint32_t b, uint32_t c) {
            if (isFinite(positions[a]) && isFinite(positions[b]) && isFinite(positions[c]))
                indices.insert(indices.end(), {base + a, base + b, base + c});
        });
        ranges.emplace_back(first, uint32_t(indices.size()) - first);
    }
    GpuBuffer vertexBuffer(context_, std::max<VkDeviceSize>(vertices.size() * sizeof(Vertex), 16),
                           VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    GpuBuffer indexBuffer(context_, std::max<VkDeviceSize>(indices.size() * 4, 16), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    GpuBuffer readback(context_, VkDeviceSize(w) * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memcpy(vertexBuffer.mapped(), vertices.data(), vertices.size() * sizeof(Vertex));
    std::memcpy(indexBuffer.mapped(), indices.data(), indices.size() * 4);
    RenderTarget target(context_, {w, h}, depthFormat_, renderPass_);

    const Context::Impl& ctx = implOf(context_);
    SF_VK_CHECK(ctx.vk.vkResetCommandBuffer(commands_, 0));
    const VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    SF_VK_CHECK(ctx.vk.vkBeginCommandBuffer(commands_, &begin));
    const glm::vec3 clear = srgbToLinear(background);
    VkClearValue clearValues[2];
    clearValues[0].color = {{clear.r, clear.g, clear.b, 1.0f}};
    clearValues[1].depthStencil = {1.0f, 0};
    const VkRenderPassBeginInfo passBegin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                          .renderPass = renderPass_, .framebuffer = target.framebuffer(),
                                          .renderArea = {{0, 0}, {w, h}}, .clearValueCount = 2,
                                          .pClearValues = clearValues};
    ctx.vk.vkCmdBeginRenderPass(commands_, &passBegin, VK_SUBPASS_CONTENTS_INLINE);
    ctx.vk.vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    const VkBuffer vertexHandle = vertexBuffer.handle();
    const VkDeviceSize zero = 0;
    ctx.vk.vkCmdBindVertexBuffers(commands_, 0, 1, &vertexHandle, &zero);
    ctx.vk.vkCmdBindIndexBuffer(commands_, indexBuffer.handle(), 0, VK_INDEX_TYPE_UINT32);
    for (size_t i = 0; i < views.size(); ++i) {
        if (ranges[i].second == 0) continue;
        const MeshView& view = views[i];
        const int32_t x = view.x * int32_t(kSupersample), y = view.y * int32_t(kSupersample);
        const uint32_t vw = view.width * kSupersample, vh = view.height * kSupersample;
        VkViewport viewport{float(x), float(y), float(vw), float(vh), 0.0f, 1.0f};
        VkRect2D scissor{{x, y}, {vw, vh}};
        ctx.vk.vkCmdSetViewport(commands_, 0, 1, &viewport);
        ctx.vk.vkCmdSetScissor(commands_, 0, 1, &scissor);
        const glm::mat3 toWorld = glm::transpose(glm::mat3(view.camera.view)); // the view's rotation, inverted
        MeshPushConstants push{view.camera.projection * view.camera.view, glm::vec4(view.camera.eye, kAmbient),
                               glm::vec4(toWorld * kKeyDirection, kKey), glm::vec4(toWorld * kFillDirection, kFill)};
        ctx.vk.vkCmdPushConstants(commands_, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                  sizeof(push), &push);
        ctx.vk.vkCmdDrawIndexed(commands_, ranges[i].second, 1, ranges[i].first, 0, 0);
    }
    ctx.vk.vkCmdEndRenderPass(commands_);
    const VkBufferImageCopy region{.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                   .imageExtent = {w, h, 1}};
    ctx.vk.vkCmdCopyImageToBuffer(commands_, target.colorImage(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle(), 1,
                                  &region);
    const VkMemoryBarrier toHost{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    ctx.vk.vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                                nullptr, 0, nullptr);
    SF_VK_CHECK(ctx.vk.vkEndCommandBuffer(commands_));
    const VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                              .pCommandBuffers = &commands_};
    SF_VK_CHECK(ctx.vk.vkResetFences(context_.device(), 1, &fence_));
    SF_VK_CHECK(ctx.vk.vkQueueSubmit(context_.queue(), 1, &submit, fence_));
    SF_VK_CHECK(ctx.vk.vkWaitForFences(context_.device(), 1, &fence_, VK_TRUE, kRenderFenceTimeoutNs));

    // Supersampled pixels averaged in linear light, then encoded again.
    std::array<float, 256> decode;
    for (int i = 0; i < 256; ++i) decode[size_t(i)] = srgbToLinear(float(i) / 255.0f);
    const auto* src = static_cast<const uint8_t*>(readback.mapped());
    RgbaImage image{width, height, std::vector<uint8_t>(size_t(width) * height * 4, 255)};
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c) {
                float sum = 0.0f;
                for (uint32_t dy = 0; dy < kSupersample; ++dy)
                    for (uint32_t dx = 0; dx < kSupersample; ++dx)
                        sum += decode[src[(size_t(y * kSupersample + dy) * w + x * kSupersample + dx) * 4 + c]];
                float value = linearToSrgb(sum / float(kSupersample * kSupersample));
                image.at(x, y)[c] = uint8_t(std::clamp(std::lround(value * 255.0f), 0l, 255l));
            }
    context_.throwOnValidationMessages();
    return image;
}

} // namespace sculptflow
