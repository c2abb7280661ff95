// The default log sink: the library's messages on stderr, as it always wrote them.
#include <sculptflow/log.hpp>

#include <cstdio>

namespace sculptflow {

void logToStderr(LogLevel level, std::string_view message) {
    const char* prefix = level == LogLevel::Validation ? "Vulkan validation" : "warning";
    std::fprintf(stderr, "sculptflow: %s: %.*s\n", prefix, int(message.size()), message.data());
}

} // namespace sculptflow
