// The renderer's path: a move re-solved every frame from the undeformed positions
// straight into the renderer's vertex buffer, recorded into its command buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "chunk_reach.hpp"
#include "context.hpp"
#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "gpu_buffer.hpp"
#include "kernel.hpp"
#include "motion.hpp"
#include "normals_pipeline.hpp"
#include "solver_options.hpp"
#include "stroke.hpp"

namespace sculptflow {

// A float xyz attribute in one of the renderer's buffers.
struct VertexStream {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0; // bytes to vertex 0's x; a multiple of 4
    uint32_t stride = 12;    // bytes from one vertex to the next; a multiple of 4, ≥ 12
};

// A range of vertices (a meshed voxel block) and a box holding them, in voxels.
struct MeshChunk {
    uint32_t firstVertex = 0;
    uint32_t vertexCount = 0;
    Bounds bounds;
};

// The renderer's mesh. Its buffers need VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
// TRANSFER_SRC_BIT and TRANSFER_DST_BIT, and must outlive the LiveMove.
struct RendererMesh {
    uint32_t vertexCount = 0;
    VertexStream positions; // voxels; read at begin(), written by every solved frame
    VertexStream normals;   // optional (null buffer): recomputed wherever positions move
    // Three indices a triangle, read once here (needed with normals). Triangles
    // should not span chunks: a vertex's normal is recomputed when its own chunk is.
    std::span<const uint32_t> triangles;
    // Disjoint ranges covering the vertices; empty: one chunk, always solved.
    std::span<const MeshChunk> chunks;
};

struct LiveMoveOptions {
    SolverOptions solver;
    bool timestamps = true; // GPU time of each recorded frame (gpuMilliseconds)
};

// What one record() put into the command buffer.
struct RecordReport {
    uint32_t chunksSolved = 0;   // in the tools' reach: integrated (and normals recomputed)
    uint32_t chunksRestored = 0; // changed earlier, now out of reach (or cancelled): copied back
    uint32_t chunksTotal = 0;
    uint64_t verticesSolved = 0;
    bool recorded = false;       // false: nothing was pending, nothing recorded
};

// One mesh's move tool, frame by frame:
//   begin(tools, poses A)  at grab: the undeformed positions are snapshotted;
//   update(poses B)        each frame: the move A → B is solved again from the snapshot;
//   record(commandBuffer)  each frame: records what begin/update/cancel asked for;
//   commit()               at release: the deformed positions are the new undeformed ones;
//   cancel()               the next record() restores the snapshot's bytes exactly.
//
// Owns: the snapshot of the streams' byte spans (vertex 0 to the last vertex's
// xyz, positions and normals), the tools' uniform buffer, the normals adjacency,
// descriptor sets, a timestamp query pool. Never touches: anything outside those
// spans, the renderer's other buffers, its queue (nothing is submitted) or its
// device objects. From begin() until the last record() after commit()/cancel(),
// the solver owns the bytes of the spans in the chunks it writes; the renderer
// must not write them.
//
// Threads: one thread at a time per LiveMove; record() into a command buffer
// from that thread's pool. Frames in flight may share the vertex buffer: every
// record() starts with a barrier after earlier vertex-input reads and transfer /
// compute writes, and ends with one from its compute and transfer writes to
// VK_PIPELINE_STAGE_VERTEX_INPUT_BIT / VERTEX_ATTRIBUTE_READ and
// VERTEX_SHADER / SHADER_READ (COMPUTE_SHADER and TRANSFER reads on a queue
// without graphics), so a draw recorded after it sees the new positions.
class LiveMove {
public:
    // Validates the mesh (Error names the field), builds the normals adjacency and
    // allocates everything a frame needs. Submits nothing.
    LiveMove(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options = {});
    ~LiveMove();
    LiveMove(const LiveMove&) = delete;
    LiveMove& operator=(const LiveMove&) = delete;

    // Grab. `tools` gives each hand's kind, radii, material and the voxel size
    // (their poses are not read); posesA one pose per hand. Builds the pipeline
    // the move needs. Throws sculptflow::Error for bad tools or while a move is
    // open or its last frame is not yet recorded.
    void begin(const Stroke& tools, std::span<const Pose> posesA);

    // The live poses, one per hand, later in time than pose A. Allocates nothing
    // and throws nothing: false when refused (lastError() says why), and the
    // previous frame's shape stays.
    bool update(std::span<const Pose> posesB) noexcept;

    // Records the pending work into `commands` (recording, outside a render pass).
    // Allocates nothing, waits on nothing, throws nothing.
    RecordReport record(VkCommandBuffer commands) noexcept;

    void commit();
    void cancel();

    bool moving() const { return state_ == State::Moving; }
    const std::string& lastError() const { return lastError_; }
    // GPU milliseconds of a frame recorded a few frames ago, once available; NaN before.
    double gpuMilliseconds() const;

    size_t chunkCount() const { return chunks_.size(); }
    const Bounds& chunkBounds(size_t chunk) const { return chunks_[chunk].bounds; }
    // Replaces a chunk's bounds (after the renderer re-meshes it, say). A committed
    // move grows the bounds of the chunks it changed by displacementBound().
    void setChunkBounds(size_t chunk, const Bounds& bounds);

private:
    enum class State { Idle, Moving };
    struct Span; // a byte range of a renderer buffer and its place in the snapshot

    void createDescriptors(const RendererMesh& mesh);
    void recordSolve(VkCommandBuffer commands, RecordReport& report);
    void recordRestores(VkCommandBuffer commands);
    void release();

    Context& context_;
    LiveMoveOptions options_;
    uint32_t vertexCount_ = 0;
    bool hasNormals_ = false;
    VertexStream positionStream_;
    VertexStream normalStream_;
    std::vector<Span> spans_;
    std::vector<MeshChunk> chunks_;
    std::vector<uint8_t> dirty_;         // chunk written since begin()
    std::vector<uint8_t> restoring_;     // chunk to copy back at the next record()
    std::vector<VkBufferCopy> copies_;   // scratch, sized at construction
    std::vector<uint32_t> solvedChunks_; // scratch, sized at construction

    DeformPipelines deformPipelines_;
    std::unique_ptr<NormalsPipeline> normalsPipeline_;
    GpuBuffer snapshot_;
    GpuBuffer tools_;
    GpuBuffer noStatistics_;
    GpuBuffer adjacencyStart_;
    GpuBuffer adjacencyPairs_;
    DeformScratch deformScratch_; // the compaction's, sized to the mesh
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    DeformBinding deformBinding_;
    VkDescriptorSet normalsSet_ = VK_NULL_HANDLE;
    NormalsPushConstants normalsLayout_{};
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    uint32_t frame_ = 0;

    State state_ = State::Idle;
    Stroke toolSettings_;
    std::vector<Pose> posesA_;
    Move move_;
    kernel::Kernel kernel_;
    bool snapshotPending_ = false;
    bool solvePending_ = false;
    std::string lastError_;
};

} // namespace sculptflow
