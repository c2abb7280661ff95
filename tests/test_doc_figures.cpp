// The figures the docs quote from a command's output are what the command prints
// today (issue 47: they drifted). A checked block in README.md or docs/*.md is an
// indented code block after the marker
//     <!-- checked by tests/test_doc_figures.cpp: within R% or A -->
// whose first line is "$ build/tools/sculptflow ARGS" (continued by "\"), and whose
// other lines are output lines, in order, abridged as the doc likes: each must
// match a printed line with the same words, every number within R% or A of it
// (the noise the doc states).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "test_support.hpp"

namespace sculptflow::test {
namespace {

namespace fs = std::filesystem;

struct CheckedBlock {
    std::string file;
    int line = 0;                  // of the command, 1-based
    double relative = 0.0, absolute = 0.0;
    std::vector<std::string> args; // after "build/tools/sculptflow"
    std::vector<std::string> expected;
};

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<CheckedBlock> checkedBlocks(const fs::path& doc) {
    std::ifstream in(doc);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    const std::regex marker(R"(<!-- checked by tests/test_doc_figures\.cpp: within ([0-9.]+)% or ([0-9.]+) -->)");
    std::vector<CheckedBlock> blocks;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(lines[i], m, marker)) continue;
        CheckedBlock b{doc.filename().string(), 0, std::stod(m[1]) / 100.0, std::stod(m[2]), {}, {}};
        size_t j = i + 1;
        while (j < lines.size() && trim(lines[j]).empty()) ++j;
        b.line = int(j + 1);
        std::string command;
        for (; j < lines.size() && lines[j].rfind("    ", 0) == 0; ++j) {
            const std::string t = trim(lines[j]);
            const bool more = !t.empty() && t.back() == '\\';
            command += " " + (more ? t.substr(0, t.size() - 1) : t);
            if (!more) { ++j; break; }
        }
        std::istringstream words(command);
        std::string word;
        words >> word; // "$"
        words >> word; // build/tools/sculptflow
        EXPECT_EQ(word, "build/tools/sculptflow") << doc << ":" << b.line << ": a checked block starts with the command";
        while (words >> word) b.args.push_back(word);
        for (; j < lines.size() && (lines[j].rfind("    ", 0) == 0 || trim(lines[j]).empty()); ++j)
            if (!trim(lines[j]).empty()) b.expected.push_back(trim(lines[j]));
        blocks.push_back(b);
    }
    return blocks;
}

// The line's words with its numbers taken out, and the numbers.
const std::regex kNumber(R"(-?\d+(\.\d+)?)");

std::string wordsOf(const std::string& line) {
    std::string collapsed;
    for (char c : std::regex_replace(line, kNumber, "#"))
        if (c != ' ' || (!collapsed.empty() && collapsed.back() != ' ')) collapsed += c;
    return collapsed;
}

std::vector<double> numbersOf(const std::string& line) {
    std::vector<double> numbers;
    for (std::sregex_iterator it(line.begin(), line.end(), kNumber), end; it != end; ++it)
        numbers.push_back(std::stod(it->str()));
    return numbers;
}

// The doc's paths as the test has them: recordings from strokesDir(), outputs in `scratch`.
std::optional<std::vector<std::string>> resolvedArgs(const CheckedBlock& b, const fs::path& scratch) {
    std::vector<std::string> args;
    for (const std::string& a : b.args) {
        if (a.rfind("../shared/data/strokes/", 0) == 0) {
            const auto found = recordedStroke(fs::path(a).filename().string());
            if (!found) return std::nullopt;
            args.push_back(found->string());
        } else if (a.rfind("build/", 0) == 0) {
            args.push_back((scratch / fs::path(a).filename()).string());
        } else {
            args.push_back(a);
        }
    }
    return args;
}

const std::vector<std::string> kCpuBackend = {"--backend", "cpu"};

void checkBlock(const CheckedBlock& b, const std::string& printed) {
    std::istringstream lines(printed);
    std::vector<std::string> actual;
    for (std::string l; std::getline(lines, l);) actual.push_back(trim(l));
    size_t from = 0; // the doc's lines come in the printed order
    for (const std::string& want : b.expected) {
        size_t k = from;
        while (k < actual.size() && wordsOf(actual[k]) != wordsOf(want)) ++k;
        if (k == actual.size()) {
            ADD_FAILURE() << b.file << ":" << b.line << ": no printed line reads like\n  " << want << "\nprinted:\n"
                          << printed;
            continue;
        }
        from = k + 1;
        const std::vector<double> doc = numbersOf(want), now = numbersOf(actual[k]);
        for (size_t n = 0; n < doc.size(); ++n)
            EXPECT_LE(std::abs(now[n] - doc[n]), std::max(b.relative * std::abs(doc[n]), b.absolute))
                << b.file << ":" << b.line << ": the doc says\n  " << want << "\nthe command prints\n  " << actual[k];
    }
}

TEST(DocFigures, EveryCheckedBlockMatchesWhatItsCommandPrints) {
    // The docs beside this test's source (the build bakes in the source tree's path).
    const fs::path root = fs::path(__FILE__).parent_path().parent_path();
    if (!fs::is_regular_file(root / "README.md")) GTEST_SKIP() << "the docs are not at " << root;
    std::vector<CheckedBlock> blocks = checkedBlocks(root / "README.md");
    for (const auto& entry : fs::directory_iterator(root / "docs"))
        if (entry.path().extension() == ".md")
            for (CheckedBlock& b : checkedBlocks(entry.path())) blocks.push_back(std::move(b));
    ASSERT_FALSE(blocks.empty()) << "no checked block in the docs: the marker's text changed?";

    ScratchDir scratch;
    size_t ran = 0;
    for (const CheckedBlock& b : blocks) {
        SCOPED_TRACE(b.file + ":" + std::to_string(b.line));
        EXPECT_FALSE(b.expected.empty()) << "a checked block quotes no output";
        const auto args = resolvedArgs(b, scratch.path());
        if (!args) continue; // its recording is absent
        const bool cpuOnly = std::search(b.args.begin(), b.args.end(), kCpuBackend.begin(), kCpuBackend.end()) !=
                             b.args.end();
        if (!cpuOnly && vulkanUnavailable()) continue;
        testing::internal::CaptureStdout();
        const auto [status, errors] = cliExitStatus(*args);
        const std::string printed = testing::internal::GetCapturedStdout();
        EXPECT_EQ(status, 0) << errors;
        checkBlock(b, printed);
        ++ran;
    }
    if (ran == 0) GTEST_SKIP() << "every checked block needs a recording or a Vulkan device, absent here";
}

} // namespace
} // namespace sculptflow::test
