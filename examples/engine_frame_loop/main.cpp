// An engine's frame loop around sculptflow: a renderer that links the Vulkan
// loader (validation and synchronization validation on) runs three frames in
// flight with no CPU wait but for the frame slot coming round again; it drops one
// frame in seven after recording it (the grab frame among them, as OpenXR's
// shouldRender = false does), records one frame in render-graph mode, prewarms the
// pipelines at load, rewrites a colour interleaved with the positions on the GPU
// every frame, drags in move and continuous mode with refused updates among the
// frames, cancels one drag and keeps an undo copy of a committed one.
// It runs twice: under the layers, then without them, where record() is counted
// too (the layers allocate inside the vkCmd* calls it makes). Counted from the
// first grab on: operator new on the engine thread inside update(), record() and submitted(), the
// library's VkAllocationCallbacks, and vkCreateComputePipelines (through the
// vkGetInstanceProcAddr it hands the library). Prints one line; exits non-zero on
// any layer message, a wrong byte, an allocation or a pipeline created.
#include <vulkan/vulkan.h> // the renderer's Vulkan header, before sculptflow's

#include <sculptflow/sculptflow.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// operator new calls on this thread: the frame's calls are the engine thread's, and the
// driver's and the layers' own threads (llvmpipe, validation) allocate on their own schedule.
thread_local long tNews = 0;
std::atomic<long> gVkAllocations{0}; // through the VkAllocationCallbacks the library is given
std::atomic<long> gPipelines{0};     // vkCreateComputePipelines calls
PFN_vkCreateComputePipelines gCreateComputePipelines = nullptr;

VKAPI_ATTR VkResult VKAPI_CALL countedCreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                             const VkComputePipelineCreateInfo* infos,
                                                             const VkAllocationCallbacks* allocator,
                                                             VkPipeline* pipelines) {
    gPipelines += count;
    return gCreateComputePipelines(device, cache, count, infos, allocator, pipelines);
}

// The entry points the library loads, with pipeline creation counted.
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name);
PFN_vkVoidFunction counted(PFN_vkVoidFunction real, const char* name) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(countingGetDeviceProcAddr);
    if (std::strcmp(name, "vkCreateComputePipelines") != 0 || !real) return real;
    gCreateComputePipelines = reinterpret_cast<PFN_vkCreateComputePipelines>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(countedCreateComputePipelines);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name) {
    return counted(vkGetDeviceProcAddr(device, name), name);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetInstanceProcAddr(VkInstance instance, const char* name) {
    return counted(vkGetInstanceProcAddr(instance, name), name);
}

// VkAllocationCallbacks that count: each block keeps its size in front of it.
constexpr size_t kHeader = 64; // a multiple of any alignment Vulkan asks for here
VKAPI_ATTR void* VKAPI_CALL countedAllocation(void*, size_t size, size_t alignment, VkSystemAllocationScope) {
    ++gVkAllocations;
    if (alignment > kHeader) return nullptr;
    auto* block = static_cast<char*>(std::aligned_alloc(kHeader, kHeader + (size + kHeader - 1) / kHeader * kHeader));
    if (!block) return nullptr;
    std::memcpy(block, &size, sizeof(size));
    return block + kHeader;
}
VKAPI_ATTR void VKAPI_CALL countedFree(void*, void* memory) {
    if (memory) std::free(static_cast<char*>(memory) - kHeader);
}
VKAPI_ATTR void* VKAPI_CALL countedReallocation(void* user, void* original, size_t size, size_t alignment,
                                                VkSystemAllocationScope scope) {
    void* memory = size ? countedAllocation(user, size, alignment, scope) : nullptr;
    if (original && memory) {
        size_t old = 0;
        std::memcpy(&old, static_cast<char*>(original) - kHeader, sizeof(old));
        std::memcpy(memory, original, std::min(old, size));
    }
    if (memory || !size) countedFree(user, original);
    return memory;
}
const VkAllocationCallbacks kCountedCallbacks{nullptr, countedAllocation, countedReallocation, countedFree, nullptr,
                                              nullptr};

} // namespace

void* operator new(size_t size) {
    ++tNews;
    if (void* memory = std::malloc(size ? size : 1)) return memory;
    throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, size_t) noexcept { std::free(memory); }

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

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize size = 0;
};

Buffer hostBuffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer b;
    b.size = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    check(vkCreateBuffer(device, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, b.buffer, &requirements);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    const VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocation.allocationSize = requirements.size;
    for (allocation.memoryTypeIndex = 0; allocation.memoryTypeIndex < memory.memoryTypeCount;
         ++allocation.memoryTypeIndex)
        if ((requirements.memoryTypeBits & (1u << allocation.memoryTypeIndex)) &&
            (memory.memoryTypes[allocation.memoryTypeIndex].propertyFlags & flags) == flags)
            break;
    check(vkAllocateMemory(device, &allocation, nullptr, &b.memory), "vkAllocateMemory");
    check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

void destroy(VkDevice device, Buffer& b) {
    vkDestroyBuffer(device, b.buffer, nullptr);
    vkFreeMemory(device, b.memory, nullptr);
}

// The engine's vertex: position and normal (sculptflow's), then a colour the engine owns.
struct Vertex {
    float position[3];
    float normal[3];
    uint32_t colour;
    uint32_t spare;
};
static_assert(sizeof(Vertex) == 32);
constexpr uint32_t kFramesInFlight = 3;
constexpr uint32_t kDropEvery = 7;
constexpr uint32_t kRenderGraphFrame = 10;

uint32_t colourOf(uint32_t frame, uint32_t vertex) { return frame * 100003u + vertex; }

// One frame slot: its command buffer, fence, and the colours it copies in.
struct Slot {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    Buffer colours;
};

// What one run found.
struct Outcome {
    uint32_t frames = 0, dropped = 0, refused = 0, prewarmed = 0;
    size_t undoVertices = 0;
    int wrong = 0;
    long allocations = 0, vkAllocations = 0, pipelines = 0; // from the first grab on
};

class Engine {
public:
    explicit Engine(bool layers) : layers_(layers) { createDevice(); }
    ~Engine() {
        vkDeviceWaitIdle(device_);
        for (Slot& slot : slots_) {
            vkDestroyFence(device_, slot.fence, nullptr);
            destroy(device_, slot.colours);
        }
        destroy(device_, vertices_);
        destroy(device_, undo_);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyPipelineCache(device_, cache_, nullptr);
        vkDestroyDevice(device_, nullptr);
        if (messenger_) destroyMessenger_(instance_, messenger_, nullptr);
        vkDestroyInstance(instance_, nullptr);
    }

    Outcome run() {
        const sculptflow::Stroke stroke = sculptflow::defaultStroke();
        const sculptflow::ToolMotion tool = sculptflow::moveToolMotion(stroke).tools[0];
        // Four balls along x from the tool's tip, one chunk each.
        std::vector<sculptflow::MeshChunk> chunks;
        std::vector<uint32_t> triangles;
        std::vector<glm::vec3> positions;
        for (int k = 0; k < 4; ++k) {
            const glm::vec3 centre = glm::vec3(tool.origin) + glm::vec3(3.0f * float(k * tool.outerRadius), 0, 0);
            const sculptflow::Mesh ball = sculptflow::icosphere(2, centre, float(tool.outerRadius));
            const auto first = uint32_t(positions.size());
            const glm::vec3 reach(float(tool.outerRadius));
            chunks.push_back({first, uint32_t(ball.positions.size()), {centre - reach, centre + reach}});
            for (uint32_t i : ball.faceIndices) triangles.push_back(first + i);
            positions.insert(positions.end(), ball.positions.begin(), ball.positions.end());
        }
        count_ = uint32_t(positions.size());
        const VkBufferUsageFlags usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        vertices_ = hostBuffer(physical_, device_, VkDeviceSize(count_) * sizeof(Vertex), usage);
        undo_ = hostBuffer(physical_, device_, vertices_.size, usage);
        for (uint32_t i = 0; i < count_; ++i) {
            Vertex v{};
            std::memcpy(v.position, &positions[i], 12);
            vertexAt(i) = v;
        }
        createSlots();

        sculptflow::AdoptedDevice adopted{instance_, physical_, device_, family_, queue_};
        adopted.loader.getInstanceProcAddr = countingGetInstanceProcAddr;
        adopted.hooks.pipelineCache = cache_;
        adopted.hooks.allocationCallbacks = &kCountedCallbacks;
        sculptflow::Context context(adopted);
        // Load time: every pipeline the offered tools need, before any grab.
        out_.prewarmed = sculptflow::prewarmLiveMoves(context, {&stroke, 1});
        sculptflow::RendererMesh mesh;
        mesh.vertexCount = count_;
        mesh.positions = {vertices_.buffer, offsetof(Vertex, position), sizeof(Vertex)};
        mesh.normals = {vertices_.buffer, offsetof(Vertex, normal), sizeof(Vertex)};
        mesh.triangles = triangles;
        mesh.chunks = chunks;
        sculptflow::LiveMove live(context, mesh);
        const std::vector<char> original(bytes(), bytes() + vertices_.size);
        const long vkAllocationsAtLoad = gVkAllocations, pipelinesAtLoad = gPipelines;

        // Drag 1: the whole stroke with refused updates among the frames, then cancel.
        const std::vector<sculptflow::Pose>& poses = stroke.tools[0].poses;
        live.begin(stroke, {&poses.front(), 1});
        for (size_t k = 1; k < poses.size(); ++k) {
            if (k % 4 == 0) refusedUpdates(live, poses[k]);
            update(live, poses[k]);
            frame(live);
        }
        live.cancel();
        while (frame(live)) {}
        vkDeviceWaitIdle(device_);
        for (uint32_t i = 0; i < count_; ++i) {
            const Vertex& v = vertexAt(i);
            const size_t at = size_t(i) * sizeof(Vertex);
            out_.wrong += std::memcmp(&v, original.data() + at, offsetof(Vertex, colour)) != 0; // positions, normals
            out_.wrong += v.colour != colourOf(lastSubmitted_, i);                             // the engine's colour
        }

        // Drag 2: the stroke in continuous mode, committed.
        live.begin(stroke, {&poses.front(), 1}, sculptflow::MoveMode::Continuous);
        for (size_t k = 1; k < poses.size(); ++k) {
            update(live, poses[k]);
            frame(live);
        }
        live.commit();
        while (frame(live)) {}
        vkDeviceWaitIdle(device_);
        const std::vector<char> committed(bytes(), bytes() + vertices_.size);
        out_.wrong += committed == original; // the drag moved the mesh

        // Drag 3: a short pull, committed; then the undo copy of the chunks it changed.
        live.begin(stroke, {&poses.front(), 1});
        for (size_t k = 1; k <= poses.size() / 8; ++k) {
            update(live, poses[k]);
            frame(live);
        }
        live.commit();
        while (frame(live)) {}
        vkDeviceWaitIdle(device_);
        VkCommandBuffer commands = beginSlot();
        if (!live.recordUndoCopy(commands, undo_.buffer)) throw std::runtime_error(live.lastError());
        submitSlot(commands);
        vkDeviceWaitIdle(device_);
        for (uint32_t c : live.changedChunks()) {
            for (uint32_t i = chunks[c].firstVertex; i < chunks[c].firstVertex + chunks[c].vertexCount; ++i) {
                const size_t at = size_t(i) * sizeof(Vertex);
                out_.wrong += std::memcmp(static_cast<const char*>(undo_.mapped) + at, committed.data() + at, 24) != 0;
                ++out_.undoVertices;
            }
        }
        out_.wrong += out_.undoVertices == 0;
        out_.wrong += graphFrames_ != 1;
        out_.vkAllocations = gVkAllocations - vkAllocationsAtLoad;
        out_.pipelines = gPipelines - pipelinesAtLoad;
        return out_;
    }

private:
    Vertex& vertexAt(uint32_t i) { return static_cast<Vertex*>(vertices_.mapped)[i]; }
    const char* bytes() const { return static_cast<const char*>(vertices_.mapped); }

    void update(sculptflow::LiveMove& live, const sculptflow::Pose& pose) {
        const long before = tNews;
        const bool accepted = live.update({&pose, 1});
        out_.allocations += tNews - before;
        if (!accepted) throw std::runtime_error("update refused: " + live.lastError());
    }

    // Updates a frame loop can meet and the library must refuse without allocating:
    // a pose per hand missing, a tracking glitch (NaN), a pose from the past.
    void refusedUpdates(sculptflow::LiveMove& live, const sculptflow::Pose& pose) {
        sculptflow::Pose glitch = pose, past = pose;
        glitch.position.x = std::nan("");
        past.time -= 1e3;
        const sculptflow::Pose two[] = {pose, pose};
        const long before = tNews;
        const int refused = !live.update(two) + !live.update({&glitch, 1}) + !live.update({&past, 1});
        out_.allocations += tNews - before;
        out_.refused += uint32_t(refused);
        out_.wrong += refused != 3;
    }

    // One engine frame: the colours rewritten on the GPU, sculptflow's record, the
    // host-read barrier (what this check reads); submitted, or dropped one in seven.
    // False once sculptflow had nothing to record.
    bool frame(sculptflow::LiveMove& live) {
        const uint32_t index = out_.frames++;
        Slot& slot = slots_[next_];
        VkCommandBuffer commands = beginSlot();
        auto* colours = static_cast<uint32_t*>(slot.colours.mapped); // the slot's fence is done: free to write
        for (uint32_t i = 0; i < count_; ++i) colours[i] = colourOf(index, i);
        vkCmdCopyBuffer(commands, slot.colours.buffer, vertices_.buffer, count_, regions_.data());
        // The colour writes before sculptflow's reads of the span (and the snapshot copy).
        barrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                    VK_ACCESS_SHADER_WRITE_BIT);
        sculptflow::RecordSync sync;
        // The next frame's colour copy writes the span too: it waits for this frame's writes.
        sync.after = {VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT};
        sync.renderGraph = index == kRenderGraphFrame;
        const long beforeRecord = tNews;
        const sculptflow::RecordReport report = live.record(commands, sync);
        if (!layers_) out_.allocations += tNews - beforeRecord; // the layers allocate in vkCmd*
        if (sync.renderGraph && report.recorded) {
            // The graph's barrier, from what the report lists to the next copy.
            VkPipelineStageFlags stages = 0;
            VkAccessFlags accesses = 0;
            for (const sculptflow::BufferAccess& access : report.accessList()) {
                stages |= VkPipelineStageFlags(access.stages);
                accesses |= VkAccessFlags(access.accesses);
            }
            barrier(commands, stages, accesses, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
            ++graphFrames_;
        }
        if (report.recorded && index % kDropEvery == 0) { // recorded, never submitted
            check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
            next_ = (next_ + 1) % kFramesInFlight;
            ++out_.dropped;
            return true;
        }
        submitSlot(commands);
        const long beforeSubmitted = tNews;
        if (!live.submitted(report.ticket)) throw std::runtime_error("submitted: " + live.lastError());
        out_.allocations += tNews - beforeSubmitted;
        lastSubmitted_ = index;
        return report.recorded;
    }

    VkCommandBuffer beginSlot() {
        Slot& slot = slots_[next_];
        check(vkWaitForFences(device_, 1, &slot.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        check(vkResetCommandBuffer(slot.commands, 0), "vkResetCommandBuffer");
        VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(slot.commands, &info), "vkBeginCommandBuffer");
        return slot.commands;
    }

    void submitSlot(VkCommandBuffer commands) {
        Slot& slot = slots_[next_];
        barrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        check(vkResetFences(device_, 1, &slot.fence), "vkResetFences");
        check(vkQueueSubmit(queue_, 1, &submit, slot.fence), "vkQueueSubmit");
        next_ = (next_ + 1) % kFramesInFlight;
    }

    static void barrier(VkCommandBuffer commands, VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
                        VkPipelineStageFlags dstStages, VkAccessFlags dstAccess) {
        VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        memory.srcAccessMask = srcAccess;
        memory.dstAccessMask = dstAccess;
        vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 1, &memory, 0, nullptr, 0, nullptr);
    }

    void createDevice() {
        const char* layer = "VK_LAYER_KHRONOS_validation";
        const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
        const VkValidationFeatureEnableEXT synchronization =
            VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
        VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
        features.enabledValidationFeatureCount = 1;
        features.pEnabledValidationFeatures = &synchronization;
        VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        messengerInfo.pNext = &features;
        messengerInfo.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        messengerInfo.pfnUserCallback = onLayerMessage;
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = VK_API_VERSION_1_2;
        VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        instanceInfo.pApplicationInfo = &app;
        if (layers_) {
            instanceInfo.pNext = &messengerInfo;
            instanceInfo.enabledLayerCount = 1;
            instanceInfo.ppEnabledLayerNames = &layer;
            instanceInfo.enabledExtensionCount = 2;
            instanceInfo.ppEnabledExtensionNames = extensions;
        }
        check(vkCreateInstance(&instanceInfo, nullptr, &instance_), "vkCreateInstance");
        if (!layers_) return pickDevice();
        auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        destroyMessenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        messengerInfo.pNext = nullptr;
        check(createMessenger(instance_, &messengerInfo, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
        pickDevice();
    }

    void pickDevice() {
        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance_, &count, nullptr);
        std::vector<VkPhysicalDevice> physicals(count);
        vkEnumeratePhysicalDevices(instance_, &count, physicals.data());
        for (VkPhysicalDevice candidate : physicals) {
            uint32_t familyCount = 0;
            vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, nullptr);
            std::vector<VkQueueFamilyProperties> families(familyCount);
            vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, families.data());
            const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            for (uint32_t i = 0; i < familyCount && !physical_; ++i)
                if ((families[i].queueFlags & both) == both) physical_ = candidate, family_ = i;
        }
        if (!physical_) throw std::runtime_error("no device with a graphics and compute queue");
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queueInfo.queueFamilyIndex = family_;
        queueInfo.queueCount = 1;
        queueInfo.pQueuePriorities = &priority;
        VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        deviceInfo.queueCreateInfoCount = 1;
        deviceInfo.pQueueCreateInfos = &queueInfo;
        check(vkCreateDevice(physical_, &deviceInfo, nullptr, &device_), "vkCreateDevice");
        vkGetDeviceQueue(device_, family_, 0, &queue_);
        VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        check(vkCreatePipelineCache(device_, &cacheInfo, nullptr, &cache_), "vkCreatePipelineCache");
        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = family_;
        check(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
    }

    void createSlots() {
        for (Slot& slot : slots_) {
            VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            info.commandPool = pool_;
            info.commandBufferCount = 1;
            check(vkAllocateCommandBuffers(device_, &info, &slot.commands), "vkAllocateCommandBuffers");
            VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            check(vkCreateFence(device_, &fenceInfo, nullptr, &slot.fence), "vkCreateFence");
            slot.colours = hostBuffer(physical_, device_, VkDeviceSize(count_) * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        }
        for (uint32_t i = 0; i < count_; ++i)
            regions_.push_back({VkDeviceSize(i) * 4, VkDeviceSize(i) * sizeof(Vertex) + offsetof(Vertex, colour), 4});
    }

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    PFN_vkDestroyDebugUtilsMessengerEXT destroyMessenger_ = nullptr;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::array<Slot, kFramesInFlight> slots_{};
    std::vector<VkBufferCopy> regions_; // each vertex's colour, from a slot's colour buffer
    Buffer vertices_;
    Buffer undo_;
    bool layers_ = true;
    uint32_t count_ = 0;
    uint32_t next_ = 0;
    uint32_t graphFrames_ = 0;
    uint32_t lastSubmitted_ = 0;
    Outcome out_;
};

} // namespace

int main() {
    try {
        const Outcome checked = Engine(true).run();
        const int messages = gLayerMessages;
        const Outcome counted = Engine(false).run();
        std::printf("engine_frame_loop: %u frames (%u in flight, %u dropped, 1 render-graph, %u updates refused), "
                    "%u pipelines prewarmed, %zu vertices in the undo copy, %d wrong; after the prewarm, with and "
                    "without layers: %ld + %ld pipelines created, %ld + %ld VkAllocationCallbacks calls, %ld + %ld "
                    "allocations in update() and submitted() (and record(), without layers); %d layer messages\n",
                    checked.frames, kFramesInFlight, checked.dropped, checked.refused, checked.prewarmed,
                    checked.undoVertices, checked.wrong + counted.wrong, checked.pipelines, counted.pipelines,
                    checked.vkAllocations, counted.vkAllocations, checked.allocations, counted.allocations, messages);
        const bool clean = checked.wrong + counted.wrong == 0 && messages == 0 && checked.frames >= 100 &&
                           checked.dropped > 0 && checked.refused > 0;
        const long leaks = checked.pipelines + counted.pipelines + checked.vkAllocations + counted.vkAllocations +
                           checked.allocations + counted.allocations;
        return clean && leaks == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "engine_frame_loop: %s\n", e.what());
        return 1;
    }
}
