// The renderer's path: a move re-solved every frame from the undeformed positions
// straight into the renderer's vertex buffer, recorded into its command buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "context.hpp"
#include "mesh.hpp"
#include "motion.hpp"
#include "solver_options.hpp"
#include "stroke.hpp"

namespace sculptflow {

// A float xyz attribute in one of the renderer's buffers.
struct VertexStream {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0; // bytes to vertex 0's x; a multiple of 4
    uint32_t stride = 12;    // bytes from one vertex to the next; a multiple of 4, ≥ 12
};

// A float per vertex in one of the renderer's buffers (a mask).
struct ScalarStream {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0; // bytes to vertex 0's value; a multiple of 4
    uint32_t stride = 4;     // bytes from one vertex to the next; a multiple of 4, ≥ 4
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
    // Optional (null buffer): the sculpt's mask (spec §3.5), read by every solved
    // frame, so the renderer may paint it between frames; needs STORAGE_BUFFER_BIT.
    // A value scales its vertex's displacement; 0 freezes it bit for bit and costs
    // no solver time. Values are clamped to [0, 1]; NaN freezes.
    ScalarStream mask;
    // Optional (null buffer): a debug output. Every solved frame writes each vertex
    // it visits a VertexStatistics (16 bytes: flags, accepted and rejected steps,
    // evaluations; sculptflow/solve_report.hpp) at byte 16·v of this buffer, which
    // must hold 16 × vertexCount bytes and have STORAGE_BUFFER_BIT. Vertices of
    // chunks not solved keep their last values. For heat maps of the solver's work.
    VkBuffer statistics = VK_NULL_HANDLE;
};

// Continuous mode's default tolerance for one frame's segment, in voxels: a
// stroke of 100 frames stays within the default 0.1 voxel (spec §2).
inline constexpr double kDefaultSegmentTolerance = 1e-3;

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
//   update(poses B)        each frame: the move A → B is solved again from the snapshot
//                          (MoveMode::Move), or the segment from the last recorded
//                          poses to B from the current positions (MoveMode::Continuous);
//   record(commandBuffer)  each frame: records what begin/update/cancel asked for;
//   commit()               at release: the deformed positions are the new undeformed ones;
//   cancel()               the next record() restores the snapshot's bytes exactly.
//
// Owns: the snapshot of the streams' byte spans (vertex 0 to the last vertex's
// xyz, positions and normals), the tools' uniform buffer, the normals adjacency
// (device-local with staged buffers, copied in by the first record() from a
// host-visible copy it keeps), descriptor sets, a timestamp query pool. Never touches: anything outside those
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
class SCULPTFLOW_API LiveMove {
public:
    // Validates the mesh (Error names the field), builds the normals adjacency and
    // allocates everything a frame needs. Submits nothing.
    LiveMove(Context& context, const RendererMesh& mesh, const LiveMoveOptions& options = {});
    ~LiveMove();
    LiveMove(const LiveMove&) = delete;
    LiveMove& operator=(const LiveMove&) = delete;

    // Grab. `tools` gives each hand's kind, radii, material, the voxel size and
    // the symmetry (their poses are not read); posesA one pose per hand. Builds
    // every pipeline the drag can need, so that no frame compiles one. Throws
    // sculptflow::Error for bad tools, more than kMaxTools with the mirrored
    // copies, or while a move is open or its last frame is not yet recorded.
    void begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode = MoveMode::Move);

    // The live poses, one per hand, later in time than the poses before. Allocates
    // nothing and throws nothing: false when refused (lastError() says why), and
    // the previous frame's shape stays. Continuous mode solves each segment to
    // segmentTolerance (voxels; Move mode uses options.solver.tolerance); updates
    // between two record()s join into one segment.
    bool update(std::span<const Pose> posesB, double segmentTolerance = kDefaultSegmentTolerance) noexcept;

    // Records the pending work into `commands` (recording, outside a render pass).
    // Allocates nothing, waits on nothing, throws nothing.
    RecordReport record(VkCommandBuffer commands) noexcept;

    void commit();
    void cancel();

    bool moving() const;
    const std::string& lastError() const;
    // GPU milliseconds of a frame recorded a few frames ago, once available; NaN before.
    double gpuMilliseconds() const;

    size_t chunkCount() const;
    const Bounds& chunkBounds(size_t chunk) const;
    // Replaces a chunk's bounds (after the renderer re-meshes it, say). A committed
    // move grows the bounds of the chunks it changed by how far it could carry a vertex.
    void setChunkBounds(size_t chunk, const Bounds& bounds);

    struct Impl; // the library's side, opaque to callers
    Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace sculptflow
