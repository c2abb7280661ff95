// `sculptflow device`: the Vulkan device every GPU command would run on, or why
// there is none (exit status 1), so that a user or a script can check first.
#include <cstdio>

#include <sculptflow/context.hpp>
#include "commands.hpp"

namespace sculptflow::cli {

void addDeviceCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand(
        "device", "Print the Vulkan device the GPU commands run on (SCULPTFLOW_DEVICE chooses), or fail saying why "
                  "there is none");
    cmd->callback([] {
        const Context context;
        std::printf("device: %s\ndriver: %s\nbuffers: %s\n", context.deviceName().c_str(),
                    context.driverName().c_str(), bufferPlacementName(context.bufferPlacement()));
    });
}

} // namespace sculptflow::cli
