/* sculptflow's C API: C99, also valid C++; the stable boundary for plugins
 * (engine modules, Unity native plugins) and other compilers (README, "ABI").
 *
 * Opaque handles, create-info structs whose first member is their size, and a
 * result code from every call that can fail: SF_SUCCESS (0) or a negative
 * SfResult, with the failure's text from sfGetLastError / sfLiveMoveGetLastError
 * and the VkResult that caused it from sfGetLastVkResult / sfLiveMoveGetLastVkResult.
 * No call aborts, and a failed call writes nothing to its outputs.
 *
 * Result codes name the cause, the same at every call that can meet it: a bad
 * value is SF_ERROR_INVALID_ARGUMENT wherever it is found; host memory running
 * out (std::bad_alloc, or VK_ERROR_OUT_OF_HOST_MEMORY from allocationCallbacks or
 * the driver) SF_ERROR_OUT_OF_HOST_MEMORY; device memory (the driver's, or the
 * heap's room checked before allocating) SF_ERROR_OUT_OF_DEVICE_MEMORY; a lost
 * device SF_ERROR_DEVICE_LOST. Which calls can meet which:
 *   sfCreateContext:  all but INVALID_STATE and DEVICE_LOST;
 *   sfSolve:          INVALID_ARGUMENT, INVALID_STRUCT_SIZE, OUT_OF_HOST_MEMORY;
 *                     with SF_BACKEND_GPU also OUT_OF_DEVICE_MEMORY, DEVICE_LOST,
 *                     DEVICE, INITIALIZATION_FAILED (a memory type the device lacks);
 *   sfCreateLiveMove, sfPrewarmLiveMoves, sfLiveMoveBegin (the last two build
 *                     pipelines): INVALID_ARGUMENT, INVALID_STRUCT_SIZE,
 *                     OUT_OF_HOST_MEMORY, OUT_OF_DEVICE_MEMORY, DEVICE,
 *                     INITIALIZATION_FAILED; sfLiveMoveBegin also INVALID_STATE;
 *   sfLiveMoveGetChunkBounds, sfLiveMoveSetChunkBounds, sfLiveMoveGetChangedChunks,
 *   sfSavePipelineCache: INVALID_ARGUMENT;
 *   sfLiveMoveRecordUndoCopy: INVALID_ARGUMENT, INVALID_STATE;
 *   sfLiveMoveRecord:  INVALID_ARGUMENT (a drawQueueFamily the device lacks too),
 *                     INVALID_STRUCT_SIZE; a failure while recording returns its
 *                     cause's code (DEVICE for the library's own), never
 *                     SF_SUCCESS with nothing recorded: end the command buffer
 *                     and drop it (nothing of the move's was recorded to submit);
 *   sfLiveMoveUpdate, sfLiveMoveSubmitted, sfLiveMoveCommit,
 *   sfLiveMoveCancel: INVALID_ARGUMENT, INVALID_STRUCT_SIZE, INVALID_STATE (they
 *                     allocate nothing and call no fallible Vulkan command; a lost
 *                     device shows at the renderer's own vkQueueSubmit).
 * SF_ERROR_UNKNOWN is a bug: please report it with its text.
 *
 * Units: positions in voxels; tool radii, poses and the symmetry origin in world
 * units, converted with SfTools::voxelSize (as the C++ API).
 *
 * Include your Vulkan header (vulkan.h, or volk.h) first, or the core header
 * comes in as it is.
 *
 * Initialising a struct: SF_INIT_STRUCT(&info) zeroes it and sets its structSize
 * (memset, then structSize = sizeof), clean under -Wall -Wextra in C and C++;
 * `= {sizeof(T)}` trips -Wmissing-field-initializers. Zero is every field's default.
 *
 * structSize: sizeof the struct in the headers a caller compiles with. The
 * library accepts any size from the struct's first version on: fields past a
 * smaller structSize take their defaults (zero), and bytes past the library's own
 * struct must be zero (SF_ERROR_INVALID_STRUCT_SIZE otherwise). New fields go at
 * the end of a struct (not into chained extension structs: each addition so far
 * is a value or two that every caller may leave zero, and one flat struct keeps
 * a C# or Rust binding a single declaration). Minimum sizes (the first version's):
 *   SfTools: its sizeof in 0.1.0 (no field added since);
 *   SfContextCreateInfo: up to and including `logUserData`, as in 0.1.0
 *     (offsetof(SfContextCreateInfo, objectNamePrefix));
 *   SfRecordSync: up to and including `afterAccesses`, as in 0.1.0
 *     (offsetof(SfRecordSync, renderGraph));
 *   SfRecordReport: up to and including `verticesSolved`, as in 0.1.0
 *     (offsetof(SfRecordReport, chunksSnapshotted)); an output: the library
 *     writes the fields its structSize covers and leaves the bytes past them alone;
 *   SfSolveInfo: up to and including `tolerance`, as in 0.1.0
 *     (offsetof(SfSolveInfo, cpuThreads));
 *   SfLiveMoveCreateInfo: up to and including `tolerance`, as in 0.1.0
 *     (offsetof(SfLiveMoveCreateInfo, positionsBufferSize));
 *   SfPrewarmInfo (it came after 0.1.0): up to and including `tolerance`
 *     (offsetof(SfPrewarmInfo, mask)).
 * The fields added since 0.1.0 are marked "Added after 0.1.0"; a structSize that
 * ends before any of them leaves them zero, their default.
 * SfTool, SfPose, SfVertexStream, SfScalarStream, SfMeshChunk,
 * SfVertexStatistics and SfBufferAccess are array or member elements
 * without a size: their layout stays within a major version. Every enum is 32 bits (_MAX_ENUM).
 *
 * Threads (as the C++ Context and LiveMove; "externally synchronized" as in
 * Vulkan's spec: the caller makes sure no two threads are in such calls at once):
 *  - Any number of SfContexts, on one device or several, each on its own thread.
 *    sfCreateContext, sfGetVersion and sfSolve(NULL, SF_BACKEND_CPU) may run on
 *    any threads at once (a handle-less call's error text is per thread).
 *  - An SfContext and the SfLiveMoves made from it are one object for threads:
 *    every call taking any of them (sfSolve, sfCreateLiveMove, sfGetLastError,
 *    the sfLiveMove* calls, the destroys) is externally synchronized. The C layer
 *    keeps the context's error text and its GPU solver (made by the first GPU
 *    sfSolve) unguarded; the pipelines the live moves share are built under a lock.
 *  - sfSolve with SF_BACKEND_GPU submits to the context's queue (the adopted one)
 *    and waits on fences (at most 5 minutes a solve): Vulkan's rule that a queue
 *    is externally synchronized applies, so hold the engine's queue lock around it.
 *    The per-frame calls submit nothing: sfLiveMoveRecord records into the
 *    caller's command buffer (its pool externally synchronized, as Vulkan's), and
 *    the renderer submits it.
 *  - sfSolve with SF_BACKEND_CPU starts up to one std::thread a core, or up to
 *    SfSolveInfo::cpuThreads (at most one per 256 vertices; none under 512
 *    vertices), and joins them all before it returns; no callback runs on them.
 *  - SfLogCallback runs on the thread of the call that logs (a layer's messages
 *    are queued under a lock and reach it from the library's calls).
 *
 * Lifetimes:
 *  - sfGetLastError(context): until the next call taking `context` (or its live
 *    moves' creation) or sfDestroyContext. sfGetLastError(NULL): the calling
 *    thread's, until its next failing handle-less call or the thread's end.
 *    sfLiveMoveGetLastError(live): until the next call on `live` or its destroy.
 *    sfGetLastVkResult and sfLiveMoveGetLastVkResult are kept with the text and
 *    replaced with it: each failure sets both.
 *  - sfGetDeviceName(context): until sfDestroyContext(context); "" for NULL is static.
 *  - Strings and arrays passed in (deviceSelector, pipelineCacheFile, objectNamePrefix, triangles,
 *    chunks, tools, toolSets, poses, bounds) are read during the call only;
 *    Vulkan handles and allocationCallbacks given to sfCreateContext must
 *    outlive the context, the buffers given to sfCreateLiveMove the live move
 *    (and its frames in flight).
 *  - Destroy every SfLiveMove before its SfContext, each once its frames are
 *    complete. */
#ifndef SCULPTFLOW_H_
#define SCULPTFLOW_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memset, for SF_INIT_STRUCT */

#if !defined(VULKAN_CORE_H_)
#include <vulkan/vulkan_core.h>
#endif

#include "export.hpp" /* SCULPTFLOW_API: preprocessor only, valid C */
#include "sculptflow/version.h" /* generated: in the build tree it sits apart */

#ifdef __cplusplus
extern "C" {
#endif

/* Zeroes the struct `pointer` points at and sets its structSize: the one idiom
 * for every size-versioned struct (SfContextCreateInfo, SfTools, SfSolveInfo,
 * SfLiveMoveCreateInfo, SfRecordSync, SfRecordReport, SfPrewarmInfo):
 *     SfContextCreateInfo info;
 *     SF_INIT_STRUCT(&info);
 * `pointer` is evaluated more than once. */
#define SF_INIT_STRUCT(pointer) \
    (memset((pointer), 0, sizeof *(pointer)), (pointer)->structSize = (uint32_t)sizeof *(pointer))

typedef enum SfResult {
    SF_SUCCESS = 0,
    SF_ERROR_INVALID_ARGUMENT = -1,      /* a null pointer, a bad value (NaN, out of range), a wrong count */
    SF_ERROR_INVALID_STRUCT_SIZE = -2,   /* structSize too small, or larger with bytes this library does not know set */
    SF_ERROR_INVALID_STATE = -3,         /* out of order: begin while moving, update before begin, a stale ticket */
    SF_ERROR_INITIALIZATION_FAILED = -4, /* no loader, no Vulkan 1.2 compute device, a device that cannot be adopted */
    SF_ERROR_OUT_OF_HOST_MEMORY = -5,    /* host memory ran out (the allocator, allocationCallbacks, the driver's) */
    SF_ERROR_OUT_OF_MEMORY = SF_ERROR_OUT_OF_HOST_MEMORY, /* its name in 0.1.0 */
    SF_ERROR_DEVICE = -6, /* another Vulkan failure (sfGetLastVkResult says which), a validation message */
    SF_ERROR_UNKNOWN = -7,
    /* Added after 0.1.0: */
    SF_ERROR_OUT_OF_DEVICE_MEMORY = -8, /* device memory ran out, or would have (checked before allocating) */
    SF_ERROR_DEVICE_LOST = -9,          /* VK_ERROR_DEVICE_LOST: destroy the context's objects and the context */
    SF_RESULT_MAX_ENUM = 0x7FFFFFFF /* keeps every enum 32 bits, as Vulkan's */
} SfResult;

typedef uint32_t SfBool32;

typedef struct SfContext_T* SfContext;
typedef struct SfLiveMove_T* SfLiveMove;

/* ---- Version ---- */

/* The library's version (SCULPTFLOW_MAKE_VERSION packing); the headers' is SCULPTFLOW_VERSION. */
SCULPTFLOW_API uint32_t sfGetVersion(void);

/* ---- Log ---- */

typedef enum SfLogLevel {
    SF_LOG_LEVEL_WARNING = 0,    /* a pipeline cache ignored, a file not written */
    SF_LOG_LEVEL_VALIDATION = 1, /* a validation message no call could return (while destroying) */
    SF_LOG_LEVEL_MAX_ENUM = 0x7FFFFFFF
} SfLogLevel;

/* Gets the library's messages instead of stderr, on the thread of the call that logs. */
typedef void (*SfLogCallback)(void* userData, SfLogLevel level, const char* message);

/* ---- Context ---- */

/* Where the library keeps the buffers the GPU reads every run (C++: BufferPlacement). */
typedef enum SfBufferPlacement {
    SF_BUFFER_PLACEMENT_AUTO = 0,   /* MAPPED where host-visible memory spans the device-local heap, else STAGED */
    SF_BUFFER_PLACEMENT_MAPPED = 1, /* host-visible and mapped for life */
    SF_BUFFER_PLACEMENT_STAGED = 2, /* device-local only; uploads and readbacks through staging buffers */
    SF_BUFFER_PLACEMENT_MAX_ENUM = 0x7FFFFFFF
} SfBufferPlacement;

/* Created by the library (instance null) or adopted from the renderer (instance,
 * physicalDevice, device and queue all given; they must outlive the context). */
typedef struct SfContextCreateInfo {
    uint32_t structSize; /* sizeof(SfContextCreateInfo) */
    /* Created: Khronos validation on, its messages failing the calls (sfGetLastError). */
    SfBool32 validation;
    /* Created: a device index or name substring; NULL picks a discrete GPU first. */
    const char* deviceSelector;
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    uint32_t queueFamily; /* must support compute */
    VkQueue queue;        /* of queueFamily; the GPU sfSolve submits to it and waits */
    uint32_t apiVersion;  /* the instance's; 0 means VK_API_VERSION_1_2 */
    SfBool32 synchronization2; /* the device has the feature on: barriers via vkCmdPipelineBarrier2 */
    /* The renderer's (the loader's, volk's, a layer's); NULL opens the system loader. */
    PFN_vkGetInstanceProcAddr getInstanceProcAddr;
    PFN_vkGetDeviceProcAddr getDeviceProcAddr; /* NULL: the instance's */
    const VkAllocationCallbacks* allocationCallbacks; /* optional; must outlive the context */
    VkPipelineCache pipelineCache;                    /* optional; the renderer's */
    /* Without pipelineCache: a cache kept in this file (read if it is this
     * device's, written back at sfDestroyContext; a warning, never an error). */
    const char* pipelineCacheFile;
    SfLogCallback logCallback; /* NULL: stderr */
    void* logUserData;
    /* Added after 0.1.0 (a structSize ending at logUserData leaves them 0): */
    /* NULL or "": no names. Else the library's buffers, pipelines and other
     * objects get debug-utils names "<prefix>mesh input positions" and so on, so
     * captures show them; needs VK_EXT_debug_utils on the instance (a created
     * context with validation has it), ignored where it is not. Read here. */
    const char* objectNamePrefix;
    /* Device memory the library may allocate, in bytes; 0: no limit beyond the
     * device's. An allocation past it fails before any dispatch, with
     * SF_ERROR_OUT_OF_DEVICE_MEMORY. */
    uint64_t memoryBudget;
    SfBufferPlacement bufferPlacement;
} SfContextCreateInfo;

SCULPTFLOW_API SfResult sfCreateContext(const SfContextCreateInfo* info, SfContext* context);
/* Destroy every SfLiveMove made from it first. NULL is ignored. */
SCULPTFLOW_API void sfDestroyContext(SfContext context);
/* The text of the last failed call on `context` ("" if none). NULL: the calling
 * thread's last failure of a call that had no valid handle (a failed
 * sfCreateContext, sfSolve without a context). Valid until the next call on it. */
SCULPTFLOW_API const char* sfGetLastError(SfContext context);
/* The VkResult behind the last failed call on `context` (as sfGetLastError: NULL
 * for the calling thread's, same lifetime and threads): VK_SUCCESS when that
 * failure came from no Vulkan call (a bad argument) or there was none. A plain
 * value, so reading it is as safe as reading the text. */
SCULPTFLOW_API VkResult sfGetLastVkResult(SfContext context);
/* The device's name ("" for NULL). */
SCULPTFLOW_API const char* sfGetDeviceName(SfContext context);
/* Writes pipelineCacheFile now (sfDestroyContext does too; C++:
 * Context::savePipelineCache). Sets *saved (optional) to 1 when written, 0 when
 * it could not be, or no file was given: a warning (logCallback) says why, as
 * it is no error. Externally synchronized with the context. Added after 0.1.0. */
SCULPTFLOW_API SfResult sfSavePipelineCache(SfContext context, SfBool32* saved);
/* Queries (C++: Context::driverName, allocatedMemory, deviceHeapAvailable,
 * bufferPlacement); added after 0.1.0. For NULL: "", 0, 0, AUTO.
 * The driver's name and version; valid until sfDestroyContext(context). */
SCULPTFLOW_API const char* sfGetDriverName(SfContext context);
/* Bytes of device memory the library holds for this context and its objects. */
SCULPTFLOW_API uint64_t sfGetAllocatedMemory(SfContext context);
/* Bytes the device-local heap can still give (its VK_EXT_memory_budget budget less
 * its usage where the device has it, else its size less what the library holds). */
SCULPTFLOW_API uint64_t sfGetDeviceHeapAvailable(SfContext context);
/* MAPPED or STAGED: bufferPlacement with AUTO resolved for this device. */
SCULPTFLOW_API SfBufferPlacement sfGetBufferPlacement(SfContext context);

/* ---- Tools and poses ---- */

typedef enum SfToolKind {
    SF_TOOL_KIND_KELVINLET = 0,
    SF_TOOL_KIND_AFFINE = 1,
    SF_TOOL_KIND_AFFINE_FLOW = 2,
    SF_TOOL_KIND_MAX_ENUM = 0x7FFFFFFF
} SfToolKind;

typedef enum SfKelvinletProfile {
    SF_KELVINLET_PROFILE_BI_SCALE = 0,
    SF_KELVINLET_PROFILE_TRI_SCALE = 1,
    SF_KELVINLET_PROFILE_LAPLACIAN = 2,
    SF_KELVINLET_PROFILE_BI_LAPLACIAN = 3,
    SF_KELVINLET_PROFILE_MAX_ENUM = 0x7FFFFFFF
} SfKelvinletProfile;

typedef enum SfFalloff {
    SF_FALLOFF_SMOOTH = 0,
    SF_FALLOFF_SMOOTHER = 1,
    SF_FALLOFF_LINEAR = 2,
    SF_FALLOFF_SHARP = 3,
    SF_FALLOFF_MAX_ENUM = 0x7FFFFFFF
} SfFalloff;

#define SF_SYMMETRY_X 1u
#define SF_SYMMETRY_Y 2u
#define SF_SYMMETRY_Z 4u

/* One hand's tool. Array element: its layout stays within a major version. */
typedef struct SfTool {
    SfToolKind kind;
    SfKelvinletProfile profile; /* Kelvinlet only (others: BI_SCALE) */
    SfFalloff falloff;          /* affine kinds only (Kelvinlet: SMOOTH) */
    double innerRadius;         /* world units; at most outerRadius */
    double outerRadius;
    double stiffness;           /* μ, e.g. 1 */
    double compressibility;     /* ν in [0, 0.5] */
} SfTool;

/* A tool's pose in world units. Array element: its layout stays within a major version. */
typedef struct SfPose {
    double position[3];
    double orientation[4]; /* unit quaternion w, x, y, z */
    double scale;          /* 1: the tool's own size */
    double time;           /* seconds; later poses later */
} SfPose;

typedef struct SfTools {
    uint32_t structSize; /* sizeof(SfTools) */
    uint32_t toolCount;  /* hands; with the mirrored copies at most 16 */
    const SfTool* tools;
    double voxelSize;      /* world units per voxel */
    uint32_t symmetryAxes; /* SF_SYMMETRY_* bits; 0: none */
    double symmetryOrigin[3];
} SfTools;

typedef enum SfMethod {
    SF_METHOD_BS32 = 0,         /* Bogacki–Shampine 3(2): the default */
    SF_METHOD_DP45 = 1,         /* Dormand–Prince 5(4) */
    SF_METHOD_RK4_DOUBLING = 2, /* RK4 with step doubling */
    SF_METHOD_TSIT5 = 3,        /* Tsitouras 5(4); tolerances from 0.01 voxel (docs/solver.md) */
    SF_METHOD_MAX_ENUM = 0x7FFFFFFF
} SfMethod;

/* ---- Headless solve: vertices in, moved vertices out ---- */

typedef enum SfBackend {
    SF_BACKEND_GPU = 0, /* the context's device; submits to its queue and waits */
    SF_BACKEND_CPU = 1, /* the CPU reference; no context needed */
    SF_BACKEND_MAX_ENUM = 0x7FFFFFFF
} SfBackend;

typedef struct SfSolveInfo {
    uint32_t structSize; /* sizeof(SfSolveInfo) */
    SfBackend backend;
    const SfTools* tools;
    const SfPose* posesA; /* toolCount poses: where the move starts */
    const SfPose* posesB; /* toolCount poses: where it ends */
    uint32_t vertexCount;
    const float* positions; /* vertexCount × xyz, voxels, tightly packed */
    const float* mask;      /* NULL, or vertexCount values in [0, 1] */
    SfMethod method;
    double tolerance; /* voxels over the move; 0: 0.1. The attempt budget is planned from it */
    /* Added after 0.1.0: */
    uint32_t cpuThreads; /* SF_BACKEND_CPU: at most this many threads; 0: one a core (C++: solveOnCpu's threads) */
} SfSolveInfo;

/* Writes vertexCount × xyz moved positions (voxels) to `moved`, which must hold
 * them; nothing on failure. `context` may be NULL for SF_BACKEND_CPU. */
SCULPTFLOW_API SfResult sfSolve(SfContext context, const SfSolveInfo* info, float* moved);

/* ---- The renderer's per-frame path (C++: sculptflow::LiveMove) ---- */

/* A float xyz attribute in one of the renderer's buffers (STORAGE_BUFFER,
 * TRANSFER_SRC and TRANSFER_DST usage; they must outlive the SfLiveMove). */
typedef struct SfVertexStream {
    VkBuffer buffer;
    VkDeviceSize offset; /* bytes to vertex 0's x; a multiple of 4 */
    uint32_t stride;     /* a multiple of 4, at least 12 */
} SfVertexStream;

/* A float per vertex in one of the renderer's buffers, a mask (C++: ScalarStream).
 * Member element: its layout stays within a major version. Added after 0.1.0. */
typedef struct SfScalarStream {
    VkBuffer buffer;
    VkDeviceSize offset; /* bytes to vertex 0's value; a multiple of 4 */
    uint32_t stride;     /* a multiple of 4, at least 4 */
} SfScalarStream;

/* What a solved frame writes for each vertex it visits into
 * SfLiveMoveCreateInfo::statistics, at byte 16 × vertex (C++: VertexStatistics).
 * Added after 0.1.0. */
typedef struct SfVertexStatistics {
    uint32_t flags; /* SF_VERTEX_* bits */
    uint32_t acceptedSteps;
    uint32_t rejectedSteps;
    uint32_t evaluations;
} SfVertexStatistics;

#define SF_VERTEX_MIN_STEP_CLAMPED 1u /* a step at the smallest size was accepted over tolerance */
#define SF_VERTEX_ITERATION_CAP 2u    /* the attempt budget ran out, or the device's loop budget (llvmpipe) */
#define SF_VERTEX_NON_FINITE 4u       /* input or state not finite: output = input */
#define SF_VERTEX_CULLED 8u           /* out of every tool's reach, or masked (0): not integrated */
#define SF_VERTEX_FOLDED 16u          /* volume change <= 0 */
#define SF_VERTEX_UNVERIFIED 32u      /* not certified within the tolerance */

/* A range of vertices (a meshed voxel block) and a box holding them, in voxels
 * (C++: MeshChunk). Array element: its layout stays within a major version. */
typedef struct SfMeshChunk {
    uint32_t firstVertex;
    uint32_t vertexCount;
    float boundsMin[3];
    float boundsMax[3];
} SfMeshChunk;

typedef struct SfLiveMoveCreateInfo {
    uint32_t structSize; /* sizeof(SfLiveMoveCreateInfo) */
    uint32_t vertexCount;
    SfVertexStream positions; /* voxels */
    SfVertexStream normals;   /* optional (null buffer): recomputed where positions move */
    const uint32_t* triangles; /* 3 × triangleCount indices, read here; needed with normals */
    uint32_t triangleCount;
    SfMethod method;
    double tolerance; /* voxels over the move; 0: 0.1. The attempt budget is planned from it */
    /* Added after the fields above: a structSize that ends at `tolerance` (older
     * headers) is accepted and leaves them 0. The buffers' sizes in bytes
     * (VkBufferCreateInfo::size): each stream's last vertex, offset +
     * (vertexCount - 1) × stride + 12 bytes, must end within its buffer
     * (SF_ERROR_INVALID_ARGUMENT otherwise). 0: not given, not checked. */
    VkDeviceSize positionsBufferSize;
    VkDeviceSize normalsBufferSize;
    /* Added after 0.1.0 (a structSize ending before them leaves them 0): */
    /* Disjoint ranges covering the vertices, read here (0: one chunk, the whole
     * mesh, always solved). A frame copies aside and solves only the chunks whose
     * bounds the tools reach (SfRecordReport::chunksSolved). Triangles should not
     * span chunks: a vertex's normal is recomputed when its own chunk is. */
    uint32_t chunkCount;
    const SfMeshChunk* chunks;
    /* SF_MOVE_MODE_CONTINUOUS: voxels each frame's segment is solved to (C++:
     * update()'s segmentTolerance); 0: the default, 0.1 voxel over 100 frames. */
    double segmentTolerance;
    /* Added after 0.1.0, after the fields above (a structSize ending at
     * segmentTolerance leaves them 0): */
    /* Optional (null buffer): the sculpt's mask (C++: RendererMesh::mask), read
     * by every solved frame, so the renderer may paint it between frames; needs
     * STORAGE_BUFFER usage and must outlive the live move. A value scales its
     * vertex's displacement; 0 freezes it bit for bit. Clamped to [0, 1]; NaN
     * freezes. maskBufferSize: as positionsBufferSize, the last value
     * (offset + (vertexCount - 1) × stride + 4 bytes) within it; 0: not checked. */
    SfScalarStream mask;
    VkDeviceSize maskBufferSize;
    /* Optional (null): a debug output (C++: RendererMesh::statistics). Every solved
     * frame writes each vertex it visits an SfVertexStatistics at byte 16 × vertex;
     * vertices of chunks not solved keep their last values. STORAGE_BUFFER usage,
     * at least 16 × vertexCount bytes (statisticsBufferSize, checked; 0: not given). */
    VkBuffer statistics;
    VkDeviceSize statisticsBufferSize;
    /* 1: no timestamp queries (C++: LiveMoveOptions::timestamps = false), so
     * sfLiveMoveGetGpuMilliseconds stays NaN; 0: each recorded frame is timed. */
    SfBool32 noTimestamps;
} SfLiveMoveCreateInfo;

typedef enum SfMoveMode {
    SF_MOVE_MODE_MOVE = 0,       /* each frame solves posesA → the frame's poses from the undeformed mesh */
    SF_MOVE_MODE_CONTINUOUS = 1, /* each frame solves the last submitted frame's poses → its own */
    SF_MOVE_MODE_MAX_ENUM = 0x7FFFFFFF
} SfMoveMode;

/* How sfLiveMoveRecord meets the renderer's work (C++: RecordSync); all zero: the
 * default barriers after vertex-input / vertex-shader reads and before them. */
typedef struct SfRecordSync {
    uint32_t structSize; /* sizeof(SfRecordSync) */
    VkPipelineStageFlags2 beforeStages; /* the renderer's earlier accesses record() waits for */
    VkAccessFlags2 beforeAccesses;
    VkPipelineStageFlags2 afterStages;  /* its later accesses that wait for record()'s writes */
    VkAccessFlags2 afterAccesses;
    /* Added after 0.1.0 (a structSize ending at afterAccesses leaves them 0): */
    /* 1: a render graph places the barriers. sfLiveMoveRecord places none at its
     * edges for the renderer's buffers (one from its compute/transfer stages to
     * themselves stays first: it orders the library's own buffers after the
     * previous frame) and lists each range it reads or writes in
     * SfRecordReport::accesses (ownership transfers too, for the ranges of
     * SfRecordReport::transfers). The scopes above and the async compute below are
     * then ignored. (C++: RecordSync::renderGraph.) */
    SfBool32 renderGraph;
    /* 1: async compute (C++: RecordSync::drawQueueFamily): the context's queue is
     * of another family than the draws', drawQueueFamily. With EXCLUSIVE buffers
     * the record begins by acquiring each range of SfRecordReport::transfers from
     * that family and ends by releasing it back; the renderer records the matching
     * release before (in a submission the compute one waits for by a semaphore)
     * and acquire after. 0 (the default): the context's family, or CONCURRENT
     * buffers, which semaphores alone order. A flag, as family 0 is a family. */
    SfBool32 asyncCompute;
    uint32_t drawQueueFamily; /* read with asyncCompute; a family of the device */
} SfRecordSync;

/* A range of one of the renderer's buffers a recorded frame accesses, with its
 * stages and accesses (flags Vulkan 1.2 shares: they fit VkPipelineStageFlags and
 * VkAccessFlags too). C++: BufferAccess. Array element. Added after 0.1.0. */
typedef struct SfBufferAccess {
    VkBuffer buffer;
    VkDeviceSize offset;
    VkDeviceSize size;
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 accesses;
} SfBufferAccess;
#define SF_MAX_RECORD_ACCESSES 6u     /* the spans' copies, positions, normals, mask, statistics */
#define SF_MAX_OWNERSHIP_TRANSFERS 4u /* positions, normals, mask, statistics, merged where they overlap */

/* What one sfLiveMoveRecord put into the command buffer. The caller sets structSize. */
typedef struct SfRecordReport {
    uint32_t structSize; /* sizeof(SfRecordReport) */
    SfBool32 recorded;   /* 0: nothing was pending, nothing recorded */
    uint64_t ticket;     /* for sfLiveMoveSubmitted; 0 when nothing was recorded */
    uint32_t chunksSolved;
    uint32_t chunksRestored;
    uint32_t chunksTotal;
    uint64_t verticesSolved;
    /* Added after 0.1.0 (written only when structSize covers it): */
    uint32_t chunksSnapshotted; /* solved for the first time in this move: their bytes copied aside first */
    /* Every range of the renderer's buffers the frame reads or writes, whatever
     * the SfRecordSync: what a render graph places its barriers for. */
    uint32_t accessCount;
    SfBufferAccess accesses[SF_MAX_RECORD_ACCESSES];
    /* The ranges that cross queue families with async compute (the same every
     * frame; stages and accesses on the library's side): the renderer's release
     * before and acquire after name exactly these. */
    uint32_t transferCount;
    SfBufferAccess transfers[SF_MAX_OWNERSHIP_TRANSFERS];
} SfRecordReport;

/* Validates the mesh and allocates everything a frame needs; submits nothing.
 * SF_ERROR_INVALID_ARGUMENT for a bad mesh (a stream past its given buffer size
 * too); SF_ERROR_OUT_OF_HOST_MEMORY / OUT_OF_DEVICE_MEMORY when an allocation
 * fails (the text says which, sfGetLastVkResult(context) the VkResult). */
SCULPTFLOW_API SfResult sfCreateLiveMove(SfContext context, const SfLiveMoveCreateInfo* info, SfLiveMove* live);
/* Once its frames are complete. NULL is ignored. */
SCULPTFLOW_API void sfDestroyLiveMove(SfLiveMove live);
/* The text of the last failed call on `live` ("" if none; NULL: as sfGetLastError(NULL)). */
SCULPTFLOW_API const char* sfLiveMoveGetLastError(SfLiveMove live);
/* The VkResult behind it (VK_SUCCESS: none; NULL: as sfGetLastVkResult(NULL)). */
SCULPTFLOW_API VkResult sfLiveMoveGetLastVkResult(SfLiveMove live);

/* Grab: the tools and one pose a hand; builds every pipeline the drag needs. */
SCULPTFLOW_API SfResult sfLiveMoveBegin(SfLiveMove live, const SfTools* tools, const SfPose* posesA, SfMoveMode mode);
/* Every frame: the hands' poses now, one a hand. Allocates nothing. A refused
 * update keeps the previous frame's shape. */
SCULPTFLOW_API SfResult sfLiveMoveUpdate(SfLiveMove live, const SfPose* posesB);
/* Every frame, outside a render pass, before the draw: records what the submitted
 * frames have not done. `sync` NULL: the default barriers. Allocates nothing,
 * waits on nothing. The library's state moves on only at sfLiveMoveSubmitted. */
SCULPTFLOW_API SfResult sfLiveMoveRecord(SfLiveMove live, VkCommandBuffer commands, const SfRecordSync* sync,
                                         SfRecordReport* report);
/* The command buffer of the record that returned `ticket` was submitted; call it
 * before the next record. A frame never acknowledged counts as dropped. */
SCULPTFLOW_API SfResult sfLiveMoveSubmitted(SfLiveMove live, uint64_t ticket);
/* Release (the deformed positions stay) or cancel (the next frames restore them). */
SCULPTFLOW_API SfResult sfLiveMoveCommit(SfLiveMove live);
SCULPTFLOW_API SfResult sfLiveMoveCancel(SfLiveMove live);
/* 1 from begin until commit or cancel. */
SCULPTFLOW_API SfBool32 sfLiveMoveIsMoving(SfLiveMove live);
/* GPU milliseconds of a frame recorded a few frames ago, once its timestamps are
 * available (C++: LiveMove::gpuMilliseconds); NaN before, with noTimestamps, or
 * for NULL. Reads query results, waits on nothing. Added after 0.1.0. */
SCULPTFLOW_API double sfLiveMoveGetGpuMilliseconds(SfLiveMove live);

/* Chunks (C++: LiveMove::chunkCount, chunkBounds, setChunkBounds): the number of
 * chunks (1 for a mesh given without; 0 for NULL), and a chunk's box in voxels.
 * Set it after the renderer re-meshes the chunk; a committed move grows the boxes
 * of the chunks it changed by how far it could carry a vertex. */
SCULPTFLOW_API uint32_t sfLiveMoveGetChunkCount(SfLiveMove live);
SCULPTFLOW_API SfResult sfLiveMoveGetChunkBounds(SfLiveMove live, uint32_t chunk, float boundsMin[3],
                                                 float boundsMax[3]);
SCULPTFLOW_API SfResult sfLiveMoveSetChunkBounds(SfLiveMove live, uint32_t chunk, const float boundsMin[3],
                                                 const float boundsMax[3]);

/* Undo (C++: LiveMove::changedChunks, recordUndoCopy). Once a committed move is
 * over (its last frame acknowledged) and until the next sfLiveMoveBegin: the
 * chunks it changed, ascending (chunk 0 for a mesh given without chunks); none
 * during a move or after a cancel. Added after 0.1.0; neither allocates. */
/* `chunks` NULL: sets *count to how many there are. Otherwise *count is the room
 * in `chunks`: writes them and sets *count to how many it wrote, or, with too
 * little room, SF_ERROR_INVALID_ARGUMENT and nothing written. */
SCULPTFLOW_API SfResult sfLiveMoveGetChangedChunks(SfLiveMove live, uint32_t* count, uint32_t* chunks);
/* Records into `commands` (outside a render pass) a copy of the changed chunks'
 * pre-grab bytes of the position span (and of the normal span, when the normals
 * are in a buffer of their own) into `positionsCopy` (and `normalsCopy`,
 * optional): the renderer's buffers, TRANSFER_DST usage, at least as large as the
 * mesh's up to the spans' ends, receiving the bytes at the offsets they have in
 * the mesh's buffers. Per chunk the bytes run from its first vertex's first
 * attribute to its last vertex's last, interleaved attributes included as they
 * were when the move first reached the chunk. Starts with a barrier after the
 * library's writes; the renderer orders its own accesses to the copies (transfer
 * writes). Changes no state: a dropped frame records it again.
 * SF_ERROR_INVALID_STATE outside the window above; SF_ERROR_INVALID_ARGUMENT
 * without commands or positionsCopy. Externally synchronized with the live move's
 * other calls and with the command buffer's pool. */
SCULPTFLOW_API SfResult sfLiveMoveRecordUndoCopy(SfLiveMove live, VkCommandBuffer commands, VkBuffer positionsCopy,
                                                 VkBuffer normalsCopy);

/* ---- Load time (C++: prewarmLiveMoves) ---- */

/* The grabs to build pipelines for: each SfTools a set of hands (their kinds,
 * profiles, falloffs and symmetry matter; radii are checked as begin checks
 * them; no poses), solved with `method` and `tolerance` as the live moves'
 * SfLiveMoveCreateInfo gives them. Added after 0.1.0. */
typedef struct SfPrewarmInfo {
    uint32_t structSize; /* sizeof(SfPrewarmInfo) */
    uint32_t toolSetCount;
    const SfTools* toolSets;
    SfMethod method;
    double tolerance; /* 0: 0.1 */
    /* Added after the fields above (a structSize ending at `tolerance` leaves them
     * 0): the live moves' meshes have a mask / a statistics buffer, which take
     * pipelines of their own (C++: MeshFeatures). */
    SfBool32 mask;
    SfBool32 statistics;
} SfPrewarmInfo;

/* At load time: builds every pipeline the SfLiveMoves of `context` need to begin
 * with these tools, so that no sfLiveMoveBegin covered by it creates one (a grab
 * otherwise builds them inside its frame). Writes to `created` (optional) how
 * many it built: 0 when all were built before. Externally synchronized with the
 * context, as every call on it. Codes: as sfLiveMoveBegin's (no INVALID_STATE). */
SCULPTFLOW_API SfResult sfPrewarmLiveMoves(SfContext context, const SfPrewarmInfo* info, uint32_t* created);

#ifdef __cplusplus
}
#endif

#endif
