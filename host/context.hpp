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

// Created headless: owns every handle it creates and destroys them in order.
// Not copyable or movable: the validation messenger points at it. Its handles
// may be used from any thread, but Vulkan's external synchronisation rules
// apply to the queue.
class Context {
public:
    explicit Context(const ContextOptions& options = {});
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

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkQueue queue_ = VK_NULL_HANDLE;

    uint64_t memoryBudget_ = 0;
    std::atomic<uint64_t> allocated_{0};

    std::mutex messagesMutex_; // layers may call back from any thread
    std::vector<std::string> messages_;
};

} // namespace sculptflow
