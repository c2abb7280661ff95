// Runs the sculptflow command line's subcommands in-process, as typed, with the
// validation layers on for every context they create (as in every GPU test).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "test_support.hpp"

namespace sculptflow::test {

// What a test writes into an output file that a refused command must leave as it was.
inline constexpr const char* kSentinel = "left as it was\n";

// Sets SCULPTFLOW_VALIDATION=1 (where validate()) while it lives, then puts the old value back.
class ValidationOn {
    ScopedEnv validation_{"SCULPTFLOW_VALIDATION", validate() ? "1" : nullptr};
};

// Runs `sculptflow <args>` with the subcommands that `addCommands` registers.
inline void runCli(void (*addCommands)(CLI::App&), const std::vector<std::string>& args) {
    const ValidationOn validation;
    CLI::App app{"sculptflow"};
    app.require_subcommand(1);
    addCommands(app);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them last first
    app.parse(reversed);
}

// The exit status and stderr of `sculptflow <args>`, as the executable gives them.
inline std::pair<int, std::string> cliExitStatus(const std::vector<std::string>& args) {
    const ValidationOn validation;
    std::vector<const char*> argv = {"sculptflow"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    testing::internal::CaptureStderr();
    const int status = cli::runCommandLine(int(argv.size()), argv.data());
    return {status, testing::internal::GetCapturedStderr()};
}

// A JSON file a command wrote; null (and a failure) if it is missing or empty.
inline nlohmann::json readJson(const std::filesystem::path& path) {
    const std::string text = readFile(path);
    EXPECT_FALSE(text.empty()) << path << " missing or empty";
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

} // namespace sculptflow::test
