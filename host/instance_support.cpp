// What an instance offers before one is created, and how devices rank.
#include "instance_support.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "vulkan_check.hpp"

namespace sculptflow {

bool hasInstanceLayer(const char* name) {
    uint32_t count = 0;
    SF_VK_CHECK(vkEnumerateInstanceLayerProperties(&count, nullptr));
    std::vector<VkLayerProperties> layers(count);
    SF_VK_CHECK(vkEnumerateInstanceLayerProperties(&count, layers.data()));
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool hasInstanceExtension(const char* layer, const char* name) {
    uint32_t count = 0;
    SF_VK_CHECK(vkEnumerateInstanceExtensionProperties(layer, &count, nullptr));
    std::vector<VkExtensionProperties> extensions(count);
    SF_VK_CHECK(vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()));
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
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
