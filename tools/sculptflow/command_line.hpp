// The sculptflow command line as a function, so that tests can check its exit
// status and messages in-process.
#pragma once

#include <CLI/CLI.hpp>

namespace sculptflow::cli {

// Registers every subcommand on `app`.
void addCommands(CLI::App& app);

// Parses and runs one subcommand; returns the process's exit status: 0 done (or
// --help), 1 bad input (a sculptflow::Error, printed to stderr as "sculptflow:
// error: ...", or a usage error, whatever CLI11's own status), a failed or
// unchecked validation, 2 anything unexpected.
int runCommandLine(int argc, const char* const* argv);

} // namespace sculptflow::cli
