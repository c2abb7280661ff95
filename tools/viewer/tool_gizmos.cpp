// Gizmo geometry (a ball and two sticks) and its per-frame vertex buffer.
#include "tool_gizmos.hpp"

#include <algorithm>
#include <cstring>

#include "default_case.hpp" // icosphere

namespace sculptflow::viewer {
namespace {

constexpr float kStickHalfWidth = 0.2f;

// An axis-aligned box's 12 triangles with flat normals, appended as position, normal pairs.
void appendBox(std::vector<glm::vec3>& out, const glm::vec3& lo, const glm::vec3& hi) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            glm::vec3 normal(0.0f);
            normal[axis] = side ? 1.0f : -1.0f;
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            glm::vec3 corners[4];
            for (int k = 0; k < 4; ++k) {
                corners[k][axis] = side ? hi[axis] : lo[axis];
                corners[k][u] = (k == 1 || k == 2) ? hi[u] : lo[u];
                corners[k][v] = (k >= 2) ? hi[v] : lo[v];
            }
            for (int k : {0, 1, 2, 0, 2, 3}) out.insert(out.end(), {corners[k], normal});
        }
}

constexpr VkDeviceSize vertexBytes(uint32_t vertices) { return VkDeviceSize(vertices) * kVertexStride; }

} // namespace

std::vector<glm::vec3> gizmoTriangles() {
    std::vector<glm::vec3> out;
    const Mesh ball = icosphere(1, glm::vec3(0.0f), 1.0f);
    for (const uint32_t index : ball.faceIndices) out.insert(out.end(), {ball.positions[index], ball.positions[index]});
    const float w = kStickHalfWidth;
    appendBox(out, {-w, -w, 0.0f}, {w, w, 3.0f}); // local z
    appendBox(out, {0.0f, -w, -w}, {2.0f, w, w}); // local x
    return out;
}

float gizmoRadius(const Stroke& stroke) {
    const ToolStroke& tool = stroke.tools.front();
    return float(0.5 * std::max(tool.innerRadius, 0.2 * tool.outerRadius) / stroke.voxelSize);
}

ToolGizmos::ToolGizmos(Context& context)
    : shape_(gizmoTriangles()), shapeVertices_(uint32_t(shape_.size() / 2)) {
    const uint32_t capacity = uint32_t(kMaxTools) * shapeVertices_;
    vertices_ = GpuBuffer(context, vertexBytes(capacity) * kFramesInFlight, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          "the tools' gizmos");
    attributes_ = GpuBuffer(context, VkDeviceSize(capacity) * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                            "the gizmos' chunk ids and mask");
    auto* attributes = static_cast<uint32_t*>(attributes_.mapped());
    std::fill_n(attributes, capacity, 0u);
    std::fill_n(reinterpret_cast<float*>(attributes + capacity), capacity, 1.0f);
}

std::vector<OverlayDraw> ToolGizmos::update(uint32_t slot, std::span<const ToolCopy> copies, double voxelSize,
                                            float radius, const glm::vec3& toolColor, const glm::vec3& copyColor) {
    const size_t count = std::min(copies.size(), kMaxTools);
    const VkDeviceSize slotOffset = vertexBytes(uint32_t(kMaxTools) * shapeVertices_) * slot;
    auto* out = reinterpret_cast<float*>(static_cast<char*>(vertices_.mapped()) + slotOffset);
    uint32_t tools = 0;
    for (size_t c = 0; c < count; ++c) {
        const glm::mat3 frame(copies[c].orientation);
        const glm::vec3 tip(copies[c].position / voxelSize);
        for (size_t v = 0; v < shape_.size(); v += 2) {
            const glm::vec3 position = tip + radius * (frame * shape_[v]);
            const glm::vec3 normal = frame * shape_[v + 1];
            std::memcpy(out, &position, 12);
            std::memcpy(out + 3, &normal, 12);
            out += 6;
        }
        if (!copies[c].mirrored) tools = uint32_t(c + 1);
    }
    const VkDeviceSize maskOffset = VkDeviceSize(kMaxTools) * shapeVertices_ * 4;
    const auto draw = [&](uint32_t first, uint32_t gizmos, const glm::vec3& color) {
        return OverlayDraw{vertices_.handle(), slotOffset + vertexBytes(first * shapeVertices_), attributes_.handle(),
                           maskOffset, gizmos * shapeVertices_, color};
    };
    std::vector<OverlayDraw> draws;
    if (tools > 0) draws.push_back(draw(0, tools, toolColor));
    if (count > tools) draws.push_back(draw(tools, uint32_t(count) - tools, copyColor));
    return draws;
}

} // namespace sculptflow::viewer
