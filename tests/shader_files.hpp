// The tests' shader files: the embedded sources written out, and edits to them.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "host/shader_compiler.hpp"
#include "test_support.hpp"

namespace sculptflow::test {

// Writes the embedded sources into dir, as `sculptflow shaders export` does.
inline void exportShaders(const std::filesystem::path& dir) {
    for (const auto& [path, text] : embeddedShaderSources()) {
        std::filesystem::create_directories((dir / path).parent_path());
        writeFile(dir / path, text);
    }
}

// Rewrites a file with one substitution; its mtime must move even on coarse clocks.
inline void edit(const std::filesystem::path& file, const std::string& from, const std::string& to) {
    std::string text = readFile(file);
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << file;
    text.replace(at, from.size(), to);
    auto before = std::filesystem::last_write_time(file);
    writeFile(file, text);
    if (std::filesystem::last_write_time(file) == before)
        std::filesystem::last_write_time(file, before + std::chrono::milliseconds(10));
}

} // namespace sculptflow::test
