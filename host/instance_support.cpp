// What an instance offers before one is created, and how devices rank.
#include "instance_support.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "vulkan_check.hpp"

namespace sculptflow {

bool hasInstanceLayer(const VulkanFunctions& vk, const char* name) {
    uint32_t count = 0;
    SF_VK_CHECK(vk.vkEnumerateInstanceLayerProperties(&count, nullptr));
    std::vector<VkLayerProperties> layers(count);
    SF_VK_CHECK(vk.vkEnumerateInstanceLayerProperties(&count, layers.data()));
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool hasInstanceExtension(const VulkanFunctions& vk, const char* layer, const char* name) {
    uint32_t count = 0;
    SF_VK_CHECK(vk.vkEnumerateInstanceExtensionProperties(layer, &count, nullptr));
    std::vector<VkExtensionProperties> extensions(count);
    SF_VK_CHECK(vk.vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()));
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

VkDebugUtilsMessengerCreateInfoEXT validationMessengerInfo(PFN_vkDebugUtilsMessengerCallbackEXT callback,
                                                           void* userData) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = callback;
    info.pUserData = userData;
    return info;
}

int deviceTypeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

} // namespace sculptflow
