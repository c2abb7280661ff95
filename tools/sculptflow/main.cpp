// The sculptflow command line: one executable, one subcommand per job.
#include "command_line.hpp"

int main(int argc, char** argv) { return sculptflow::cli::runCommandLine(argc, argv); }
