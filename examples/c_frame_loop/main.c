/* An engine's frame loop in C99 around sculptflow.h (the C twin of
 * examples/engine_frame_loop): its own instance and device, validation and
 * synchronization validation on, adopted by an SfContext. A mesh of eight
 * chunks, the tool reaching one; the pipelines prewarmed at load; three frames
 * in flight with no CPU wait but for a slot coming round; one frame in five
 * recorded and dropped (the grab frame among them); one frame for a render
 * graph; a drag cancelled, one committed and its undo copy. Counted after the prewarm: pipelines created and calls into the
 * VkAllocationCallbacks the library is given (0 and 0). Exits 0 when every
 * check holds and no layer spoke. */
#include <vulkan/vulkan.h>

#include <sculptflow/sculptflow.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNKS 8
#define SIDE 6 /* lattice points a side, a chunk */
#define CHUNK_VERTICES (SIDE * SIDE * SIDE)
#define VERTICES (CHUNKS * CHUNK_VERTICES)
#define SLOTS 3     /* frames in flight */
#define DROP_EVERY 5
#define STEPS 12    /* update poses a drag */
#define GRAPH_FRAME 3 /* recorded for a render graph */

static int gMessages, gFailures;
static long gPipelines, gAllocations;
static PFN_vkCreateComputePipelines gCreateComputePipelines;

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    (void)severity, (void)types, (void)user;
    fprintf(stderr, "validation: %s\n", data->pMessage);
    ++gMessages;
    return VK_FALSE;
}

static void expect(int condition, const char* what) {
    if (!condition) fprintf(stderr, "FAIL: %s\n", what), ++gFailures;
}

static void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) fprintf(stderr, "c_frame_loop: %s failed: %d\n", what, (int)result), exit(1);
}

static void checkSf(SfResult result, const char* text) {
    if (result != SF_SUCCESS) fprintf(stderr, "c_frame_loop: %d: %s\n", (int)result, text), exit(1);
}

/* The entry points the library loads, with pipeline creation counted. */
static VKAPI_ATTR VkResult VKAPI_CALL countedCreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                                    uint32_t count,
                                                                    const VkComputePipelineCreateInfo* infos,
                                                                    const VkAllocationCallbacks* allocator,
                                                                    VkPipeline* pipelines) {
    gPipelines += count;
    return gCreateComputePipelines(device, cache, count, infos, allocator, pipelines);
}
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name);
static PFN_vkVoidFunction counted(PFN_vkVoidFunction real, const char* name) {
    if (strcmp(name, "vkGetDeviceProcAddr") == 0) return (PFN_vkVoidFunction)countingGetDeviceProcAddr;
    if (strcmp(name, "vkCreateComputePipelines") != 0 || !real) return real;
    gCreateComputePipelines = (PFN_vkCreateComputePipelines)real;
    return (PFN_vkVoidFunction)countedCreateComputePipelines;
}
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name) {
    return counted(vkGetDeviceProcAddr(device, name), name);
}
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetInstanceProcAddr(VkInstance instance, const char* name) {
    return counted(vkGetInstanceProcAddr(instance, name), name);
}

/* VkAllocationCallbacks that count. A block keeps malloc's pointer and its size
 * just before the aligned memory it hands out. */
typedef struct Header {
    void* block;
    size_t size;
} Header;
static VKAPI_ATTR void* VKAPI_CALL countedAllocation(void* user, size_t size, size_t alignment,
                                                     VkSystemAllocationScope scope) {
    char* block = malloc(size + alignment + sizeof(Header));
    uintptr_t at;
    Header header;
    (void)user, (void)scope;
    ++gAllocations;
    if (!block) return NULL;
    at = ((uintptr_t)block + sizeof(Header) + alignment - 1) / alignment * alignment;
    header.block = block, header.size = size;
    memcpy((char*)at - sizeof(Header), &header, sizeof(Header));
    return (void*)at;
}
static VKAPI_ATTR void VKAPI_CALL countedFree(void* user, void* memory) {
    Header header;
    (void)user;
    if (!memory) return;
    memcpy(&header, (char*)memory - sizeof(Header), sizeof(Header));
    free(header.block);
}
static VKAPI_ATTR void* VKAPI_CALL countedReallocation(void* user, void* original, size_t size, size_t alignment,
                                                       VkSystemAllocationScope scope) {
    void* memory = size ? countedAllocation(user, size, alignment, scope) : NULL;
    if (original && memory) {
        Header header;
        memcpy(&header, (char*)original - sizeof(Header), sizeof(Header));
        memcpy(memory, original, header.size < size ? header.size : size);
    }
    if (memory || !size) countedFree(user, original);
    return memory;
}
static const VkAllocationCallbacks kCounted = {NULL, countedAllocation, countedReallocation, countedFree, NULL, NULL};

typedef struct Engine {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    uint32_t family;
    VkDevice device;
    VkQueue queue;
    VkBuffer buffer, undo; /* the vertices (xyz packed) and the undo copy, host-visible */
    VkDeviceMemory memory, undoMemory;
    float *mapped, *undoMapped;
    VkCommandPool pool;
    VkCommandBuffer commands[SLOTS];
    VkFence fences[SLOTS];
    uint32_t next, frames, dropped, graphFrames;
} Engine;

static void createDevice(Engine* e) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    const VkValidationFeatureEnableEXT synchronization = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = onMessage};
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .pNext = &messenger,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = &synchronization};
    const VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_2};
    const VkInstanceCreateInfo instanceInfo = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                               .pNext = &features,
                                               .pApplicationInfo = &app,
                                               .enabledLayerCount = 1,
                                               .ppEnabledLayerNames = &layer,
                                               .enabledExtensionCount = 2,
                                               .ppEnabledExtensionNames = extensions};
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                         .queueCount = 1,
                                         .pQueuePriorities = &priority};
    const VkDeviceCreateInfo deviceInfo = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                           .queueCreateInfoCount = 1,
                                           .pQueueCreateInfos = &queueInfo};
    VkPhysicalDevice physicals[16];
    uint32_t count = 16, i, f;

    check(vkCreateInstance(&instanceInfo, NULL, &e->instance), "vkCreateInstance");
    check(((PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(e->instance, "vkCreateDebugUtilsMessengerEXT"))(
              e->instance, &messenger, NULL, &e->messenger),
          "vkCreateDebugUtilsMessengerEXT");
    vkEnumeratePhysicalDevices(e->instance, &count, physicals);
    for (i = 0; i < count && !e->physical; ++i) { /* the first Vulkan 1.2 device with graphics and compute */
        VkPhysicalDeviceProperties properties;
        VkQueueFamilyProperties families[16];
        uint32_t familyCount = 16;
        const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        vkGetPhysicalDeviceProperties(physicals[i], &properties);
        vkGetPhysicalDeviceQueueFamilyProperties(physicals[i], &familyCount, families);
        for (f = 0; f < familyCount && !e->physical; ++f)
            if ((families[f].queueFlags & both) == both && properties.apiVersion >= VK_API_VERSION_1_2)
                e->physical = physicals[i], e->family = f;
    }
    if (!e->physical) fprintf(stderr, "c_frame_loop: no Vulkan 1.2 graphics and compute queue\n"), exit(1);
    queueInfo.queueFamilyIndex = e->family;
    check(vkCreateDevice(e->physical, &deviceInfo, NULL, &e->device), "vkCreateDevice");
    vkGetDeviceQueue(e->device, e->family, 0, &e->queue);
}

/* A host-visible, mapped buffer for the vertices (or their undo copy). */
static void hostBuffer(Engine* e, VkBuffer* buffer, VkDeviceMemory* memory, float** mapped) {
    const VkBufferCreateInfo bufferInfo = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = sizeof(float) * 3 * VERTICES,
        .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryRequirements requirements;
    VkPhysicalDeviceMemoryProperties properties;
    VkMemoryAllocateInfo allocation = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    uint32_t i;
    check(vkCreateBuffer(e->device, &bufferInfo, NULL, buffer), "vkCreateBuffer");
    vkGetBufferMemoryRequirements(e->device, *buffer, &requirements);
    vkGetPhysicalDeviceMemoryProperties(e->physical, &properties);
    allocation.allocationSize = requirements.size;
    for (i = 0; i < properties.memoryTypeCount; ++i)
        if ((requirements.memoryTypeBits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & host) == host)
            break;
    allocation.memoryTypeIndex = i;
    check(vkAllocateMemory(e->device, &allocation, NULL, memory), "vkAllocateMemory");
    check(vkBindBufferMemory(e->device, *buffer, *memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(e->device, *memory, 0, VK_WHOLE_SIZE, 0, (void**)mapped), "vkMapMemory");
}

static void createFrames(Engine* e) {
    const VkCommandPoolCreateInfo poolInfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                              .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                              .queueFamilyIndex = e->family};
    VkCommandBufferAllocateInfo commandInfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                               .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                               .commandBufferCount = SLOTS};
    const VkFenceCreateInfo fenceInfo = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                         .flags = VK_FENCE_CREATE_SIGNALED_BIT};
    uint32_t i;

    hostBuffer(e, &e->buffer, &e->memory, &e->mapped);
    hostBuffer(e, &e->undo, &e->undoMemory, &e->undoMapped);
    check(vkCreateCommandPool(e->device, &poolInfo, NULL, &e->pool), "vkCreateCommandPool");
    commandInfo.commandPool = e->pool;
    check(vkAllocateCommandBuffers(e->device, &commandInfo, e->commands), "vkAllocateCommandBuffers");
    for (i = 0; i < SLOTS; ++i) check(vkCreateFence(e->device, &fenceInfo, NULL, &e->fences[i]), "vkCreateFence");
}

/* One engine frame in the next slot: record (frame GRAPH_FRAME for a render
 * graph); submit and acknowledge it, or drop it (recorded, never submitted) one
 * frame in DROP_EVERY. Returns what record() reported. */
static SfRecordReport frame(Engine* e, SfLiveMove live) {
    const uint32_t slot = e->next, index = e->frames++;
    const VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    const VkMemoryBarrier toHost = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                    .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                                    .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    const VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                 .commandBufferCount = 1,
                                 .pCommandBuffers = &e->commands[slot]};
    SfRecordReport report;
    SfRecordSync sync;
    SF_INIT_STRUCT(&report);
    SF_INIT_STRUCT(&sync);
    sync.renderGraph = index == GRAPH_FRAME;
    e->next = (slot + 1) % SLOTS;
    check(vkWaitForFences(e->device, 1, &e->fences[slot], VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetCommandBuffer(e->commands[slot], 0), "vkResetCommandBuffer");
    check(vkBeginCommandBuffer(e->commands[slot], &begin), "vkBeginCommandBuffer");
    checkSf(sfLiveMoveRecord(live, e->commands[slot], &sync, &report), sfLiveMoveGetLastError(live));
    if (sync.renderGraph && report.recorded) { /* the graph's barrier: from what the report lists to the draw */
        VkMemoryBarrier graph = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        VkPipelineStageFlags stages = 0;
        uint32_t a;
        for (a = 0; a < report.accessCount; ++a) {
            stages |= (VkPipelineStageFlags)report.accesses[a].stages;
            graph.srcAccessMask |= (VkAccessFlags)report.accesses[a].accesses;
        }
        graph.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
        vkCmdPipelineBarrier(e->commands[slot], stages, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 1, &graph, 0, NULL, 0,
                             NULL);
        e->graphFrames += report.accessCount > 0;
    }
    /* The draw goes here; this engine reads the vertices on the host instead. */
    vkCmdPipelineBarrier(e->commands[slot], VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &toHost, 0, NULL, 0, NULL);
    check(vkEndCommandBuffer(e->commands[slot]), "vkEndCommandBuffer");
    if (report.recorded && index % DROP_EVERY == 0) { /* as OpenXR's shouldRender = false */
        ++e->dropped;
        return report;
    }
    check(vkResetFences(e->device, 1, &e->fences[slot]), "vkResetFences");
    check(vkQueueSubmit(e->queue, 1, &submit, e->fences[slot]), "vkQueueSubmit");
    checkSf(sfLiveMoveSubmitted(live, report.ticket), sfLiveMoveGetLastError(live));
    return report;
}

static SfPose poseAt(double step) {
    SfPose pose = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, 1.0, 0.0};
    pose.position[0] = 0.12 * step / STEPS; /* 12 voxels along x over the drag */
    pose.time = step / 90.0;
    return pose;
}

/* A drag: grab (the frame that snapshots the chunks in reach), STEPS updates with
 * a frame each, then commit or cancel and frames until nothing is left. */
static void drag(Engine* e, SfLiveMove live, const SfTools* tools, int commit) {
    const SfPose grab = poseAt(0);
    int step, copied = 0;
    uint32_t droppedBefore = e->dropped;
    checkSf(sfLiveMoveBegin(live, tools, &grab, SF_MOVE_MODE_MOVE), sfLiveMoveGetLastError(live));
    for (step = 1; step <= STEPS; ++step) {
        const SfPose now = poseAt(step);
        SfRecordReport report;
        checkSf(sfLiveMoveUpdate(live, &now), sfLiveMoveGetLastError(live));
        report = frame(e, live);
        expect(report.recorded && report.chunksTotal == CHUNKS, "each frame records, with every chunk counted");
        expect(report.chunksSolved == 1, "each frame solves the one chunk in reach, not the mesh");
        /* The first frame copies aside the chunk in reach alone, and again until one is submitted. */
        expect(report.chunksSnapshotted == (copied ? 0u : 1u), "only the chunk in reach is copied, once");
        copied = copied || e->dropped == droppedBefore;
        droppedBefore = e->dropped;
    }
    checkSf(commit ? sfLiveMoveCommit(live) : sfLiveMoveCancel(live), sfLiveMoveGetLastError(live));
    while (frame(e, live).recorded) {}
    check(vkDeviceWaitIdle(e->device), "vkDeviceWaitIdle");
}

int main(void) {
    static float start[3 * VERTICES], expected[3 * VERTICES];
    static SfMeshChunk chunks[CHUNKS];
    const SfTool tool = {SF_TOOL_KIND_AFFINE, SF_KELVINLET_PROFILE_BI_SCALE, SF_FALLOFF_SMOOTH, 0.05, 0.2, 1.0, 0.5};
    const SfPose poseA = poseAt(0), poseB = poseAt(STEPS);
    Engine e;
    SfContextCreateInfo contextInfo;
    SfContext context = NULL;
    SfTools tools;
    SfPrewarmInfo prewarm;
    SfLiveMoveCreateInfo liveInfo;
    SfLiveMove live = NULL;
    SfSolveInfo solve;
    uint32_t prewarmed = 0, c;
    long pipelinesAtLoad, allocationsAtLoad;
    int v, x, y, z, restored, farKept = 1;
    double worst = 0.0;

    memset(&e, 0, sizeof e);
    createDevice(&e);
    createFrames(&e);
    /* Eight lattices of SIDE³ points 4 voxels apart along x, 60 voxels between
     * them, one chunk each; the tool starts at chunk 0's centre. */
    for (c = 0, v = 0; c < CHUNKS; ++c) {
        chunks[c].firstVertex = (uint32_t)v;
        chunks[c].vertexCount = CHUNK_VERTICES;
        for (z = 0; z < SIDE; ++z)
            for (y = 0; y < SIDE; ++y)
                for (x = 0; x < SIDE; ++x, ++v) {
                    start[3 * v + 0] = 60.0f * (float)c - 10.0f + 4.0f * (float)x;
                    start[3 * v + 1] = -10.0f + 4.0f * (float)y;
                    start[3 * v + 2] = -10.0f + 4.0f * (float)z;
                }
        chunks[c].boundsMin[0] = 60.0f * (float)c - 10.0f, chunks[c].boundsMax[0] = 60.0f * (float)c + 10.0f;
        chunks[c].boundsMin[1] = chunks[c].boundsMin[2] = -10.0f;
        chunks[c].boundsMax[1] = chunks[c].boundsMax[2] = 10.0f;
    }
    memcpy(e.mapped, start, sizeof start);

    /* Adopt the device, with this engine's allocator and counted entry points. */
    SF_INIT_STRUCT(&contextInfo);
    contextInfo.instance = e.instance;
    contextInfo.physicalDevice = e.physical;
    contextInfo.device = e.device;
    contextInfo.queueFamily = e.family;
    contextInfo.queue = e.queue;
    contextInfo.getInstanceProcAddr = countingGetInstanceProcAddr;
    contextInfo.allocationCallbacks = &kCounted;
    checkSf(sfCreateContext(&contextInfo, &context), sfGetLastError(NULL));

    /* Load time: every pipeline the offered tool needs, then the mesh. */
    SF_INIT_STRUCT(&tools);
    tools.toolCount = 1;
    tools.tools = &tool;
    tools.voxelSize = 0.01; /* world units a voxel: radii 5 and 20 voxels */
    SF_INIT_STRUCT(&prewarm);
    prewarm.toolSetCount = 1;
    prewarm.toolSets = &tools;
    checkSf(sfPrewarmLiveMoves(context, &prewarm, &prewarmed), sfGetLastError(context));
    SF_INIT_STRUCT(&liveInfo);
    liveInfo.vertexCount = VERTICES;
    liveInfo.positions.buffer = e.buffer;
    liveInfo.positions.stride = 12;
    liveInfo.positionsBufferSize = sizeof start;
    liveInfo.chunkCount = CHUNKS;
    liveInfo.chunks = chunks;
    checkSf(sfCreateLiveMove(context, &liveInfo, &live), sfGetLastError(context));
    pipelinesAtLoad = gPipelines, allocationsAtLoad = gAllocations;

    drag(&e, live, &tools, 0); /* cancelled: every byte back */
    restored = memcmp(e.mapped, start, sizeof start) == 0;
    expect(restored, "a cancelled drag restores every vertex bit for bit");
    drag(&e, live, &tools, 1); /* committed */

    /* Undo: the committed drag changed chunk 0 alone; its pre-grab bytes copied out. */
    {
        uint32_t changed[CHUNKS], count = 0;
        const VkMemoryBarrier toHost = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
        const VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        const VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                     .commandBufferCount = 1,
                                     .pCommandBuffers = &e.commands[0]};
        checkSf(sfLiveMoveGetChangedChunks(live, &count, NULL), sfLiveMoveGetLastError(live));
        expect(count == 1, "one chunk changed");
        checkSf(sfLiveMoveGetChangedChunks(live, &count, changed), sfLiveMoveGetLastError(live));
        expect(changed[0] == 0, "the changed chunk is the one in reach");
        check(vkResetCommandBuffer(e.commands[0], 0), "vkResetCommandBuffer");
        check(vkBeginCommandBuffer(e.commands[0], &begin), "vkBeginCommandBuffer");
        checkSf(sfLiveMoveRecordUndoCopy(live, e.commands[0], e.undo, VK_NULL_HANDLE), sfLiveMoveGetLastError(live));
        vkCmdPipelineBarrier(e.commands[0], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost,
                             0, NULL, 0, NULL);
        check(vkEndCommandBuffer(e.commands[0]), "vkEndCommandBuffer");
        check(vkQueueSubmit(e.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
        check(vkDeviceWaitIdle(e.device), "vkDeviceWaitIdle");
        expect(memcmp(e.undoMapped, start, sizeof(float) * 3 * CHUNK_VERTICES) == 0,
               "the undo copy holds chunk 0's bytes from before the grab");
    }

    /* The committed drag against the CPU reference's move A → B; chunks 1 to 7 kept their bytes. */
    SF_INIT_STRUCT(&solve);
    solve.backend = SF_BACKEND_CPU;
    solve.tools = &tools;
    solve.posesA = &poseA;
    solve.posesB = &poseB;
    solve.vertexCount = VERTICES;
    solve.positions = start;
    checkSf(sfSolve(NULL, &solve, expected), sfGetLastError(NULL));
    for (v = 0; v < 3 * VERTICES; ++v) {
        if (fabs((double)(e.mapped[v] - expected[v])) > worst) worst = fabs((double)(e.mapped[v] - expected[v]));
        if (v >= 3 * CHUNK_VERTICES && e.mapped[v] != start[v]) farKept = 0;
    }
    expect(worst <= 0.05, "the committed drag matches the CPU reference within 0.05 voxel");
    expect(farKept, "the chunks out of reach keep their bytes");
    expect(gPipelines == pipelinesAtLoad, "no pipeline created after the prewarm");
    expect(gAllocations == allocationsAtLoad, "no VkAllocationCallbacks call after the load");
    expect(e.dropped > 0, "frames were dropped");
    expect(e.graphFrames == 1, "one frame went through the render graph with its access list");

    printf("c_frame_loop: %u frames (%d in flight, %u dropped, %u render-graph), %u chunks (1 in reach), %u pipelines prewarmed; "
           "after the load %ld pipelines created, %ld VkAllocationCallbacks calls; cancel restored %s; "
           "commit within %.4f voxel of the CPU reference; %d layer messages\n",
           e.frames, SLOTS, e.dropped, e.graphFrames, CHUNKS, prewarmed, gPipelines - pipelinesAtLoad,
           gAllocations - allocationsAtLoad, restored ? "every byte" : "NOT every byte", worst, gMessages);

    sfDestroyLiveMove(live);
    sfDestroyContext(context);
    vkDestroyCommandPool(e.device, e.pool, NULL);
    for (c = 0; c < SLOTS; ++c) vkDestroyFence(e.device, e.fences[c], NULL);
    vkDestroyBuffer(e.device, e.buffer, NULL);
    vkFreeMemory(e.device, e.memory, NULL);
    vkDestroyBuffer(e.device, e.undo, NULL);
    vkFreeMemory(e.device, e.undoMemory, NULL);
    vkDestroyDevice(e.device, NULL);
    ((PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(e.instance, "vkDestroyDebugUtilsMessengerEXT"))(
        e.instance, e.messenger, NULL);
    vkDestroyInstance(e.instance, NULL);
    printf("%s\n", gFailures == 0 && gMessages == 0 ? "PASS" : "FAIL");
    return gFailures == 0 && gMessages == 0 ? 0 : 1;
}
