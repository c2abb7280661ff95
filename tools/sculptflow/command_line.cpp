// The sculptflow command line: one app, one subcommand per job, errors to exit statuses.
#include "command_line.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <sculptflow/error.hpp>
#include "src/text_scan.hpp"
#include "commands.hpp"
#include "version_flag.hpp"

namespace sculptflow::cli {
namespace {

// The option of the command line nearest a mistyped one: near in spelling (the
// stroke keys' rule), else one whose name starts the typed one or that it starts
// (--tolerance for --tol, --vox for --voxel-size); "" when none is.
std::string nearestOption(const CLI::App& app, std::string_view typed) {
    std::vector<std::string> names;
    std::vector<const CLI::App*> apps = {&app};
    for (const CLI::App* sub : app.get_subcommands()) apps.push_back(sub);
    for (const CLI::App* a : apps)
        for (const CLI::Option* option : a->get_options())
            for (const std::string& name : option->get_lnames()) names.push_back(name);
    const std::string_view word = typed.substr(0, typed.find('=')).substr(2);
    if (std::string near = detail::nearestName(word, names); !near.empty()) return "--" + near;
    std::string best;
    for (const std::string& name : names) {
        const size_t shorter = std::min(name.size(), word.size());
        if (shorter >= 3 && name.compare(0, shorter, word, 0, shorter) == 0 && name.size() > best.size()) best = name;
    }
    return best.empty() ? "" : "--" + best;
}

// CLI11's "The following argument was not expected", said per argument, with a
// "did you mean" for a mistyped option.
void printUnexpected(const CLI::App& app) {
    for (const std::string& arg : app.remaining(true)) {
        if (arg.rfind("--", 0) != 0 || arg.size() < 3) {
            std::string near; // a mistyped command
            if (app.get_subcommands().empty()) {
                std::vector<std::string> commands;
                for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
                    commands.push_back(sub->get_name());
                near = detail::nearestName(arg, commands);
            }
            std::fprintf(stderr, "sculptflow: unexpected argument %s%s\n", arg.c_str(),
                         near.empty() ? "" : ("; did you mean the command " + near + "?").c_str());
            continue;
        }
        const std::string near = nearestOption(app, arg);
        std::fprintf(stderr, "sculptflow: unknown option %s%s\n", arg.substr(0, arg.find('=')).c_str(),
                     near.empty() ? "" : ("; did you mean " + near + "?").c_str());
    }
    std::fprintf(stderr, "Run with --help for more information.\n");
}

} // namespace

void addCommands(CLI::App& app) {
    addDeformCommand(app);
    addValidateCommand(app);
    addBenchCommand(app);
    addRenderCommand(app);
#if SCULPTFLOW_HOT_RELOAD // both compile GLSL at run time (glslang)
    addTuneCommand(app);
    addShadersCommand(app);
#endif
    addSphereCommand(app);
    addDeviceCommand(app);
    addSweepCommand(app);
}

int runCommandLine(int argc, const char* const* argv) {
    CLI::App app{"sculptflow: the VR sculpting move tool's deformation, GPU and CPU reference"};
    app.require_subcommand(1);
    addVersionFlag(app);
    addCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Unknown options, or an unknown command (to CLI11, "a subcommand is required"):
        // named one by one, each with the nearest known one.
        const bool noCommand = dynamic_cast<const CLI::RequiredError*>(&e) && app.get_subcommands().empty();
        if ((dynamic_cast<const CLI::ExtrasError*>(&e) || noCommand) && !app.remaining(true).empty()) {
            printUnexpected(app);
            return 1;
        }
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
