// Gizmo geometry (the inner sphere, the outer ring, the axes) and its per-frame vertex buffer.
#include "tool_gizmos.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include <sculptflow/default_case.hpp> // icosphere

namespace sculptflow::viewer {
namespace {

// Relative to the outer radius: the axes' half width, the ring's tube radius.
constexpr float kStickHalfWidth = 0.015f;
constexpr float kRingTube = 0.02f;
constexpr int kRingSegments = 64, kRingSides = 6;

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

// A torus about the z axis of radius `radius` and tube radius `tube`, smooth normals.
void appendRing(std::vector<glm::vec3>& out, float radius, float tube) {
    const auto point = [&](int segment, int side, glm::vec3& normal) {
        const float a = 2.0f * std::numbers::pi_v<float> * float(segment) / kRingSegments;
        const float b = 2.0f * std::numbers::pi_v<float> * float(side) / kRingSides;
        const glm::vec3 outward(std::cos(a), std::sin(a), 0.0f);
        normal = std::cos(b) * outward + glm::vec3(0.0f, 0.0f, std::sin(b));
        return radius * outward + tube * normal;
    };
    for (int i = 0; i < kRingSegments; ++i)
        for (int j = 0; j < kRingSides; ++j) {
            glm::vec3 n[4];
            const glm::vec3 p[4] = {point(i, j, n[0]), point(i + 1, j, n[1]), point(i + 1, j + 1, n[2]),
                                    point(i, j + 1, n[3])};
            for (int k : {0, 1, 2, 0, 2, 3}) out.insert(out.end(), {p[k], n[k]});
        }
}

} // namespace

std::vector<glm::vec3> gizmoTriangles(const GizmoShape& shape) {
    std::vector<glm::vec3> out;
    const Mesh ball = icosphere(2, glm::vec3(0.0f), shape.innerRadius);
    for (const uint32_t index : ball.faceIndices)
        out.insert(out.end(), {ball.positions[index], ball.positions[index] / shape.innerRadius});
    const float r = shape.outerRadius, w = kStickHalfWidth * r;
    appendRing(out, r, kRingTube * r);
    appendBox(out, {-w, -w, 0.0f}, {w, w, 0.75f * r}); // local z
    appendBox(out, {0.0f, -w, -w}, {0.5f * r, w, w});  // local x
    appendBox(out, {-w, 0.0f, -w}, {w, 0.5f * r, w});  // local y
    return out;
}

GizmoShape gizmoShape(const Stroke& stroke) {
    const ToolStroke& tool = stroke.tools.front();
    const double inner = tool.innerRadius > 0.0 ? tool.innerRadius : 0.1 * tool.outerRadius;
    return {float(inner / stroke.voxelSize), float(tool.outerRadius / stroke.voxelSize)};
}

ToolGizmos::ToolGizmos(Context& context, const GizmoShape& shape)
    : shape_(gizmoTriangles(shape)), shapeVertices_(uint32_t(shape_.size() / 2)) {
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
                                            const glm::vec3& toolColor, const glm::vec3& copyColor) {
    const size_t count = std::min(copies.size(), kMaxTools);
    const VkDeviceSize slotOffset = vertexBytes(uint32_t(kMaxTools) * shapeVertices_) * slot;
    auto* out = reinterpret_cast<float*>(static_cast<char*>(vertices_.mapped()) + slotOffset);
    uint32_t tools = 0;
    for (size_t c = 0; c < count; ++c) {
        const glm::mat3 frame(copies[c].orientation);
        const glm::vec3 tip(copies[c].position / voxelSize);
        for (size_t v = 0; v < shape_.size(); v += 2) {
            const glm::vec3 position = tip + frame * shape_[v];
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
