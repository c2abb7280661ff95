// The library's side of a Context: its entry-point table, handles, hooks and
// memory accounting. Internal; every GPU object of the library reads it.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sculptflow/context.hpp>
#include "impl_access.hpp"
#include "vulkan_functions.hpp"

namespace sculptflow {

class LivePipelines;

struct Context::Impl {
    Impl();
    ~Impl();

    VulkanFunctions vk;
    Context* owner = nullptr; // the Context this is the side of
    std::optional<LoaderLibrary> library; // when no vkGetInstanceProcAddr was given

    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory{};
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    uint32_t queueFamilyCount = 0; // the physical device's
    VkQueue queue = VK_NULL_HANDLE;
    VkQueueFlags queueFlags = 0;
    // maxComputeWorkGroupCount[0]; tests lower it to split dispatches on small meshes.
    uint32_t maxWorkgroupsPerDispatch = 65535;
    uint32_t subgroupSize = 0; // VkPhysicalDeviceSubgroupProperties (Vulkan 1.1)
    std::string driver;        // VkPhysicalDeviceDriverProperties: name and version (Vulkan 1.2)
    // Tests set another device's deform sizing (workgroup size, vertices a lane) here,
    // before any pipeline or mesh is made, to run its code path on lavapipe.
    std::optional<std::pair<uint32_t, uint32_t>> deformSizingOverride;
    uint32_t timestampBits = 0; // of the queue family; 0: no timestamps there (GPU times are NaN)
    bool adopted = false;
    bool synchronization2 = false; // vk.vkCmdPipelineBarrier2 is loaded

    const VkAllocationCallbacks* allocator = nullptr;
    VkPipelineCache pipelineCache = VK_NULL_HANDLE; // the renderer's, or ownedCache
    VkPipelineCache ownedCache = VK_NULL_HANDLE;    // kept in cacheFile
    std::filesystem::path cacheFile;
    std::string objectNamePrefix; // empty where debug names are off

    uint64_t memoryBudget = 0;
    std::atomic<uint64_t> allocated{0};
    BufferPlacement placement = BufferPlacement::Mapped; // resolved, never Auto
    bool memoryBudgetQuery = false; // the physical device has VK_EXT_memory_budget
    // Tests stand in a small heap here (its size; what the library holds is
    // taken off) to reach the heap check on any machine.
    std::optional<uint64_t> heapAvailableOverride;

    // Shared by the Context's LiveMoves (live_pipelines.hpp), made on first use.
    std::mutex livePipelinesMutex;
    std::unique_ptr<LivePipelines> livePipelines;

    LogCallback logCallback; // hooks.log; empty: stderr
    // To logCallback, or stderr without one; never throws.
    void log(LogLevel level, std::string_view text) const noexcept;

    std::mutex messagesMutex; // layers may call back from any thread
    std::vector<std::string> messages;

    // A memory type with all `required` flags, preferring one that also has
    // `preferred`. Throws sculptflow::Error when none fits.
    uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                        VkMemoryPropertyFlags preferred = 0) const;
    // Accounts an allocation against the budget; throws sculptflow::Error (naming
    // `what`) past it. releaseMemory() gives it back.
    void reserveMemory(uint64_t bytes, const char* what);
    void releaseMemory(uint64_t bytes) { allocated -= bytes; }
    // Bytes heap `heap` can still give (Context::deviceHeapAvailable for that heap),
    // `counted` of `allocated` left out (reserved for the allocation being checked).
    uint64_t heapAvailable(uint32_t heap, uint64_t counted = 0) const;
    // Throws sculptflow::Error naming `what`, the bytes it needs and the heap's
    // available bytes when `bytes` from memory type `type` would not fit;
    // `counted`: bytes of it already in `allocated` (reserveMemory).
    void checkHeap(uint32_t type, uint64_t bytes, const char* what, uint64_t counted) const;
    // The largest device-local heap.
    uint32_t deviceHeap() const;

    // Gives `handle` the debug-utils name prefix + text; nothing where names are
    // off (objectNamePrefix is empty unless vkSetDebugUtilsObjectNameEXT may be called).
    void setObjectName(VkObjectType type, uint64_t handle, const char* text) const;
    template <typename Handle>
    void name(VkObjectType type, Handle handle, const char* text) const {
        setObjectName(type, reinterpret_cast<uint64_t>(handle), text);
    }
};

// Messages reported while a context was destroyed (leaked objects, say), which no
// call could throw: logged (LogLevel::Validation) and counted here, for the tests.
int lateValidationMessages();

// The entry points of the Context an object was made from.
inline const VulkanFunctions& vkFunctions(const Context& context) { return implOf(context).vk; }

} // namespace sculptflow
