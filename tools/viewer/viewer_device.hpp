// The viewer's own Vulkan instance, validation messenger, device and queue, which
// sculptflow::Context then adopts (the renderer's side of host/live_move.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>

#include <volk.h>

namespace sculptflow::viewer {

// Owns the instance, the debug messenger and the device; destroys them in order.
// With validation, VK_LAYER_KHRONOS_validation runs with synchronization
// validation on, and every message it reports is printed to stderr and counted.
class ViewerDevice {
public:
    // Creates the instance with `windowExtensions` (GLFW's surface extensions;
    // empty when headless); with validation, synchronization validation unless
    // `synchronization` is false. Validation messages are counted in `messages`, which
    // must outlive this object (leaks are reported while it is destroyed).
    // Throws sculptflow::Error when Vulkan or the layer is missing.
    ViewerDevice(bool validation, std::span<const char* const> windowExtensions, std::atomic<int>& messages,
                 bool synchronization = true);
    ~ViewerDevice();
    ViewerDevice(const ViewerDevice&) = delete;
    ViewerDevice& operator=(const ViewerDevice&) = delete;

    // Picks a Vulkan 1.2 device with a queue family that does graphics and compute
    // (and presents to `surface`, when one is given: then VK_KHR_swapchain is
    // enabled), a discrete GPU first; SCULPTFLOW_DEVICE (index or name substring)
    // overrides the choice. Creates the device and gets the queue.
    void openDevice(VkSurfaceKHR surface);

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    uint32_t queueFamily() const { return queueFamily_; }
    VkQueue queue() const { return queue_; }
    std::string deviceName() const;
    bool validation() const { return messenger_ != VK_NULL_HANDLE; }
    // Messages the layer reported so far.
    int validationMessages() const { return messages_->load(); }

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* self);
    void destroy();

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::atomic<int>* messages_ = nullptr;
};

// True when SCULPTFLOW_VALIDATION is set to anything but "" or "0".
bool validationRequestedByEnvironment();

} // namespace sculptflow::viewer
