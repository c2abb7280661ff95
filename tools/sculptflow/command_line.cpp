// The sculptflow command line: one app, one subcommand per job, errors to exit statuses.
#include "command_line.hpp"

#include <cstdio>

#include "commands.hpp"
#include "error.hpp"

namespace sculptflow::cli {

void addCommands(CLI::App& app) {
    addDeformCommand(app);
    addValidateCommand(app);
    addBenchCommand(app);
    addRenderCommand(app);
    addTuneCommand(app);
    addShadersCommand(app);
    addSphereCommand(app);
    addDeviceCommand(app);
}

int runCommandLine(int argc, const char* const* argv) {
    CLI::App app{"sculptflow: the VR sculpting move tool's deformation, GPU and CPU reference"};
    app.require_subcommand(1);
    addCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const Error& e) {
        std::fprintf(stderr, "sculptflow: error: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sculptflow: unexpected error: %s\n", e.what());
        return 2;
    }
    return 0;
}

} // namespace sculptflow::cli
