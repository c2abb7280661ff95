// Helpers shared by the test files: recorded strokes, files and scratch directories.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <gtest/gtest.h>

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include "src/process_id.hpp"

namespace sculptflow::test {

// Whether two points are the same bytes (a vertex a run must leave untouched).
inline bool sameBits(const glm::vec3& a, const glm::vec3& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Sets (value null: removes) an environment variable for one scope, then puts
// the old value back: setenv/unsetenv, or _putenv_s on Windows.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        set(value);
    }
    ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    void set(const char* value) const {
#if defined(_WIN32)
        _putenv_s(name_, value ? value : ""); // an empty value removes it
#else
        value ? ::setenv(name_, value, 1) : ::unsetenv(name_);
#endif
    }

    const char* name_;
    std::optional<std::string> old_;
};

// ASan and UBSan builds (tools/sanitize.sh) run Debug code many times slower: the
// heavier accuracy tests run a smaller share of their cases there, enough to take
// every code path they cover, so that each shard stays well inside its time limit.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// The recordings live outside the repository (../shared/data/strokes); the
// SCULPTFLOW_STROKES environment variable points elsewhere.
inline std::filesystem::path strokesDir() {
    if (const char* env = std::getenv("SCULPTFLOW_STROKES")) return env;
    return SCULPTFLOW_DEFAULT_STROKES_DIR;
}

// Path of a recorded stroke, or nullopt when the recordings are not present.
inline std::optional<std::filesystem::path> recordedStroke(const std::string& name) {
    auto path = strokesDir() / name;
    if (!std::filesystem::is_regular_file(path)) return std::nullopt;
    return path;
}

// Skips the current test with a message when a recording is absent.
#define SF_REQUIRE_RECORDING(var, name)                                                  \
    auto var##Found = ::sculptflow::test::recordedStroke(name);                          \
    if (!var##Found) GTEST_SKIP() << "recorded stroke " << name << " not found in "      \
                                  << ::sculptflow::test::strokesDir()                    \
                                  << " (set SCULPTFLOW_STROKES to its directory)";       \
    const std::filesystem::path var = *var##Found

// Why no Vulkan device can be opened here (no driver, no device: the loader's or
// the library's message), probed once per process; nullopt when one can.
inline const std::optional<std::string>& vulkanUnavailable() {
    static const std::optional<std::string> why = []() -> std::optional<std::string> {
        try {
            Context probe(ContextOptions{.validation = false});
            return std::nullopt;
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
    }();
    return why;
}

// Whether this Windows process runs under Wine (test_platform.cpp); false elsewhere.
bool underWine();

// Whether tests turn the validation layer on: always, except on Windows where it
// cannot be loaded at all (Wine's Vulkan loader has no layers); the GPU tests
// then run without it, which is said once.
inline bool validate() {
#if defined(_WIN32)
    static const bool available = [] {
        try {
            Context probe(ContextOptions{.validation = true});
            return true;
        } catch (const std::exception& e) {
            if (std::string(e.what()).find("VK_LAYER_KHRONOS_validation") == std::string::npos) return true;
            std::fprintf(stderr, "[ note ] %s: the GPU tests run without validation\n", e.what());
            return false;
        }
    }();
    return available;
#else
    return true;
#endif
}

// Skips the current test, with one clear message, on a machine without a Vulkan device.
#define SF_REQUIRE_VULKAN()                                                                     \
    do {                                                                                        \
        if (const auto& why_ = ::sculptflow::test::vulkanUnavailable())                         \
            GTEST_SKIP() << "no Vulkan device here (" << *why_ << "): the GPU tests are skipped"; \
    } while (0)

// Writes bytes to a file, failing the test if that is impossible.
inline void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// The whole file as bytes (empty if it cannot be read).
inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Passes when fn throws sculptflow::Error whose message contains every part.
template <class Fn>
inline ::testing::AssertionResult failsWith(Fn&& fn, const std::vector<std::string_view>& parts) {
    try {
        fn();
    } catch (const Error& e) {
        const std::string message = e.what();
        for (std::string_view part : parts) {
            if (message.find(part) == std::string::npos) {
                return ::testing::AssertionFailure()
                       << "message \"" << message << "\" lacks \"" << part << "\"";
            }
        }
        return ::testing::AssertionSuccess() << message;
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "threw a non-sculptflow exception: " << e.what();
    }
    return ::testing::AssertionFailure() << "no exception thrown";
}

// A fresh directory under the system temp dir, removed at scope exit.
class ScratchDir {
public:
    ScratchDir() {
        auto base = std::filesystem::temp_directory_path();
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = "sculptflow-";
        name += info ? std::string(info->test_suite_name()) + "-" + info->name() : "test";
        // Parameterized tests have '/' in their names: keep the name one path component.
        std::replace(name.begin(), name.end(), '/', '_');
        path_ = base / (name + "-" + std::to_string(detail::processId()));
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

} // namespace sculptflow::test
