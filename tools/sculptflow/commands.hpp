// The sculptflow subcommands. Each registers itself on the app; its callback runs it.
#pragma once

#include <CLI/CLI.hpp>

namespace sculptflow::cli {

void addDeformCommand(CLI::App& app);
void addValidateCommand(CLI::App& app);
void addBenchCommand(CLI::App& app);
void addRenderCommand(CLI::App& app);
void addTuneCommand(CLI::App& app);
void addShadersCommand(CLI::App& app);
void addSphereCommand(CLI::App& app);
void addDeviceCommand(CLI::App& app);
void addSweepCommand(CLI::App& app);

} // namespace sculptflow::cli
