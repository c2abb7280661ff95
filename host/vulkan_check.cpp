// VkResult names and the checks that turn failures into sculptflow::Error.
#include "vulkan_check.hpp"

#include <string>

#include <sculptflow/error.hpp>

namespace sculptflow {

std::string_view vkResultName(VkResult result) {
    switch (result) {
#define SF_RESULT(name) case name: return #name;
        SF_RESULT(VK_SUCCESS)
        SF_RESULT(VK_NOT_READY)
        SF_RESULT(VK_TIMEOUT)
        SF_RESULT(VK_EVENT_SET)
        SF_RESULT(VK_EVENT_RESET)
        SF_RESULT(VK_INCOMPLETE)
        SF_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        SF_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        SF_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        SF_RESULT(VK_ERROR_DEVICE_LOST)
        SF_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        SF_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        SF_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        SF_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        SF_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        SF_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        SF_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        SF_RESULT(VK_ERROR_FRAGMENTED_POOL)
        SF_RESULT(VK_ERROR_UNKNOWN)
        SF_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        SF_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        SF_RESULT(VK_ERROR_FRAGMENTATION)
        SF_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        SF_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
        SF_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
#undef SF_RESULT
    default: return "VK_RESULT_UNKNOWN";
    }
}

ErrorCode vkErrorCode(VkResult result) {
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return ErrorCode::OutOfHostMemory;
    // Pool and fragmentation failures are device memory the library could not have.
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS: return ErrorCode::OutOfDeviceMemory;
    case VK_ERROR_DEVICE_LOST: return ErrorCode::DeviceLost;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_LAYER_NOT_PRESENT: return ErrorCode::InitializationFailed;
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return ErrorCode::Unsupported;
    case VK_ERROR_VALIDATION_FAILED_EXT: return ErrorCode::Validation;
    default: return ErrorCode::Vulkan;
    }
}

void vkCheck(VkResult result, std::string_view call) {
    if (result == VK_SUCCESS) return;
    std::string name(call.substr(0, call.find('(')));
    throw Error(vkErrorCode(result),
                name + " failed: " + std::string(vkResultName(result)) + " (" + std::to_string(int(result)) + ")",
                int32_t(result));
}

} // namespace sculptflow
