// Reading and writing a pipeline-cache file; the header check follows the
// layout of VkPipelineCacheHeaderVersionOne (Vulkan spec, vkGetPipelineCacheData).
#include "pipeline_cache_file.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "src/process_id.hpp"

namespace sculptflow {
namespace {

uint32_t readWord(const std::vector<uint8_t>& bytes, size_t offset) {
    uint32_t word;
    std::memcpy(&word, bytes.data() + offset, 4);
    return word;
}

} // namespace

PipelineCacheFile readPipelineCacheFile(const std::filesystem::path& path,
                                        const VkPhysicalDeviceProperties& device) {
    PipelineCacheFile file;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return file; // the first run
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string name = "pipeline cache " + path.string();
    constexpr size_t kHeaderBytes = 16 + VK_UUID_SIZE;
    if (!in.good() && !in.eof()) {
        file.warning = name + " cannot be read; starting with an empty cache";
    } else if (bytes.size() < kHeaderBytes || readWord(bytes, 0) < kHeaderBytes || readWord(bytes, 0) > bytes.size()) {
        file.warning = name + " is truncated or not a pipeline cache (" + std::to_string(bytes.size()) +
                       " bytes); starting with an empty cache";
    } else if (readWord(bytes, 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
        file.warning = name + " has an unknown header version; starting with an empty cache";
    } else if (readWord(bytes, 8) != device.vendorID || readWord(bytes, 12) != device.deviceID ||
               std::memcmp(bytes.data() + 16, device.pipelineCacheUUID, VK_UUID_SIZE) != 0) {
        file.warning = name + " was written by another device or driver than " + device.deviceName +
                       "; starting with an empty cache";
    } else {
        file.data = std::move(bytes);
    }
    return file;
}

std::string writePipelineCacheFile(const std::filesystem::path& path, const std::vector<uint8_t>& data) {
    const std::filesystem::path temporary = path.string() + ".tmp" + std::to_string(detail::processId());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
        if (!out.good()) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return "pipeline cache " + path.string() + " cannot be written";
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        return "pipeline cache " + path.string() + " cannot be replaced";
    }
    return {};
}

} // namespace sculptflow
