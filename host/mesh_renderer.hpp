// Offscreen mesh rendering with a Vulkan graphics pipeline, read back to an RGBA image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include "vulkan_functions.hpp"

namespace sculptflow {

class Context;

// 8-bit sRGB RGBA pixels, rows top to bottom, tightly packed.
struct RgbaImage {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> pixels; // width·height·4

    uint8_t* at(uint32_t x, uint32_t y) { return &pixels[(size_t(y) * width + x) * 4]; }
    const uint8_t* at(uint32_t x, uint32_t y) const { return &pixels[(size_t(y) * width + x) * 4]; }
};

// Writes a PNG (RGB; alpha is dropped, every pixel is opaque). Throws sculptflow::Error naming the path.
void writePng(const RgbaImage& image, const std::filesystem::path& path);
// Reads a PNG as RGBA. Throws sculptflow::Error naming the path.
RgbaImage readPng(const std::filesystem::path& path);

// A perspective camera and two lights that follow it (key from the upper left,
// fill from the right), so that every view is lit the same way.
struct Camera {
    glm::mat4 view{1.0f};
    glm::mat4 projection{1.0f}; // Vulkan clip space: depth in [0, 1], y down
    glm::vec3 eye{0.0f};
};

// The direction the camera looks from (towards the eye from the target): a fixed
// three-quarter view, y up.
glm::vec3 cameraDirection();

// A camera looking along -cameraDirection() that frames every finite point of
// every set, with a small margin, for a viewport of the given aspect (width/height).
Camera fitCamera(std::span<const std::span<const glm::vec3>> pointSets, float aspect);

// One mesh drawn into one viewport. Polygons are drawn as fans. Colours are
// sRGB in [0, 1], one per vertex, interpolated across triangles and multiplied
// by the lighting. A non-finite vertex is drawn at the mean of its finite
// neighbours, so its colour still shows; triangles with no such place are dropped.
struct MeshView {
    std::span<const glm::vec3> positions;
    std::span<const glm::vec3> colors;
    std::span<const uint32_t> faceSizes;
    std::span<const uint32_t> faceIndices;
    Camera camera;
    int32_t x = 0, y = 0;          // the viewport, in pixels from the top left
    uint32_t width = 0, height = 0;
};

// Per-vertex unit normals: area-weighted face normals (polygons as fans), summed.
// Vertices in no face, or in degenerate ones only, get a zero normal.
std::vector<glm::vec3> vertexNormals(std::span<const glm::vec3> positions, std::span<const uint32_t> faceSizes,
                                     std::span<const uint32_t> faceIndices);

// Renders on the context's device: its queue family must support graphics.
// Owns its shaders, render pass, pipeline, command pool and fence; the images
// of one render() are created and destroyed inside it. Not copyable.
class MeshRenderer {
public:
    explicit MeshRenderer(Context& context);
    ~MeshRenderer();
    MeshRenderer(const MeshRenderer&) = delete;
    MeshRenderer& operator=(const MeshRenderer&) = delete;

    // Clears to `background` (sRGB), draws each view with a depth buffer and
    // reads the colour image back. Throws sculptflow::Error for a size the
    // device cannot render, for bad views, and for any validation message.
    RgbaImage render(uint32_t width, uint32_t height, std::span<const MeshView> views, glm::vec3 background);

private:
    void release();

    Context& context_;
    VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
    VkShaderModule vertexShader_ = VK_NULL_HANDLE;
    VkShaderModule fragmentShader_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

} // namespace sculptflow
