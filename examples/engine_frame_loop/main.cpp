// An engine's frame loop around sculptflow: a renderer that links the Vulkan
// loader (validation and synchronization validation on) runs three frames in
// flight with no CPU wait but for the frame slot coming round again; it drops one
// frame in seven after recording it (the grab frame among them, as OpenXR's
// shouldRender = false does), records one frame in render-graph mode, prewarms the
// pipelines at load, rewrites a colour interleaved with the positions on the GPU
// every frame, cancels one drag and keeps an undo copy of a committed one.
// Prints one line; exits non-zero on any layer message, a wrong byte, or an
// allocation inside update() or submitted() (record() calls into the validation
// layers, which allocate: it is not counted here).
#include <vulkan/vulkan.h> // the renderer's Vulkan header, before sculptflow's

#include <sculptflow/sculptflow.hpp>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::atomic<long> gNews{0}; // operator new calls, counted around update() and submitted()

} // namespace

void* operator new(size_t size) {
    ++gNews;
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

class Engine {
public:
    Engine() { createDevice(); }
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
        destroyMessenger_(instance_, messenger_, nullptr);
        vkDestroyInstance(instance_, nullptr);
    }

    int run() {
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
        adopted.loader.getInstanceProcAddr = vkGetInstanceProcAddr;
        adopted.hooks.pipelineCache = cache_;
        sculptflow::Context context(adopted);
        // Load time: every pipeline the offered tools need, before any grab.
        const uint32_t prewarmed = sculptflow::prewarmLiveMoves(context, {&stroke, 1});
        sculptflow::RendererMesh mesh;
        mesh.vertexCount = count_;
        mesh.positions = {vertices_.buffer, offsetof(Vertex, position), sizeof(Vertex)};
        mesh.normals = {vertices_.buffer, offsetof(Vertex, normal), sizeof(Vertex)};
        mesh.triangles = triangles;
        mesh.chunks = chunks;
        sculptflow::LiveMove live(context, mesh);
        const std::vector<char> original(bytes(), bytes() + vertices_.size);

        // Drag 1: the whole stroke, then cancel.
        const std::vector<sculptflow::Pose>& poses = stroke.tools[0].poses;
        live.begin(stroke, {&poses.front(), 1});
        for (size_t k = 1; k < poses.size(); ++k) {
            const long before = gNews;
            if (!live.update({&poses[k], 1})) throw std::runtime_error("update refused: " + live.lastError());
            allocations_ += gNews - before;
            frame(live);
        }
        live.cancel();
        while (frame(live)) {}
        vkDeviceWaitIdle(device_);
        int wrong = 0;
        for (uint32_t i = 0; i < count_; ++i) {
            const Vertex& v = vertexAt(i);
            const size_t at = size_t(i) * sizeof(Vertex);
            wrong += std::memcmp(&v, original.data() + at, offsetof(Vertex, colour)) != 0; // positions, normals
            wrong += v.colour != colourOf(lastSubmitted_, i);                               // the engine's colour
        }

        // Drag 2: a short pull, committed; then the undo copy of the chunks it changed.
        live.begin(stroke, {&poses.front(), 1});
        if (!live.update({&poses[poses.size() / 8], 1})) throw std::runtime_error(live.lastError());
        live.commit();
        while (frame(live)) {}
        vkDeviceWaitIdle(device_);
        VkCommandBuffer commands = beginSlot();
        if (!live.recordUndoCopy(commands, undo_.buffer)) throw std::runtime_error(live.lastError());
        submitSlot(commands);
        vkDeviceWaitIdle(device_);
        size_t changedVertices = 0;
        for (uint32_t c : live.changedChunks()) {
            for (uint32_t i = chunks[c].firstVertex; i < chunks[c].firstVertex + chunks[c].vertexCount; ++i) {
                const size_t at = size_t(i) * sizeof(Vertex);
                wrong += std::memcmp(static_cast<const char*>(undo_.mapped) + at, original.data() + at, 24) != 0;
                ++changedVertices;
            }
        }
        if (changedVertices == 0) ++wrong;

        std::printf("engine_frame_loop: %u frames (%u in flight, %u dropped, 1 render-graph), %u pipelines "
                    "prewarmed, %zu vertices in the undo copy, %d wrong, %ld allocations in update() and "
                    "submitted(), %d layer messages\n",
                    frames_, kFramesInFlight, dropped_, prewarmed, changedVertices, wrong, allocations_,
                    gLayerMessages);
        return wrong == 0 && allocations_ == 0 && gLayerMessages == 0 && dropped_ > 0 && graphFrames_ == 1 ? 0 : 1;
    }

private:
    Vertex& vertexAt(uint32_t i) { return static_cast<Vertex*>(vertices_.mapped)[i]; }
    const char* bytes() const { return static_cast<const char*>(vertices_.mapped); }

    // One engine frame: the colours rewritten on the GPU, sculptflow's record, the
    // host-read barrier (what this check reads); submitted, or dropped one in seven.
    // False once sculptflow had nothing to record.
    bool frame(sculptflow::LiveMove& live) {
        const uint32_t index = frames_++;
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
        // Not counted: the validation layers allocate inside the vkCmd* calls it makes.
        const sculptflow::RecordReport report = live.record(commands, sync);
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
            ++dropped_;
            return true;
        }
        submitSlot(commands);
        const long beforeSubmitted = gNews;
        if (!live.submitted(report.ticket)) throw std::runtime_error("submitted: " + live.lastError());
        allocations_ += gNews - beforeSubmitted;
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
        instanceInfo.pNext = &messengerInfo;
        instanceInfo.pApplicationInfo = &app;
        instanceInfo.enabledLayerCount = 1;
        instanceInfo.ppEnabledLayerNames = &layer;
        instanceInfo.enabledExtensionCount = 2;
        instanceInfo.ppEnabledExtensionNames = extensions;
        check(vkCreateInstance(&instanceInfo, nullptr, &instance_), "vkCreateInstance");
        auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        destroyMessenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        messengerInfo.pNext = nullptr;
        check(createMessenger(instance_, &messengerInfo, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");

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
    uint32_t count_ = 0;
    uint32_t next_ = 0;
    uint32_t frames_ = 0;
    uint32_t dropped_ = 0;
    uint32_t graphFrames_ = 0;
    uint32_t lastSubmitted_ = 0;
    long allocations_ = 0;
};

} // namespace

int main() {
    try {
        Engine engine;
        return engine.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "engine_frame_loop: %s\n", e.what());
        return 1;
    }
}
