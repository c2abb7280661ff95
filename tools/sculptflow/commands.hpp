// The sculptflow subcommands. Each registers itself on the app; its callback runs it.
#pragma once

#include <CLI/CLI.hpp>

namespace sculptflow::cli {

void addDeformCommand(CLI::App& app);

} // namespace sculptflow::cli
