// The renderer's path: a move re-solved every frame from the undeformed positions
// straight into the renderer's vertex buffer, recorded into its command buffer.
#pragma once

#include <array>
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
    // Optional (null buffer): the sculpt's mask, read by every solved
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
// stroke of 100 frames stays within the default 0.1 voxel.
inline constexpr double kDefaultSegmentTolerance = segmentTolerance(SolverOptions{}.tolerance, 100);

struct LiveMoveOptions {
    SolverOptions solver;
    bool timestamps = true; // GPU time of each recorded frame (gpuMilliseconds)
};

// One side of a barrier, in synchronization2 terms.
struct AccessScope {
    VkPipelineStageFlags2 stages = 0;
    VkAccessFlags2 accesses = 0;
};

// How record() meets the renderer's own work on the mesh's buffers.
//  - Default (everything empty): the barriers documented at LiveMove, after
//    vertex-input / vertex-shader reads and before them.
//  - Scopes: `before` names the renderer's earlier accesses to the mesh's buffers
//    that record() must wait for (its reads of positions, its writes of anything
//    in the spans), `after` the later ones that wait for record()'s writes (a mesh
//    or task shader, a compute reader such as picking or a BVH refit, an
//    acceleration-structure build, a copy). Recorded with vkCmdPipelineBarrier2
//    where the Context has synchronization2, as Vulkan 1.2 barriers elsewhere.
//  - Async compute (drawQueueFamily): the Context's queue is another family's
//    than the draws'. With EXCLUSIVE buffers record() begins by acquiring each
//    range of RecordReport::transferList() from the draws' family and ends by
//    releasing it back (queue family ownership transfers); the renderer records
//    the matching release on its queue before, in a submission the compute one
//    waits for by a semaphore, and the matching acquire after. With buffers
//    created VK_SHARING_MODE_CONCURRENT, leave it IGNORED: semaphores alone order
//    the two queues.
//  - Render graph: record() places no barrier at its edges for the renderer's
//    buffers (one from its compute/transfer stages to themselves stays first: it
//    orders the library's own buffers after the previous frame) and lists each
//    range of the renderer's buffers it reads or writes in RecordReport::accesses,
//    for the graph to place the barriers (ownership transfers too, for the
//    ranges of RecordReport::transferList()). `before`, `after` and
//    drawQueueFamily are ignored.
struct RecordSync {
    AccessScope before; // no stages: the default
    AccessScope after;  // no stages: the default
    bool renderGraph = false;
    uint32_t drawQueueFamily = VK_QUEUE_FAMILY_IGNORED; // IGNORED: the Context's family, or CONCURRENT buffers
};

// A range of one of the renderer's buffers that a recorded frame accesses, with
// its stages and accesses (flags Vulkan 1.2 shares: they fit VkPipelineStageFlags
// and VkAccessFlags too).
struct BufferAccess {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
    VkPipelineStageFlags2 stages = 0;
    VkAccessFlags2 accesses = 0;
};
inline constexpr uint32_t kMaxRecordAccesses = 6; // the spans' copies, positions, normals, mask, statistics
inline constexpr uint32_t kMaxOwnershipTransfers = 4; // positions, normals, mask, statistics, merged where they overlap

// Names one recorded frame, for LiveMove::submitted().
struct FrameTicket {
    uint64_t frame = 0; // 0: nothing was recorded
};

// What one record() put into the command buffer.
struct RecordReport {
    uint32_t chunksSolved = 0;   // in the tools' reach: integrated (and normals recomputed)
    uint32_t chunksRestored = 0; // changed earlier, now out of reach (or cancelled): positions and normals restored
    uint32_t chunksSnapshotted = 0; // solved for the first time in this move: their bytes copied aside first
    uint32_t chunksTotal = 0;
    uint64_t verticesSolved = 0;
    bool recorded = false;       // false: nothing was pending, nothing recorded
    FrameTicket ticket;          // pass to submitted() once the command buffer is submitted
    // Every range of the renderer's buffers the frame reads or writes (whatever the
    // RecordSync): what a render graph places its barriers for.
    std::array<BufferAccess, kMaxRecordAccesses> accesses{};
    uint32_t accessCount = 0;
    std::span<const BufferAccess> accessList() const { return {accesses.data(), accessCount}; }
    // The ranges of the renderer's buffers that cross queue families with async
    // compute (the same every frame; stages and accesses on the library's side):
    // the renderer's release before and acquire after name exactly these.
    std::array<BufferAccess, kMaxOwnershipTransfers> transfers{};
    uint32_t transferCount = 0;
    std::span<const BufferAccess> transferList() const { return {transfers.data(), transferCount}; }
};

// One mesh's move tool, frame by frame:
//   begin(tools, poses A)  at grab: the tools and the poses they start from;
//   update(poses B)        each frame: the move A → B is solved again from the snapshot
//                          (MoveMode::Move), or the segment from the last submitted
//                          frame's poses to B from the current positions (MoveMode::Continuous);
//   record(commandBuffer)  each frame: records what the submitted frames have not done yet;
//   submitted(ticket)      each frame that the renderer submitted: its work counts as done;
//   commit()               at release: the deformed positions are the new undeformed ones;
//   cancel()               the next frames restore the snapshot's positions and normals exactly.
//
// The frame's lifecycle. The library's state moves on when the renderer says a
// frame was submitted, never when one is recorded:
//
//   live.update(posesB);                              // any number of times
//   sculptflow::RecordReport r = live.record(commands); // outside a render pass, before the draw
//   if (shouldRender) {                               // or drop the frame: nothing else to do
//       vkQueueSubmit(queue, ...commands...);
//       live.submitted(r.ticket);                     // before the next record()
//   }
//
// A record() whose predecessor was not acknowledged treats that frame as dropped
// and records again whatever it did (snapshot copies, the adjacency upload, restores,
// the solve; in continuous mode its segment joins the next one), so a frame that
// is recorded and never submitted leaves no trace. Hence: never submit a command
// buffer after a later record() (submitted() then returns false), and never
// submit one without acknowledging it before the next record(). A move is over
// once the frame carrying its last work is acknowledged (or record() finds none
// left: recorded = false); begin() refuses before.
//
// Owns: the snapshot, room for the streams' byte spans (vertex 0 to the last
// vertex's xyz, positions and normals) into which each chunk's bytes are copied
// in the first frame that solves it, so a grab costs the chunks it reaches, not
// the mesh (RecordReport::chunksSnapshotted); the tools' uniform buffer, the normals adjacency
// (device-local with staged buffers, copied in by the first submitted frame from
// a host-visible copy it keeps), descriptor sets, a timestamp query pool; the
// pipelines are the Context's, shared by its LiveMoves (prewarmLiveMoves).
// Never touches: anything outside those spans, the renderer's other buffers, its queue (nothing is submitted) or its
// device objects. From begin() until the move is over, the solver owns the
// positions and normals (their xyz) of the vertices it writes; the renderer may
// write anything but those, interleaved attributes included: solves and restores
// write positions and normals only, so a colour rewritten during the drag survives
// restores and cancel().
//
// Threads: one thread at a time per LiveMove; record() into a command buffer
// from that thread's pool. Every record() starts with a barrier after earlier
// vertex-input / vertex-shader reads and transfer / compute writes, and ends with
// one from its compute and transfer writes to VK_PIPELINE_STAGE_VERTEX_INPUT_BIT /
// VERTEX_ATTRIBUTE_READ and VERTEX_SHADER / SHADER_READ (COMPUTE_SHADER and
// TRANSFER reads on a queue without graphics), so a draw recorded after it sees
// the new positions.
//
// Frames in flight (all on the adopted queue): record() waits on nothing and
// submitted() is called at submit time, not completion, so frames may be recorded
// ahead without a CPU wait; up to 7 may be in flight (the timestamp ring). What the
// library reuses from frame to frame (the tool block, written by
// vkCmdUpdateBuffer; the compaction scratch; the snapshot; the descriptor sets,
// written once) is ordered on the queue by those barriers; nothing is freed or
// rewritten from the host while a frame may use it. Meanwhile the renderer may
// record and submit its own work, drop or re-record frames, and write any bytes but
// the moving positions and normals: from the host only where no frame in flight
// reads them (a snapshot copy reads its chunks' bytes, interleaved ones included;
// solved frames read the mask), on the GPU after a barrier from
// COMPUTE_SHADER | TRANSFER writes (record()'s descriptors cover the whole span).
// Destroy the LiveMove, or the buffers it uses, only once its frames are complete.
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
    // every pipeline the drag can need that the Context lacks (none after a
    // prewarmLiveMoves() covering these tools), so that no frame compiles one. Throws
    // sculptflow::Error for bad tools, more than kMaxTools with the mirrored
    // copies, or while a move is open or its last frame is not yet submitted.
    void begin(const Stroke& tools, std::span<const Pose> posesA, MoveMode mode = MoveMode::Move);

    // The live poses, one per hand, later in time than the poses before. Allocates
    // nothing and throws nothing: false when refused (lastError() says why), and
    // the previous frame's shape stays. Continuous mode solves each segment to
    // segmentTolerance (voxels; Move mode uses options.solver.tolerance); its poses
    // must be later than the last accepted ones; updates between two submitted
    // frames join into one segment.
    bool update(std::span<const Pose> posesB, double segmentTolerance = kDefaultSegmentTolerance) noexcept;

    // Records the work the submitted frames have not done into `commands`
    // (recording, outside a render pass). Changes nothing the library remembers: a
    // frame not passed to submitted() before the next record() counts as dropped.
    // Allocates nothing, waits on nothing, throws nothing.
    // `sync` says how it meets the renderer's work (RecordSync).
    [[nodiscard]] RecordReport record(VkCommandBuffer commands, const RecordSync& sync = {}) noexcept;

    // The command buffer of the record() that returned `ticket` was submitted
    // (vkQueueSubmit returned): its work counts as done. Call it right after
    // submitting, before the next record(). An empty ticket (nothing recorded) is
    // ignored. False, changing nothing, for a ticket that is not the latest
    // record()'s or was acknowledged already (lastError() says which). Allocates
    // nothing, throws nothing.
    bool submitted(FrameTicket ticket) noexcept;

    // Release. The frames still to record (the last solve, or the restores) are
    // recorded by the next record()s; the move is over once they are submitted.
    void commit();
    void cancel();

    // Undo. Once a committed move is over and until the next begin(): the chunks it
    // changed (ascending; all of them, index 0, for a mesh given without chunks).
    // Empty otherwise (during a move, after a cancel).
    std::span<const uint32_t> changedChunks() const;
    // Records into `commands` a copy of those chunks' pre-grab bytes of the
    // position span (and the normal span, when the normals are in a buffer of
    // their own) into `positionsCopy` (and `normalsCopy`): buffers of the
    // renderer's, with TRANSFER_DST usage, at least as large as the mesh's buffers
    // up to the spans' ends, receiving the bytes at the offsets they have in the
    // mesh's buffers. Per chunk the bytes run from its first vertex's first
    // attribute to its last vertex's last, so interleaved attributes between them
    // come along as they were when the move first reached the chunk. Starts with a barrier after the
    // library's writes; the renderer orders its own accesses to the copies
    // (transfer writes here). Changes no state: a dropped frame records it again.
    // Allocates nothing, throws nothing; false (lastError()) outside that window or
    // without positionsCopy.
    bool recordUndoCopy(VkCommandBuffer commands, VkBuffer positionsCopy,
                        VkBuffer normalsCopy = VK_NULL_HANDLE) noexcept;

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

private:
    friend struct ImplAccess; // the library's internal way in
    std::unique_ptr<Impl> impl_;
};

// What of a RendererMesh changes the pipelines a drag needs.
struct MeshFeatures {
    bool mask = false;       // RendererMesh::mask given
    bool statistics = false; // RendererMesh::statistics given
};

// At load time: builds every pipeline the LiveMoves of `context` need to drag with
// each of `toolSets` (each a Stroke: the hands' kinds, profiles, falloffs and the
// symmetry, so the tool count; their poses are not read), with options.solver's
// method and budget, on meshes with `features`. The pipelines belong to the Context
// and are shared by all its LiveMoves (built under a mutex: LiveMoves on several
// threads may share them); a begin() whose tools a prewarm covered creates none.
// Returns how many it created (0: all were built before). Throws sculptflow::Error
// as begin() does for bad tools.
SCULPTFLOW_API uint32_t prewarmLiveMoves(Context& context, std::span<const Stroke> toolSets,
                                         const LiveMoveOptions& options = {}, const MeshFeatures& features = {});


} // namespace sculptflow
