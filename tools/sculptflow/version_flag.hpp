// `sculptflow --version [--verbose]`: what a bug report needs first.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace sculptflow::cli {

// "sculptflow 1.2.3 (RelWithDebInfo build)": the library's version as it runs (a
// shared library may be newer than this program) and the build type. With
// `verbose`, also the Vulkan device and driver the GPU commands would use, or
// why there is none: never an error, as --version must work on any machine.
std::string versionText(bool verbose);

// Adds --version and --verbose (only with --version) to the top-level app.
void addVersionFlag(CLI::App& app);

} // namespace sculptflow::cli
