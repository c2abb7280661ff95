// The Vulkan context every sculptflow GPU object is made from: created headless,
// or adopted from a renderer's instance, device and queue.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

// Only types are used here. Include your own Vulkan header first (vulkan.h, or
// volk.h for a volk renderer); otherwise the core header comes in as it is.
#if !defined(VULKAN_CORE_H_)
#include <vulkan/vulkan_core.h>
#endif

#include "export.hpp"
#include "log.hpp"

namespace sculptflow {

// Where a Context gets its Vulkan entry points, as VMA's VmaVulkanFunctions and
// Dear ImGui's ImGui_ImplVulkan_LoadFunctions take them. Each Context keeps its
// own table; the library defines no global vk* symbol, so it works beside a
// renderer that links the loader, uses volk, or keeps its own dispatch table.
struct VulkanLoader {
    // The renderer's vkGetInstanceProcAddr (the loader's, volk's
    // vkGetInstanceProcAddr after volkInitialize, or a layer's). Null: the Context
    // opens `library` at run time and takes the loader's own.
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
    // Null: the instance's vkGetDeviceProcAddr. Device commands are then called on
    // the driver directly, without the loader's trampolines.
    PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
    // Opened only when getInstanceProcAddr is null. Null: the platform's loader
    // (vulkan-1.dll on Windows; libvulkan.so.1, then libvulkan.so, on Linux and
    // Android; libvulkan.1.dylib on macOS).
    const char* library = nullptr;
};

// Where the library keeps the buffers the GPU reads every run: a mesh's
// positions, mask, statistics and compaction blocks.
enum class BufferPlacement {
    // Mapped where host-visible memory spans the device-local heap (unified
    // memory, resizable BAR, lavapipe); Staged elsewhere (a discrete GPU with a
    // 256 MB BAR window).
    Auto,
    Mapped, // host-visible and mapped for life; device-local too where the device offers it
    Staged, // device-local only; uploads and readbacks go through host-visible staging buffers
};

// Hooks a renderer expects; all optional.
struct ContextHooks {
    // Passed to every vkCreate*/vkDestroy*/vkAllocateMemory/vkFreeMemory the library
    // makes; must outlive the Context.
    const VkAllocationCallbacks* allocationCallbacks = nullptr;
    // Every pipeline the library builds goes through it (the renderer owns, saves
    // and destroys it; Vulkan makes it safe to share between threads).
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    // Without pipelineCache: a cache the Context keeps in this file. It is read
    // when its header names this device (vendor, device id, cache UUID) and
    // ignored with a warning (hooks.log) when it is corrupt or another device's;
    // savePipelineCache() and the destructor write it back atomically (a warning,
    // not an error, when that fails). Output is the same with or without it.
    std::filesystem::path pipelineCacheFile;
    // Non-empty: buffers, pipelines and other objects get debug-utils names
    // "<prefix>deform input positions" and so on, so captures show them. Needs
    // VK_EXT_debug_utils enabled on the instance; ignored where it is not.
    std::string objectNamePrefix;
    // Device memory the library may allocate, in bytes; 0 = no limit beyond the
    // device's. An allocation past it fails with a clear error before any dispatch.
    uint64_t memoryBudget = 0;
    BufferPlacement bufferPlacement = BufferPlacement::Auto;
    // Where the Context's warnings go (and its ShaderReloader's); empty: stderr
    // (logToStderr). What it captures must outlive the Context.
    LogCallback log;
};

// A Context that creates its own instance, device and compute queue.
struct ContextOptions {
    // Khronos validation with a messenger that turns its messages into errors
    // (throwOnValidationMessages). SCULPTFLOW_VALIDATION=1 turns it on as well.
    bool validation = false;
    // A device index or a substring of its name; empty picks a discrete GPU
    // first and falls back to others (lavapipe). SCULPTFLOW_DEVICE overrides it.
    std::string device;
    VulkanLoader loader;
    ContextHooks hooks;
};

// A renderer's Vulkan objects, for a Context that adopts them. They must outlive
// the Context and every sculptflow object made from it.
struct AdoptedDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE; // created with at least one queue of queueFamily
    uint32_t queueFamily = 0;         // must support compute
    VkQueue queue = VK_NULL_HANDLE;   // of queueFamily; the headless GpuSolver submits to it
    // The Vulkan API version the instance was created with (VkApplicationInfo);
    // the library needs 1.2 of both the instance and the device.
    uint32_t apiVersion = VK_API_VERSION_1_2;
    // The device was created with the synchronization2 feature on
    // (Vulkan 1.3, or VK_KHR_synchronization2): LiveMove then records its barriers
    // with vkCmdPipelineBarrier2; otherwise as Vulkan 1.2 barriers.
    bool synchronization2 = false;
    VulkanLoader loader;
    ContextHooks hooks;
};

// Owns the entry-point table and, when created headless, every handle it makes;
// an adopted Context never creates or destroys the renderer's objects (nor
// reports validation messages for them: the renderer's messenger gets them).
//
// Threads: any number of Contexts per process, on one device or several, each
// used from its own thread. The objects made from one Context are used from one
// thread at a time; the queue follows Vulkan's external synchronisation rules
// (the renderer's submissions and GpuSolver::run must not overlap on it).
// Not copyable or movable: the validation messenger points at it.
class SCULPTFLOW_API Context {
public:
    // Throws sculptflow::Error when the loader cannot be opened, no Vulkan 1.2
    // device with a compute queue exists, or validation is asked for but absent.
    explicit Context(const ContextOptions& options = {});
    // Throws sculptflow::Error for a null handle, a queue family without compute,
    // a device or instance below Vulkan 1.2, or a loader that lacks a command.
    explicit Context(const AdoptedDevice& adopted);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const;
    VkPhysicalDevice physicalDevice() const;
    VkDevice device() const;
    uint32_t queueFamily() const;
    VkQueue queue() const;
    // The queue family's flags: LiveMove adds vertex-stage barriers only on a
    // family with VK_QUEUE_GRAPHICS_BIT.
    VkQueueFlags queueFlags() const;
    // Barriers recorded with vkCmdPipelineBarrier2 (AdoptedDevice::synchronization2).
    bool synchronization2() const;
    const VkPhysicalDeviceProperties& properties() const;
    std::string deviceName() const;
    std::string driverName() const; // the driver's name and version ("llvmpipe Mesa 22.3.6 (LLVM 15.0.6)")
    bool validationEnabled() const;
    bool adopted() const;
    // Bytes of device memory the library holds now, counted against memoryBudget.
    uint64_t allocatedMemory() const;
    // Mapped or Staged: hooks.bufferPlacement, with Auto resolved for this device.
    BufferPlacement bufferPlacement() const;
    // Bytes the device-local heap can still give: its VK_EXT_memory_budget budget
    // less its usage where the device has the extension, else its size less what
    // the library holds. Buffers past it are refused by name before any dispatch.
    uint64_t deviceHeapAvailable() const;

    // Writes hooks.pipelineCacheFile now (the destructor does too). False, with a
    // warning (hooks.log), when it cannot be written; false too without a file.
    bool savePipelineCache();

    // Throws sculptflow::Error listing what the validation layers reported since
    // the last call, if anything; clears the list. Headless contexts only.
    void throwOnValidationMessages();

    struct Impl; // the library's side, opaque to callers

private:
    friend struct ImplAccess; // the library's internal way in
    std::unique_ptr<Impl> impl_;
};

// "mapped" or "staged", for stats and logs.
SCULPTFLOW_API const char* bufferPlacementName(BufferPlacement placement);

} // namespace sculptflow
