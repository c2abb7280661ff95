// What an instance offers before one is created, and how devices rank: shared
// by Context and by renderers that create their own instance (the viewer).
#pragma once

#include "vulkan_functions.hpp"

namespace sculptflow {

inline constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// Whether the loader offers this instance layer.
bool hasInstanceLayer(const VulkanFunctions& vk, const char* name);

// Whether `layer` (or the implementation, for null) offers this instance extension.
bool hasInstanceExtension(const VulkanFunctions& vk, const char* layer, const char* name);

// A debug messenger for warnings and errors of every type (general, validation,
// performance), calling `callback` with `userData`.
VkDebugUtilsMessengerCreateInfoEXT validationMessengerInfo(PFN_vkDebugUtilsMessengerCallbackEXT callback,
                                                           void* userData);

// Lower is better: discrete GPUs first, CPU implementations such as lavapipe last.
int deviceTypeRank(VkPhysicalDeviceType type);

} // namespace sculptflow
