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
        const int status = app.exit(e); // prints the usage error, or the help
        // A command's own status (a failed check) stands; CLI11's usage errors have
        // statuses of their own (105 a failed check, 106 a bad value, ...), but to a
        // user they are all bad input: 1, as documented.
        if (status == 0 || dynamic_cast<const CLI::RuntimeError*>(&e)) return status;
        return 1;
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
