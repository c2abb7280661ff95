// One validated Vulkan context and GPU solver per test process.
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include <sculptflow/gpu_solver.hpp>
#include "host/context_impl.hpp"
#include "test_support.hpp"

namespace sculptflow::test {

// Validation layers are always on in tests; run() throws on any message they
// report, and TearDown fails a test after which a destroyed object leaked.
// Without a Vulkan device every test skips.
class GpuTest : public testing::Test {
protected:
    static void SetUpTestSuite() {
        if (vulkanUnavailable()) return;
        context_ = std::make_unique<Context>(ContextOptions{.validation = test::validate()});
        solver_ = std::make_unique<GpuSolver>(*context_);
    }
    static void TearDownTestSuite() {
        if (!context_) return;
        solver_.reset();
        context_.reset();
        EXPECT_EQ(lateValidationMessages(), 0);
    }
    void SetUp() override { SF_REQUIRE_VULKAN(); }
    void TearDown() override {
        if (context_) {
            EXPECT_NO_THROW(context_->throwOnValidationMessages());
        }
    }

    static Context& context() { return *context_; }
    static GpuSolver& solver() { return *solver_; }

private:
    static inline std::unique_ptr<Context> context_;
    static inline std::unique_ptr<GpuSolver> solver_;
};

} // namespace sculptflow::test
