// A volk renderer drops sculptflow in: volkInitialize + volkLoadInstance +
// volkLoadDevice for its own calls, volk's vkGetInstanceProcAddr for
// sculptflow's. Validation and synchronization validation on; one compute-only
// frame through LiveMove into its storage buffer, then the headless GpuSolver
// on the same adopted Context. Exits 0 when both agree with the CPU reference
// and no layer message was reported.
#include <volk.h> // first: volk's declarations, no prototypes

#include <sculptflow/sculptflow.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int gLayerMessages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL onLayerMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    ++gLayerMessages;
    return VK_FALSE;
}

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(result));
}

double maxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    double worst = 0.0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(glm::length(a[i] - b[i])));
    return worst;
}

int run() {
    check(volkInitialize(), "volkInitialize");
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    const VkValidationFeatureEnableEXT synchronization = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &synchronization;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onLayerMessage;
    features.pNext = &messengerInfo;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pNext = &features;
    instanceInfo.pApplicationInfo = &app;
    instanceInfo.enabledLayerCount = 1;
    instanceInfo.ppEnabledLayerNames = &layer;
    instanceInfo.enabledExtensionCount = 2;
    instanceInfo.ppEnabledExtensionNames = extensions;
    VkInstance instance;
    check(vkCreateInstance(&instanceInfo, nullptr, &instance), "vkCreateInstance");
    volkLoadInstance(instance);
    VkDebugUtilsMessengerEXT messenger;
    check(vkCreateDebugUtilsMessengerEXT(instance, &messengerInfo, nullptr, &messenger),
          "vkCreateDebugUtilsMessengerEXT");

    // The first Vulkan 1.2 device with a compute queue.
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> physicals(count);
    vkEnumeratePhysicalDevices(instance, &count, physicals.data());
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    uint32_t family = 0;
    for (VkPhysicalDevice candidate : physicals) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(candidate, &properties);
        uint32_t familyCount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, nullptr);
        std::vector<VkQueueFamilyProperties> families(familyCount);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, families.data());
        for (uint32_t i = 0; i < familyCount && !physical; ++i)
            if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && properties.apiVersion >= VK_API_VERSION_1_2)
                physical = candidate, family = i;
    }
    if (!physical) throw std::runtime_error("no Vulkan 1.2 device with a compute queue");
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    VkDevice device;
    check(vkCreateDevice(physical, &deviceInfo, nullptr, &device), "vkCreateDevice");
    volkLoadDevice(device); // volk's globals now call this device's driver directly
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    // The built-in case, in voxels, in a storage buffer the renderer owns (xyz, tightly packed).
    const sculptflow::Stroke stroke = sculptflow::defaultStroke();
    const sculptflow::Mesh mesh = sculptflow::defaultMesh(stroke);
    std::vector<glm::vec3> voxels(mesh.positions.size());
    for (size_t i = 0; i < voxels.size(); ++i) voxels[i] = mesh.positions[i] / float(stroke.voxelSize);
    const VkDeviceSize bytes = voxels.size() * sizeof(glm::vec3);
    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = bytes;
    bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer;
    check(vkCreateBuffer(device, &bufferInfo, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    VkPhysicalDeviceMemoryProperties memoryProperties;
    vkGetPhysicalDeviceMemoryProperties(physical, &memoryProperties);
    const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex = UINT32_MAX;
    for (uint32_t i = 0; i < memoryProperties.memoryTypeCount && allocation.memoryTypeIndex == UINT32_MAX; ++i)
        if ((requirements.memoryTypeBits & (1u << i)) &&
            (memoryProperties.memoryTypes[i].propertyFlags & hostFlags) == hostFlags)
            allocation.memoryTypeIndex = i;
    VkDeviceMemory memory;
    check(vkAllocateMemory(device, &allocation, nullptr, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
    void* mapped;
    check(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    std::memcpy(mapped, voxels.data(), bytes);

    const sculptflow::Move move = sculptflow::moveToolMotion(stroke);
    const sculptflow::CpuSolution reference = sculptflow::solveOnCpu(move, voxels, sculptflow::SolverOptions{});
    double liveDifference = 0.0, headlessDifference = 0.0;
    {
        sculptflow::AdoptedDevice adopted;
        adopted.instance = instance;
        adopted.physicalDevice = physical;
        adopted.device = device;
        adopted.queueFamily = family;
        adopted.queue = queue;
        adopted.loader.getInstanceProcAddr = vkGetInstanceProcAddr; // volk's, loaded by volkInitialize
        sculptflow::Context context(adopted);

        // The live path, compute only: no normals, one chunk.
        sculptflow::RendererMesh rendererMesh;
        rendererMesh.vertexCount = uint32_t(voxels.size());
        rendererMesh.positions = {buffer, 0, 12};
        sculptflow::LiveMove live(context, rendererMesh);
        const sculptflow::Pose poseA = stroke.tools[0].poses.front();
        const sculptflow::Pose poseB = stroke.tools[0].poses.back();
        live.begin(stroke, {&poseA, 1});
        if (!live.update({&poseB, 1})) throw std::runtime_error("update refused: " + live.lastError());

        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.queueFamilyIndex = family;
        VkCommandPool pool;
        check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        commandInfo.commandPool = pool;
        commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        commandInfo.commandBufferCount = 1;
        VkCommandBuffer commands;
        check(vkAllocateCommandBuffers(device, &commandInfo, &commands), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
        const sculptflow::RecordReport report = live.record(commands);
        VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0, nullptr);
        check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
        if (!live.submitted(report.ticket)) throw std::runtime_error("submitted: " + live.lastError());
        check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
        live.commit();
        std::vector<glm::vec3> moved(voxels.size());
        std::memcpy(moved.data(), mapped, bytes);
        liveDifference = maxDistance(moved, reference.positions);
        vkDestroyCommandPool(device, pool, nullptr);

        // The headless path on the same Context: it submits to the adopted queue and waits.
        sculptflow::GpuSolver solver(context);
        sculptflow::GpuMesh gpuMesh(context, voxels);
        solver.run(gpuMesh, move, sculptflow::SolverOptions{}, false);
        headlessDifference = maxDistance(gpuMesh.readPositions(), reference.positions);
        std::printf("sculptflow on %s (volk)\n", context.deviceName().c_str());
    }
    std::printf("largest difference from the CPU reference: live %.4f voxel, headless %.4f voxel\n",
                liveDifference, headlessDifference);

    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
    vkDestroyDevice(device, nullptr);
    vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);

    // Within the solver's tolerance: each solve is within it of the exact move
    // (docs/solver.md, "GPU against the CPU reference").
    const double tolerance = sculptflow::SolverOptions{}.tolerance;
    bool ok = liveDifference <= tolerance && headlessDifference <= tolerance && gLayerMessages == 0;
    if (gLayerMessages) std::fprintf(stderr, "FAIL: %d validation message(s)\n", gLayerMessages);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

} // namespace

int main() {
    try {
        return run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "example_volk_renderer: %s\n", e.what());
        return 1;
    }
}
