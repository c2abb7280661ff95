// Where the library's messages go: a callback of the application's, or stderr.
#pragma once

#include "export.hpp"

#include <functional>
#include <string_view>

namespace sculptflow {

enum class LogLevel {
    Warning,    // something was fixed or skipped (a pipeline cache file ignored, a failed hot reload)
    Validation, // a Vulkan validation message no call could report (the Context was being destroyed)
};

// Called on the thread of the call that logs, with a message of one or more lines
// (no trailing newline). Must not throw (an exception is dropped).
using LogCallback = std::function<void(LogLevel level, std::string_view message)>;

// What the library does without a callback: "sculptflow: warning: <message>"
// (Validation: "sculptflow: Vulkan validation: <message>") on stderr.
SCULPTFLOW_API void logToStderr(LogLevel level, std::string_view message);

} // namespace sculptflow
