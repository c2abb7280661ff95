// Instance with optional validation (synchronization validation on), device choice, device and queue.
#include "viewer_device.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include <sculptflow/error.hpp>
#include "host/instance_support.hpp"
#include "host/vulkan_check.hpp"

namespace sculptflow::viewer {
namespace {

// The first family that does graphics and compute (and presents to `surface`).
std::optional<uint32_t> graphicsComputeFamily(VkPhysicalDevice device, VkSurfaceKHR surface) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    for (uint32_t i = 0; i < count; ++i) {
        if ((families[i].queueFlags & wanted) != wanted) continue;
        VkBool32 presents = VK_TRUE;
        if (surface) SF_VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &presents));
        if (presents) return i;
    }
    return std::nullopt;
}

} // namespace

bool validationRequestedByEnvironment() {
    const char* value = std::getenv("SCULPTFLOW_VALIDATION");
    return value && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

ViewerDevice::ViewerDevice(bool validation, std::span<const char* const> windowExtensions,
                           std::atomic<int>& messages, bool synchronization)
    : messages_(&messages) {
    if (volkInitialize() != VK_SUCCESS)
        throw Error("no Vulkan loader found (libvulkan.so.1); install a Vulkan driver");
    VulkanFunctions loader; // the layer and extension queries below
    loadGlobalFunctions(loader, vkGetInstanceProcAddr);
    if (validation && !hasInstanceLayer(loader, kValidationLayer))
        throw Error(std::string("validation requested but ") + kValidationLayer +
                    " is not installed (Debian: vulkan-validationlayers)");

    std::vector<const char*> extensions(windowExtensions.begin(), windowExtensions.end());
    const VkValidationFeatureEnableEXT enabledFeatures[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enabledFeatures;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo = validationMessengerInfo(&ViewerDevice::onMessage, this);
    if (validation) {
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        if (!hasInstanceExtension(loader, kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME))
            throw Error(std::string(kValidationLayer) + " lacks " + VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME +
                        ", needed for synchronization validation");
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        // The messenger in the chain also covers instance creation and destruction.
        if (synchronization) messengerInfo.pNext = &features;
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "sculptflow-viewer";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (validation) {
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &kValidationLayer;
        info.pNext = &messengerInfo;
    }
    const VkResult created = vkCreateInstance(&info, nullptr, &instance_);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); "
                    "install a GPU driver or Mesa's lavapipe (mesa-vulkan-drivers)");
    SF_VK_CHECK(created);
    volkLoadInstance(instance_);
    if (validation) {
        messengerInfo.pNext = nullptr;
        const VkResult made = vkCreateDebugUtilsMessengerEXT(instance_, &messengerInfo, nullptr, &messenger_);
        if (made != VK_SUCCESS) {
            destroy();
            vkCheck(made, "vkCreateDebugUtilsMessengerEXT");
        }
    }
}

ViewerDevice::~ViewerDevice() { destroy(); }

void ViewerDevice::destroy() {
    if (device_) vkDestroyDevice(device_, nullptr);
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
    device_ = VK_NULL_HANDLE;
    messenger_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
}

void ViewerDevice::openDevice(VkSurfaceKHR surface) {
    uint32_t count = 0;
    SF_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    SF_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));
    const char* env = std::getenv("SCULPTFLOW_DEVICE");
    const std::string selector = env ? env : "";

    std::string available;
    int bestRank = 1 << 30;
    for (size_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        available += "\n  " + std::to_string(i) + ": " + p.deviceName;
        const bool matches = selector.empty() || selector == std::to_string(i) ||
                             std::string(p.deviceName).find(selector) != std::string::npos;
        if (!matches || p.apiVersion < VK_API_VERSION_1_2) continue;
        const std::optional<uint32_t> family = graphicsComputeFamily(devices[i], surface);
        if (family && deviceTypeRank(p.deviceType) < bestRank) {
            bestRank = deviceTypeRank(p.deviceType);
            physicalDevice_ = devices[i];
            queueFamily_ = *family;
        }
    }
    if (!physicalDevice_)
        throw Error(std::string("no Vulkan 1.2 device with a graphics and compute queue") +
                    (surface ? " that presents to the window" : "") +
                    (selector.empty() ? "" : " matches SCULPTFLOW_DEVICE='" + selector + "'") +
                    "; devices:" + available);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    const char* swapchain = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    if (surface) {
        deviceInfo.enabledExtensionCount = 1;
        deviceInfo.ppEnabledExtensionNames = &swapchain;
    }
    SF_VK_CHECK(vkCreateDevice(physicalDevice_, &deviceInfo, nullptr, &device_));
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
}

std::string ViewerDevice::deviceName() const {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(physicalDevice_, &p);
    return p.deviceName;
}

VKAPI_ATTR VkBool32 VKAPI_CALL ViewerDevice::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                      VkDebugUtilsMessageTypeFlagsEXT,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                      void* self) {
    auto* device = static_cast<ViewerDevice*>(self);
    ++*device->messages_;
    std::fprintf(stderr, "sculptflow-viewer: Vulkan validation: %s\n",
                 data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

} // namespace sculptflow::viewer
