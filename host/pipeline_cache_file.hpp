// A pipeline cache kept in a file between runs: read only when its header is
// this device's, written atomically. Failures are warnings, never errors: a
// cache only saves time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "vulkan_functions.hpp"

namespace sculptflow {

struct PipelineCacheFile {
    std::vector<uint8_t> data; // empty: start with an empty cache
    std::string warning;       // why the file was not used; empty when it was, or was absent
};

// The file's bytes when its header (Vulkan's VkPipelineCacheHeaderVersionOne)
// names this device: vendor, device id and pipeline-cache UUID.
PipelineCacheFile readPipelineCacheFile(const std::filesystem::path& path,
                                        const VkPhysicalDeviceProperties& device);

// Writes `data` to a temporary file beside `path` and renames it over `path`,
// so that a reader never sees half a cache. Returns a warning, or "" on success.
std::string writePipelineCacheFile(const std::filesystem::path& path, const std::vector<uint8_t>& data);

} // namespace sculptflow
