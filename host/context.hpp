// The Vulkan context: instance, physical device, device and one compute queue.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <volk.h>

namespace sculptflow {

struct ContextOptions {
    // Khronos validation with a messenger that turns its messages into errors.
    // SCULPTFLOW_VALIDATION=1 in the environment turns it on as well.
    bool validation = false;
    // A device index or a substring of its name; empty picks a discrete GPU
    // first and falls back to others (lavapipe). SCULPTFLOW_DEVICE overrides it.
    std::string device;
    // Device memory the solver may allocate, in bytes; 0 = no limit beyond the
    // device's own. An allocation past it fails with a clear error before any
    // dispatch (and simulates running out of memory in tests).
    uint64_t memoryBudget = 0;
};

// A renderer's Vulkan objects, for a Context that adopts them (see Context).
struct AdoptedDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE; // created with at least one queue of queueFamily
    uint32_t queueFamily = 0;         // must support compute
    VkQueue queue = VK_NULL_HANDLE;   // of queueFamily
    // The renderer's loader entry point; null: volk opens libvulkan.so.1 itself.
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
};

// Either created headless, owning every handle it creates and destroying them in
// order; or adopting a renderer's instance, device and queue, which it then
// neither creates nor destroys (nor reports validation messages for: the
// renderer's own messenger gets them). Device functions go through the Vulkan
// loader's dispatch, so several contexts and a renderer can share a process.
// Not copyable or movable: the validation messenger points at it. Its handles
// may be used from any thread, but Vulkan's external synchronisation rules
// apply to the queue.
class Context {
public:
    explicit Context(const ContextOptions& options = {});
    // Adopts the renderer's objects; they must outlive the Context and every
    // sculptflow object made from it. memoryBudget as in ContextOptions.
    explicit Context(const AdoptedDevice& adopted, uint64_t memoryBudget = 0);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    uint32_t queueFamily() const { return queueFamily_; }
    VkQueue queue() const { return queue_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    std::string deviceName() const { return properties_.deviceName; }
    bool validationEnabled() const { return messenger_ != VK_NULL_HANDLE; }
    bool adopted() const { return adopted_; }
    // The queue family's capabilities: record() adds vertex-stage barriers only
    // on a queue that has VK_QUEUE_GRAPHICS_BIT.
    VkQueueFlags queueFlags() const { return queueFlags_; }

    // A memory type with all `required` flags, preferring one that also has
    // `preferred`. Throws sculptflow::Error when none fits.
    uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                        VkMemoryPropertyFlags preferred = 0) const;

    // Accounts an allocation against ContextOptions::memoryBudget; throws
    // sculptflow::Error (naming `what`) past it. release() gives it back.
    void reserveMemory(uint64_t bytes, const char* what);
    void releaseMemory(uint64_t bytes) { allocated_ -= bytes; }
    uint64_t allocatedMemory() const { return allocated_; }

    // Throws sculptflow::Error listing what the validation layers reported since
    // the last call, if anything; clears the list.
    void throwOnValidationMessages();

    // Messages reported while a context was destroyed (leaked objects, say), which
    // no call could throw: printed to stderr and counted here, for tests.
    static int lateValidationMessages();

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* self);
    void destroy();
    void loadProperties();

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkQueueFlags queueFlags_ = 0;
    bool adopted_ = false;

    uint64_t memoryBudget_ = 0;
    std::atomic<uint64_t> allocated_{0};

    std::mutex messagesMutex_; // layers may call back from any thread
    std::vector<std::string> messages_;
};

} // namespace sculptflow
