// The GPU's SM clock, read through NVIDIA's management library (NVML) opened at
// run time: a real GPU idles at a fraction of its boost clock, so every timing
// the bench reports carries the clock it ran at. No NVML (another vendor,
// lavapipe, no driver): no reading, and the bench says so.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace sculptflow::cli {

class GpuClock {
public:
    virtual ~GpuClock() = default;
    virtual std::optional<unsigned> smMhz() = 0;    // now
    virtual std::optional<unsigned> maxSmMhz() = 0; // the boost clock's ceiling
    virtual std::string source() const = 0;         // "nvml: NVIDIA H200", or why there is none
};

// NVML's reading of the device named `vulkanDeviceName` (the only NVIDIA device,
// or the one whose NVML name matches), or a clock that reads nothing, with why.
std::unique_ptr<GpuClock> openGpuClock(const std::string& vulkanDeviceName);

// A clock that reads nothing; `why` is its source().
std::unique_ptr<GpuClock> noGpuClock(std::string why);

} // namespace sculptflow::cli
