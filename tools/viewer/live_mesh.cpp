// Upload, reset and the per-frame begin / update / record / commit of the viewer's mesh.
#include "live_mesh.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <sculptflow/error.hpp>
#include "host/context_impl.hpp"
#include "host/memory_barrier.hpp"
#include "host/mesh_renderer.hpp" // vertexNormals
#include "host/vulkan_check.hpp"
#include "one_time_commands.hpp"

namespace sculptflow::viewer {
namespace {

constexpr VkPipelineStageFlags kVertexStages = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT;
constexpr VkAccessFlags kVertexReads = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_SHADER_READ_BIT;

} // namespace

LiveMesh::LiveMesh(Context& context, VkCommandPool pool, const ChunkedMesh& mesh, const Stroke& stroke,
                   const LiveMoveOptions& options)
    : vk_(vkFunctions(context)),
      vertexCount_(uint32_t(mesh.positions.size())),
      indexCount_(uint32_t(mesh.triangles.size())),
      chunks_(mesh.chunks),
      playback_(stroke) {
    if (vertexCount_ == 0) throw Error("mesh: no vertices to show");
    // Interleaved position and normal, as the draw and the solver read them.
    const std::vector<uint32_t> faceSizes(mesh.triangles.size() / 3, 3u);
    const std::vector<glm::vec3> normals = vertexNormals(mesh.positions, faceSizes, mesh.triangles);
    const VkDeviceSize bytes = VkDeviceSize(vertexCount_) * kVertexStride;
    // Also drawn: as the mesh before the drag, and as the heat map's rest positions.
    undeformed_ = GpuBuffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                            "the undeformed vertices");
    auto* out = static_cast<float*>(undeformed_.mapped());
    for (uint32_t i = 0; i < vertexCount_; ++i) {
        std::memcpy(out + 6 * i, &mesh.positions[i], 12);
        std::memcpy(out + 6 * i + 3, &normals[i], 12);
    }
    vertices_ = GpuBuffer(context, bytes,
                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          "the vertex buffer", BufferMemory::DeviceLocal);
    chunkIds_ = GpuBuffer(context, VkDeviceSize(vertexCount_) * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "chunk ids");
    std::memcpy(chunkIds_.mapped(), mesh.chunkOfVertex.data(), size_t(vertexCount_) * 4);
    mask_ = GpuBuffer(context, VkDeviceSize(vertexCount_) * 4,
                      VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the mask");
    setMask({});
    indices_ = GpuBuffer(context, std::max<VkDeviceSize>(VkDeviceSize(indexCount_) * 4, 16),
                         VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "the triangles");
    if (indexCount_ > 0) std::memcpy(indices_.mapped(), mesh.triangles.data(), size_t(indexCount_) * 4);
    // The solver's per-vertex statistics, for the evaluations map: 0 until a frame solves.
    statistics_ = GpuBuffer(context, VkDeviceSize(vertexCount_) * kStatisticsStride,
                            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            "the solver's statistics", BufferMemory::DeviceLocal);
    submitAndWait(context, pool, [&](VkCommandBuffer commands) {
        const VkBufferCopy region{0, 0, bytes};
        vkCmdCopyBuffer(commands, undeformed_.handle(), vertices_.handle(), 1, &region);
        vkCmdFillBuffer(commands, statistics_.handle(), 0, VK_WHOLE_SIZE, 0);
        memoryBarrier(vk_, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      kVertexStages | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                      kVertexReads | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                          VK_ACCESS_TRANSFER_WRITE_BIT);
    });

    RendererMesh renderer;
    renderer.vertexCount = vertexCount_;
    renderer.positions = {vertices_.handle(), 0, kVertexStride};
    renderer.normals = {vertices_.handle(), kNormalOffset, kVertexStride};
    renderer.triangles = mesh.triangles;
    renderer.chunks = mesh.chunks;
    renderer.mask = {mask_.handle(), 0, 4};
    renderer.statistics = statistics_.handle();
    live_ = std::make_unique<LiveMove>(context, renderer, options);
}

LiveMesh::~LiveMesh() = default;

void LiveMesh::recordReset(VkCommandBuffer commands) {
    // After earlier draws read the vertices and the solver wrote them; before the
    // grab's snapshot (LiveMove::record's first barrier covers transfer writes) and the draw.
    memoryBarrier(vk_, commands, kVertexStages | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT);
    const VkBufferCopy region{0, 0, vertices_.size()};
    vkCmdCopyBuffer(commands, undeformed_.handle(), vertices_.handle(), 1, &region);
    memoryBarrier(vk_, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  kVertexStages | VK_PIPELINE_STAGE_TRANSFER_BIT, kVertexReads | VK_ACCESS_TRANSFER_READ_BIT);
    for (size_t c = 0; c < chunks_.size(); ++c) live_->setChunkBounds(c, chunks_[c].bounds);
}

RecordReport LiveMesh::recordFrame(VkCommandBuffer commands, const PlaybackFrame& frame) {
    if (frame.reset) recordReset(commands);
    if (frame.grab) {
        live_->begin(playback_.stroke(), playback_.posesA(), mode_);
        poses_.assign(playback_.posesA().begin(), playback_.posesA().end());
    }
    if (frame.drag) {
        const std::span<const Pose> posesB = playback_.posesAt(frame.u);
        if (live_->update(posesB, segmentTolerance_)) poses_.assign(posesB.begin(), posesB.end());
        // refused: the previous shape stays
    }
    const RecordReport report = live_->record(commands);
    // A refused update or a failed record leaves a message; each new one is printed once.
    if (!live_->lastError().empty() && live_->lastError() != lastError_) {
        lastError_ = live_->lastError();
        std::fprintf(stderr, "sculptflow-viewer: the live move refused a frame: %s\n", lastError_.c_str());
    }
    return report;
}

void LiveMesh::finishFrame(const PlaybackFrame& frame, const RecordReport& report) {
    live_->submitted(report.ticket); // the latest record()'s, just submitted: cannot be refused
    if (frame.release && live_->moving()) live_->commit();
}

void LiveMesh::setMask(std::span<const float> mask) {
    auto* values = static_cast<float*>(mask_.mapped());
    if (mask.empty()) std::fill_n(values, vertexCount_, 1.0f);
    else std::memcpy(values, mask.data(), size_t(vertexCount_) * 4);
}

void LiveMesh::setMode(MoveMode mode, double segmentTolerance) {
    mode_ = mode;
    segmentTolerance_ = segmentTolerance;
}

bool LiveMesh::cancel() {
    if (!live_->moving()) return false;
    live_->cancel();
    return true;
}

std::vector<glm::vec3> LiveMesh::readPositions(Context& context, VkCommandPool pool) const {
    GpuBuffer host(context, vertices_.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, "the vertices read back");
    submitAndWait(context, pool, [&](VkCommandBuffer commands) {
        // After the solver's writes and the draws' reads of earlier submissions.
        memoryBarrier(vk_, commands,
                      kVertexStages | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
        const VkBufferCopy region{0, 0, vertices_.size()};
        vkCmdCopyBuffer(commands, vertices_.handle(), host.handle(), 1, &region);
        memoryBarrier(vk_, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    });
    std::vector<glm::vec3> positions(vertexCount_);
    const auto* in = static_cast<const float*>(host.mapped());
    for (uint32_t i = 0; i < vertexCount_; ++i) std::memcpy(&positions[i], in + 6 * i, 12);
    return positions;
}

DrawCall LiveMesh::drawCall(bool undeformed) const {
    DrawCall draw;
    draw.vertices = undeformed ? undeformed_.handle() : vertices_.handle();
    draw.rest = undeformed_.handle();
    draw.chunkIds = chunkIds_.handle();
    draw.mask = mask_.handle();
    draw.statistics = statistics_.handle();
    draw.indices = indices_.handle();
    draw.indexCount = indexCount_;
    return draw;
}

} // namespace sculptflow::viewer
