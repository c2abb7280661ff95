// The sculptflow command line: one executable, one subcommand per job.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "error.hpp"

int main(int argc, char** argv) {
    CLI::App app{"sculptflow: the VR sculpting move tool's deformation, GPU and CPU reference"};
    app.require_subcommand(1);
    sculptflow::cli::addDeformCommand(app);
    sculptflow::cli::addValidateCommand(app);
    sculptflow::cli::addBenchCommand(app);
    sculptflow::cli::addRenderCommand(app);
    sculptflow::cli::addTuneCommand(app);
    sculptflow::cli::addShadersCommand(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const sculptflow::Error& e) {
        std::fprintf(stderr, "sculptflow: error: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sculptflow: unexpected error: %s\n", e.what());
        return 2;
    }
    return 0;
}
