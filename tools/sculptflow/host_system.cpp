// host_system.hpp per platform: POSIX and /proc/cpuinfo, or the Windows CRT and registry.
#include "host_system.hpp"

#include <limits>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#else
#include <cstdlib>
#include <fstream>

#include <unistd.h>
#endif

namespace sculptflow::cli {
namespace {

constexpr double kUnknownClock = std::numeric_limits<double>::quiet_NaN();

#if defined(_WIN32)

// A value of the first processor's registry key; false when it cannot be read.
bool processorValue(const char* name, DWORD type, void* data, DWORD size) {
    return RegGetValueA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", name, type,
                        nullptr, data, &size) == ERROR_SUCCESS;
}

#else

// The value of `key` in the first /proc/cpuinfo line that starts with it.
std::string cpuinfoValue(const std::string& key) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const size_t first = line.find_first_not_of(" \t", colon + 1);
        return first == std::string::npos ? "" : line.substr(first);
    }
    return "";
}

#endif

} // namespace

#if defined(_WIN32)

bool isTerminal(std::FILE* stream) { return stream && _isatty(_fileno(stream)) != 0; }

bool isWritableFolder(const std::filesystem::path& folder) { return _waccess(folder.c_str(), 2) == 0; }

double cpuClockGhz() {
    DWORD mhz = 0;
    return processorValue("~MHz", RRF_RT_REG_DWORD, &mhz, sizeof mhz) && mhz > 0 ? mhz * 1e-3 : kUnknownClock;
}

std::string cpuModelName() {
    char name[256] = {};
    if (!processorValue("ProcessorNameString", RRF_RT_REG_SZ, name, sizeof name) || !name[0]) return "CPU";
    return name;
}

#else

bool isTerminal(std::FILE* stream) { return stream && ::isatty(::fileno(stream)) == 1; }

bool isWritableFolder(const std::filesystem::path& folder) { return ::access(folder.c_str(), W_OK) == 0; }

double cpuClockGhz() {
    const std::string mhz = cpuinfoValue("cpu MHz");
    char* end = nullptr;
    const double value = std::strtod(mhz.c_str(), &end);
    return end != mhz.c_str() && value > 0.0 ? value * 1e-3 : kUnknownClock;
}

std::string cpuModelName() {
    const std::string name = cpuinfoValue("model name");
    return name.empty() ? "CPU" : name;
}

#endif

} // namespace sculptflow::cli
