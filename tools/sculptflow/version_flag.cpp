// `sculptflow --version [--verbose]`.
#include "version_flag.hpp"

#include <exception>

#include <sculptflow/context.hpp>
#include <sculptflow/version.hpp>

namespace sculptflow::cli {

std::string versionText(bool verbose) {
    const Version v = version();
    std::string text = "sculptflow " + std::to_string(v.major) + "." + std::to_string(v.minor) + "." +
                       std::to_string(v.patch) + " (" + SCULPTFLOW_BUILD_TYPE + " build)";
    if (!verbose) return text;
    try {
        const Context context; // SCULPTFLOW_DEVICE picks it, as for every GPU command
        text += "\ndevice: " + context.deviceName() + "\ndriver: " + context.driverName();
    } catch (const std::exception& e) {
        text += "\ndevice: none (" + std::string(e.what()) + ")";
    }
    return text;
}

void addVersionFlag(CLI::App& app) {
    CLI::Option* verbose = app.add_flag("--verbose")->description("With --version: also the Vulkan device and driver");
    // Read when the flag is handled, after the whole line is parsed: --verbose may come first or last.
    CLI::Option* flag = app.set_version_flag(
        "--version", [&app] { return versionText(app.count("--verbose") > 0); },
        "Print the library's version and build type, and exit");
    verbose->needs(flag);
}

} // namespace sculptflow::cli
