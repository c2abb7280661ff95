// The tests' platform parts: Wine detection, and the per-platform helpers they use.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

#include "src/process_id.hpp"
#include "test_support.hpp"

namespace sculptflow {

bool test::underWine() {
#if defined(_WIN32)
    const HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version");
#else
    return false;
#endif
}

namespace {

TEST(Platform, ScopedEnvSetsRemovesAndRestores) {
    const char* name = "SCULPTFLOW_TEST_PLATFORM_VARIABLE";
    {
        test::ScopedEnv set(name, "1");
        ASSERT_NE(std::getenv(name), nullptr);
        EXPECT_EQ(std::string(std::getenv(name)), "1");
        {
            test::ScopedEnv removed(name, nullptr);
            EXPECT_EQ(std::getenv(name), nullptr);
        }
        EXPECT_EQ(std::string(std::getenv(name)), "1");
    }
    EXPECT_EQ(std::getenv(name), nullptr);
}

TEST(Platform, ProcessIdIsNonZeroAndStable) {
    EXPECT_NE(detail::processId(), 0ul);
    EXPECT_EQ(detail::processId(), detail::processId());
}

} // namespace
} // namespace sculptflow
