// NVML opened with dlopen, so that the CLI neither links nor needs it. The
// declarations below are NVML's documented C ABI (nvml.h), restated for the five
// calls used.
#include "gpu_clock.hpp"

#include <string_view>
#include <vector>

#if defined(__linux__)
#include <dlfcn.h>
#endif

namespace sculptflow::cli {
namespace {

using NvmlDevice = struct NvmlDeviceOpaque*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

struct Nvml {
    int (*init)() = nullptr;
    int (*shutdown)() = nullptr;
    int (*deviceCount)(unsigned*) = nullptr;
    int (*deviceByIndex)(unsigned, NvmlDevice*) = nullptr;
    int (*deviceName)(NvmlDevice, char*, unsigned) = nullptr;
    int (*clockInfo)(NvmlDevice, int, unsigned*) = nullptr;
    int (*maxClockInfo)(NvmlDevice, int, unsigned*) = nullptr;
};

class NoClock final : public GpuClock {
public:
    explicit NoClock(std::string why) : why_(std::move(why)) {}
    std::optional<unsigned> smMhz() override { return std::nullopt; }
    std::optional<unsigned> maxSmMhz() override { return std::nullopt; }
    std::string source() const override { return why_; }

private:
    std::string why_;
};

#if defined(__linux__)
class NvmlClock final : public GpuClock {
public:
    NvmlClock(void* library, Nvml api, NvmlDevice device, std::string name)
        : library_(library), api_(api), device_(device), name_(std::move(name)) {}
    ~NvmlClock() override {
        api_.shutdown();
        dlclose(library_);
    }
    std::optional<unsigned> smMhz() override { return read(api_.clockInfo); }
    std::optional<unsigned> maxSmMhz() override { return read(api_.maxClockInfo); }
    std::string source() const override { return "nvml: " + name_; }

private:
    std::optional<unsigned> read(int (*query)(NvmlDevice, int, unsigned*)) {
        unsigned mhz = 0;
        if (query(device_, kNvmlClockSm, &mhz) != kNvmlSuccess || mhz == 0) return std::nullopt;
        return mhz;
    }

    void* library_;
    Nvml api_;
    NvmlDevice device_;
    std::string name_;
};

template <class F>
bool load(void* library, const char* name, F& out) {
    out = reinterpret_cast<F>(dlsym(library, name));
    return out != nullptr;
}
#endif

} // namespace

std::unique_ptr<GpuClock> noGpuClock(std::string why) { return std::make_unique<NoClock>(std::move(why)); }

std::unique_ptr<GpuClock> openGpuClock(const std::string& vulkanDeviceName) {
#if defined(__linux__)
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return noGpuClock("none: NVML (libnvidia-ml.so.1) not found");
    Nvml api;
    const bool loaded = load(library, "nvmlInit_v2", api.init) && load(library, "nvmlShutdown", api.shutdown) &&
                        load(library, "nvmlDeviceGetCount_v2", api.deviceCount) &&
                        load(library, "nvmlDeviceGetHandleByIndex_v2", api.deviceByIndex) &&
                        load(library, "nvmlDeviceGetName", api.deviceName) &&
                        load(library, "nvmlDeviceGetClockInfo", api.clockInfo) &&
                        load(library, "nvmlDeviceGetMaxClockInfo", api.maxClockInfo);
    if (!loaded || api.init() != kNvmlSuccess) {
        dlclose(library);
        return noGpuClock("none: NVML did not initialise");
    }
    unsigned count = 0;
    api.deviceCount(&count);
    std::vector<std::pair<NvmlDevice, std::string>> devices;
    for (unsigned i = 0; i < count; ++i) {
        NvmlDevice device = nullptr;
        char name[96] = {};
        if (api.deviceByIndex(i, &device) == kNvmlSuccess && api.deviceName(device, name, sizeof name) == kNvmlSuccess)
            devices.emplace_back(device, name);
    }
    // One device is the one Vulkan runs on; of several, the one of the same name.
    const std::pair<NvmlDevice, std::string>* chosen = devices.size() == 1 ? &devices.front() : nullptr;
    size_t sameName = 0;
    for (const auto& d : devices)
        if (devices.size() > 1 && d.second == vulkanDeviceName && ++sameName == 1) chosen = &d;
    if (!chosen || sameName > 1) {
        api.shutdown();
        dlclose(library);
        return noGpuClock("none: NVML has " + std::to_string(devices.size()) + " devices and none is '" +
                          vulkanDeviceName + "' alone");
    }
    return std::make_unique<NvmlClock>(library, api, chosen->first, chosen->second);
#else
    (void)vulkanDeviceName;
    return noGpuClock("none: NVML is read on Linux only");
#endif
}

} // namespace sculptflow::cli
