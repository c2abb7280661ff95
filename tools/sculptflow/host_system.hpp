// What the CLI asks of the machine it runs on, one function per question, each
// answered per platform in host_system.cpp.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

namespace sculptflow::cli {

// Whether `stream` is an interactive terminal (isatty; _isatty on Windows).
bool isTerminal(std::FILE* stream);
// Whether this process may create files in `folder`.
bool isWritableFolder(const std::filesystem::path& folder);
// The CPU's clock in GHz (Linux: the first "cpu MHz" of /proc/cpuinfo; Windows:
// the registry's ~MHz); NaN when it cannot be read.
double cpuClockGhz();
// The CPU's model name ("model name" of /proc/cpuinfo; Windows: the registry's
// ProcessorNameString), or "CPU".
std::string cpuModelName();

} // namespace sculptflow::cli
