// The one exception type sculptflow throws for bad input and failed setup.
#pragma once

#include "export.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sculptflow {

// Why an operation failed, so that a caller (the C API's result codes among
// them) can act on the cause without parsing the message.
enum class ErrorCode : uint32_t {
    InvalidArgument,      // a bad value, parameter or file: the caller's input
    InvalidState,         // out of order: a begin while a move is open
    OutOfHostMemory,      // host memory ran out (an allocator, the allocation callbacks)
    OutOfDeviceMemory,    // device memory ran out, or the Context's memory budget
    DeviceLost,           // VK_ERROR_DEVICE_LOST: the device is unusable from here on
    InitializationFailed, // no loader, no suitable device, a layer or extension missing
    Unsupported,          // the device lacks what the call needs (a feature, a limit)
    ShaderCompile,        // a shader did not compile, link or build into a pipeline
    Validation,           // the validation layers reported a message
    Vulkan,               // another Vulkan failure: vkResult() says which
};

// Thrown for malformed files, invalid parameters and failed setup. The message
// names the file or parameter and says what is wrong; code() says why, and
// vkResult() the VkResult that caused it (VK_SUCCESS, 0, when no Vulkan call did).
class SCULPTFLOW_API Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    Error(ErrorCode code, const std::string& message, int32_t vkResult = 0)
        : std::runtime_error(message), code_(code), vkResult_(vkResult) {}

    ErrorCode code() const noexcept { return code_; }
    int32_t vkResult() const noexcept { return vkResult_; } // a VkResult; int32_t keeps Vulkan out of this header

private:
    ErrorCode code_ = ErrorCode::InvalidArgument;
    int32_t vkResult_ = 0;
};

} // namespace sculptflow
