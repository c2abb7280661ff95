/* A C renderer drops sculptflow in through sculptflow.h: its own instance and
 * device (validation and synchronization validation on, any message fails),
 * adopted with its vkGetInstanceProcAddr; a lattice of points in a host-visible
 * storage buffer; three frames of an affine tool's move through the per-frame
 * path. Checks that the vertices in reach moved as the CPU reference says, that
 * those out of reach kept their bytes, and that bad input gets its code and
 * text with nothing written. Exits 0 when all hold. */
#include <vulkan/vulkan.h>

#include <sculptflow/sculptflow.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 12                               /* lattice points a side */
#define NEAR_COUNT (SIDE * SIDE * SIDE)
#define FAR_COUNT 8                           /* far outside the tool's reach */
#define VERTEX_COUNT (NEAR_COUNT + FAR_COUNT)
#define VOXEL_SIZE 0.01                       /* world units (m) a voxel */

static int gLayerMessages = 0;
static int gFailures = 0;

static VKAPI_ATTR VkBool32 VKAPI_CALL onLayerMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    (void)severity, (void)types, (void)user;
    fprintf(stderr, "validation: %s\n", data->pMessage);
    ++gLayerMessages;
    return VK_FALSE;
}

static void expect(int condition, const char* what) {
    if (!condition) {
        fprintf(stderr, "FAIL: %s\n", what);
        ++gFailures;
    }
}

static void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        fprintf(stderr, "example_c_renderer: %s failed: %d\n", what, (int)result);
        exit(1);
    }
}

/* A call refused with `code` and a message containing `text` (read after the call:
 * the text lives until the handle's next call). */
static void expectRefused(SfResult result, SfResult code, const char* message, const char* text, const char* what) {
    if (result != code || !strstr(message, text)) {
        fprintf(stderr, "FAIL: %s: result %d (expected %d), message \"%s\" (expected \"%s\" in it)\n", what,
                (int)result, (int)code, message, text);
        ++gFailures;
    }
}

static SfPose poseAt(double x) {
    SfPose pose = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, 1.0, 0.0};
    pose.position[0] = x;
    pose.time = x; /* seconds: later along the move */
    return pose;
}

struct Device {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    uint32_t family;
    VkDevice device;
    VkQueue queue;
};

static void createDevice(struct Device* d) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    const VkValidationFeatureEnableEXT synchronization = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    VkValidationFeaturesEXT features = {VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkPhysicalDevice physicals[16];
    uint32_t count = 16, i;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    PFN_vkCreateDebugUtilsMessengerEXT createMessenger;

    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onLayerMessage;
    features.pNext = &messengerInfo;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &synchronization;
    app.apiVersion = VK_API_VERSION_1_2;
    instanceInfo.pNext = &features;
    instanceInfo.pApplicationInfo = &app;
    instanceInfo.enabledLayerCount = 1;
    instanceInfo.ppEnabledLayerNames = &layer;
    instanceInfo.enabledExtensionCount = 2;
    instanceInfo.ppEnabledExtensionNames = extensions;
    check(vkCreateInstance(&instanceInfo, NULL, &d->instance), "vkCreateInstance");
    createMessenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d->instance, "vkCreateDebugUtilsMessengerEXT");
    check(createMessenger(d->instance, &messengerInfo, NULL, &d->messenger), "vkCreateDebugUtilsMessengerEXT");

    /* The first Vulkan 1.2 device with a compute queue. */
    vkEnumeratePhysicalDevices(d->instance, &count, physicals);
    d->physical = VK_NULL_HANDLE;
    for (i = 0; i < count && !d->physical; ++i) {
        VkPhysicalDeviceProperties properties;
        VkQueueFamilyProperties families[16];
        uint32_t familyCount = 16, f;
        vkGetPhysicalDeviceProperties(physicals[i], &properties);
        vkGetPhysicalDeviceQueueFamilyProperties(physicals[i], &familyCount, families);
        for (f = 0; f < familyCount && !d->physical; ++f)
            if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && properties.apiVersion >= VK_API_VERSION_1_2)
                d->physical = physicals[i], d->family = f;
    }
    if (!d->physical) {
        fprintf(stderr, "example_c_renderer: no Vulkan 1.2 device with a compute queue\n");
        exit(1);
    }
    queueInfo.queueFamilyIndex = d->family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    check(vkCreateDevice(d->physical, &deviceInfo, NULL, &d->device), "vkCreateDevice");
    vkGetDeviceQueue(d->device, d->family, 0, &d->queue);
}

/* The lattice around the tool, in voxels, then the far points. */
static void fillPositions(float* xyz) {
    int x, y, z, v = 0, f;
    for (z = 0; z < SIDE; ++z)
        for (y = 0; y < SIDE; ++y)
            for (x = 0; x < SIDE; ++x, ++v) {
                xyz[3 * v + 0] = -22.0f + 4.0f * (float)x;
                xyz[3 * v + 1] = -22.0f + 4.0f * (float)y;
                xyz[3 * v + 2] = -22.0f + 4.0f * (float)z;
            }
    for (f = 0; f < FAR_COUNT; ++f, ++v) {
        xyz[3 * v + 0] = 300.0f + 10.0f * (float)f;
        xyz[3 * v + 1] = -250.0f;
        xyz[3 * v + 2] = 125.0f;
    }
}

int main(void) {
    struct Device d;
    VkBufferCreateInfo bufferInfo = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    VkBuffer buffer;
    VkMemoryRequirements requirements;
    VkPhysicalDeviceMemoryProperties memoryProperties;
    VkMemoryAllocateInfo allocation = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkDeviceMemory memory;
    float* mapped;
    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    VkCommandBufferAllocateInfo commandInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkCommandBuffer commands;
    VkFence fence;
    VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    static float start[3 * VERTEX_COUNT], expected[3 * VERTEX_COUNT], untouched[3 * VERTEX_COUNT];
    const size_t bytes = sizeof(start);
    SfContextCreateInfo contextInfo;
    SfContext context = NULL;
    SfTool tool = {SF_TOOL_KIND_AFFINE, SF_KELVINLET_PROFILE_BI_SCALE, SF_FALLOFF_SMOOTH, 0.05, 0.2, 1.0, 0.5};
    SfTools tools;
    const SfPose poseA = poseAt(0.0), poseB = poseAt(0.12); /* 12 voxels along x */
    SfSolveInfo solve;
    SfLiveMoveCreateInfo liveInfo;
    SfLiveMove live = NULL;
    SfRecordReport report;
    SfPose nanPose = poseB;
    double worst = 0.0;
    int frame, v, farKept = 1;
    uint32_t i;

    /* Every Sf struct zeroed with its structSize set (SF_INIT_STRUCT: -Wextra clean). */
    SF_INIT_STRUCT(&contextInfo);
    SF_INIT_STRUCT(&tools);
    SF_INIT_STRUCT(&solve);
    SF_INIT_STRUCT(&liveInfo);
    SF_INIT_STRUCT(&report);
    printf("sculptflow %u.%u.%u (headers %d.%d.%d)\n", sfGetVersion() >> 22, (sfGetVersion() >> 12) & 0x3ffu,
           sfGetVersion() & 0xfffu, SCULPTFLOW_VERSION_MAJOR, SCULPTFLOW_VERSION_MINOR, SCULPTFLOW_VERSION_PATCH);
    expect(sfGetVersion() == SCULPTFLOW_VERSION, "the library's version is the headers'");
    createDevice(&d);

    /* The renderer's vertex buffer, host-visible, xyz packed. */
    bufferInfo.size = bytes;
    bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    check(vkCreateBuffer(d.device, &bufferInfo, NULL, &buffer), "vkCreateBuffer");
    vkGetBufferMemoryRequirements(d.device, buffer, &requirements);
    vkGetPhysicalDeviceMemoryProperties(d.physical, &memoryProperties);
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex = UINT32_MAX;
    for (i = 0; i < memoryProperties.memoryTypeCount && allocation.memoryTypeIndex == UINT32_MAX; ++i)
        if ((requirements.memoryTypeBits & (1u << i)) &&
            (memoryProperties.memoryTypes[i].propertyFlags & hostFlags) == hostFlags)
            allocation.memoryTypeIndex = i;
    check(vkAllocateMemory(d.device, &allocation, NULL, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(d.device, buffer, memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, (void**)&mapped), "vkMapMemory");
    fillPositions(start);
    memcpy(mapped, start, bytes);
    poolInfo.queueFamilyIndex = d.family;
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    check(vkCreateCommandPool(d.device, &poolInfo, NULL, &pool), "vkCreateCommandPool");
    commandInfo.commandPool = pool;
    commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    commandInfo.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(d.device, &commandInfo, &commands), "vkAllocateCommandBuffers");
    check(vkCreateFence(d.device, &fenceInfo, NULL, &fence), "vkCreateFence");

    /* Adopt the device with this program's loader entry point. */
    contextInfo.instance = d.instance;
    contextInfo.physicalDevice = d.physical;
    contextInfo.device = d.device;
    contextInfo.queueFamily = d.family;
    contextInfo.queue = d.queue;
    contextInfo.getInstanceProcAddr = vkGetInstanceProcAddr;
    if (sfCreateContext(&contextInfo, &context) != SF_SUCCESS) {
        fprintf(stderr, "example_c_renderer: %s\n", sfGetLastError(NULL));
        return 1;
    }
    printf("sculptflow on %s (C API)\n", sfGetDeviceName(context));

    /* One affine tool, 5 cm inner and 20 cm outer radius, moved 12 cm. The CPU
     * reference's answer first, for the frames to match. */
    tools.toolCount = 1;
    tools.tools = &tool;
    tools.voxelSize = VOXEL_SIZE;
    solve.backend = SF_BACKEND_CPU;
    solve.tools = &tools;
    solve.posesA = &poseA;
    solve.posesB = &poseB;
    solve.vertexCount = VERTEX_COUNT;
    solve.positions = start;
    if (sfSolve(NULL, &solve, expected) != SF_SUCCESS) {
        fprintf(stderr, "example_c_renderer: %s\n", sfGetLastError(NULL));
        return 1;
    }

    liveInfo.vertexCount = VERTEX_COUNT;
    liveInfo.positions.buffer = buffer;
    liveInfo.positions.stride = 12;
    liveInfo.positionsBufferSize = bytes; /* checked: every vertex within the buffer */
    if (sfCreateLiveMove(context, &liveInfo, &live) != SF_SUCCESS) {
        fprintf(stderr, "example_c_renderer: %s\n", sfGetLastError(context));
        return 1;
    }
    if (sfLiveMoveBegin(live, &tools, &poseA, SF_MOVE_MODE_MOVE) != SF_SUCCESS) {
        fprintf(stderr, "example_c_renderer: %s\n", sfLiveMoveGetLastError(live));
        return 1;
    }

    /* Three frames: a third, two thirds, all of the move. */
    for (frame = 1; frame <= 3; ++frame) {
        const SfPose now = poseAt(0.12 * frame / 3.0);
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        VkMemoryBarrier toHost = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
        expect(sfLiveMoveUpdate(live, &now) == SF_SUCCESS, "update");
        check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer");
        check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
        expect(sfLiveMoveRecord(live, commands, NULL, &report) == SF_SUCCESS, "record");
        expect(report.recorded && report.ticket != 0, "a frame was recorded");
        /* The draw would read the vertices here; this renderer reads them on the host. */
        toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, NULL, 0, NULL);
        check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        check(vkQueueSubmit(d.queue, 1, &submit, fence), "vkQueueSubmit");
        expect(sfLiveMoveSubmitted(live, report.ticket) == SF_SUCCESS, "submitted");
        check(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        check(vkResetFences(d.device, 1, &fence), "vkResetFences");
    }
    expect(sfLiveMoveCommit(live) == SF_SUCCESS, "commit");

    for (v = 0; v < VERTEX_COUNT; ++v) {
        const float dx = mapped[3 * v] - expected[3 * v], dy = mapped[3 * v + 1] - expected[3 * v + 1],
                    dz = mapped[3 * v + 2] - expected[3 * v + 2];
        const double distance = sqrt((double)(dx * dx + dy * dy + dz * dz));
        if (distance > worst) worst = distance;
        if (v >= NEAR_COUNT && memcmp(&mapped[3 * v], &start[3 * v], 12) != 0) farKept = 0;
    }
    /* The lattice point at (-2, -2, -2) voxels is inside the inner radius: it moves with the tool. */
    v = 5 + 5 * SIDE + 5 * SIDE * SIDE;
    printf("tool centre's vertex moved %.3f voxels in x; largest difference from the CPU reference %.4f voxel\n",
           (double)(mapped[3 * v] - start[3 * v]), worst);
    expect(fabs((double)(mapped[3 * v] - start[3 * v]) - 12.0) < 0.05,
           "the vertex at the tool's centre moved 12 voxels");
    expect(worst <= 0.05, "the frames match the CPU reference within 0.05 voxel");
    expect(farKept, "vertices out of the tool's reach keep their bytes");

    /* Bad input: the right code and text, nothing written. */
    memcpy(untouched, mapped, bytes);
    {
        SfLiveMove none = NULL;
        SfLiveMoveCreateInfo old = liveInfo;
        float sentinel[3 * VERTEX_COUNT];
        SfTools nanTools = tools;
        SfResult result;
        old.structSize = 4;
        result = sfCreateLiveMove(context, &old, &none);
        expectRefused(result, SF_ERROR_INVALID_STRUCT_SIZE, sfGetLastError(context),
                      "SfLiveMoveCreateInfo.structSize is 4", "a create-info struct too small");
        expect(none == NULL, "a refused create writes no handle");
        result = sfLiveMoveUpdate(live, &poseB);
        expectRefused(result, SF_ERROR_INVALID_STATE, sfLiveMoveGetLastError(live),
                      "no move is open", "update after commit");
        expect(sfLiveMoveBegin(live, &tools, &poseA, SF_MOVE_MODE_MOVE) == SF_SUCCESS, "a second begin");
        result = sfLiveMoveBegin(live, &tools, &poseA, SF_MOVE_MODE_MOVE);
        expectRefused(result, SF_ERROR_INVALID_STATE,
                      sfLiveMoveGetLastError(live), "a move is open", "begin while moving");
        nanPose.position[1] = NAN;
        result = sfLiveMoveUpdate(live, &nanPose);
        expectRefused(result, SF_ERROR_INVALID_ARGUMENT, sfLiveMoveGetLastError(live),
                      "not finite", "a NaN pose");
        result = sfLiveMoveSubmitted(live, 99);
        expectRefused(result, SF_ERROR_INVALID_STATE, sfLiveMoveGetLastError(live),
                      "not the latest recorded", "a ticket never recorded");
        expect(sfLiveMoveCancel(live) == SF_SUCCESS, "cancel");
        memset(sentinel, 0x7f, sizeof(sentinel));
        nanTools.voxelSize = NAN;
        solve.tools = &nanTools;
        result = sfSolve(NULL, &solve, sentinel);
        expectRefused(result, SF_ERROR_INVALID_ARGUMENT, sfGetLastError(NULL), "voxelSize",
                      "a NaN voxel size");
        for (v = 0; v < 3 * VERTEX_COUNT; ++v) {
            unsigned char byte[4];
            memcpy(byte, &sentinel[v], 4);
            if (byte[0] != 0x7f || byte[3] != 0x7f) break;
        }
        expect(v == 3 * VERTEX_COUNT, "a refused solve writes nothing");
        result = sfSolve(context, NULL, sentinel);
        expectRefused(result, SF_ERROR_INVALID_ARGUMENT, sfGetLastError(context),
                      "SfSolveInfo is NULL", "no solve info");
    }
    /* The cancelled move had no accepted update: nothing to restore, nothing recorded. */
    expect(memcmp(untouched, mapped, bytes) == 0, "refused calls changed no vertex");

    sfDestroyLiveMove(live);
    sfDestroyContext(context);
    vkDestroyFence(d.device, fence, NULL);
    vkDestroyCommandPool(d.device, pool, NULL);
    vkDestroyBuffer(d.device, buffer, NULL);
    vkFreeMemory(d.device, memory, NULL);
    vkDestroyDevice(d.device, NULL);
    ((PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d.instance, "vkDestroyDebugUtilsMessengerEXT"))(
        d.instance, d.messenger, NULL);
    vkDestroyInstance(d.instance, NULL);

    if (gLayerMessages) fprintf(stderr, "FAIL: %d validation message(s)\n", gLayerMessages);
    printf("%s\n", gFailures == 0 && gLayerMessages == 0 ? "PASS" : "FAIL");
    return gFailures == 0 && gLayerMessages == 0 ? 0 : 1;
}
