// The Vulkan context: device choice, validation, and clear errors.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include "host/context_impl.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

TEST(GpuContext, CreatesHeadlessWithValidation) {
    SF_REQUIRE_VULKAN();
    if (!test::validate()) GTEST_SKIP() << "no validation layer here";
    Context context(ContextOptions{.validation = true});
    EXPECT_TRUE(context.validationEnabled());
    EXPECT_NE(context.device(), VK_NULL_HANDLE);
    EXPECT_NE(context.queue(), VK_NULL_HANDLE);
    EXPECT_FALSE(context.deviceName().empty());
    EXPECT_GE(context.properties().apiVersion, VK_API_VERSION_1_2);
    EXPECT_NO_THROW(context.throwOnValidationMessages());
}

TEST(GpuContext, DeviceChosenByIndexOrName) {
    SF_REQUIRE_VULKAN();
    std::string name;
    {
        Context first(ContextOptions{.validation = test::validate(), .device = "0"});
        name = first.deviceName();
    }
    Context byName(ContextOptions{.validation = test::validate(), .device = name.substr(0, 4)});
    EXPECT_EQ(byName.deviceName().substr(0, 4), name.substr(0, 4));
}

TEST(GpuContext, UnknownDeviceIsRefusedWithTheList) {
    SF_REQUIRE_VULKAN();
    if (std::getenv("SCULPTFLOW_DEVICE")) GTEST_SKIP() << "SCULPTFLOW_DEVICE overrides the option";
    EXPECT_TRUE(test::failsWith([] { Context c(ContextOptions{.device = "no-such-gpu-42"}); },
                                {"no-such-gpu-42", "devices:"}));
}

TEST(GpuContext, ValidationMessagesBecomeErrors) {
    SF_REQUIRE_VULKAN();
    if (!test::validate()) GTEST_SKIP() << "no validation layer here";
    Context context(ContextOptions{.validation = true});
    // A deliberately invalid call: a buffer of size 0.
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 0;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    const VulkanFunctions& vk = vkFunctions(context);
    vk.vkCreateBuffer(context.device(), &info, nullptr, &buffer);
    if (buffer) vk.vkDestroyBuffer(context.device(), buffer, nullptr);
    EXPECT_TRUE(test::failsWith([&] { context.throwOnValidationMessages(); }, {"validation reported"}));
    EXPECT_NO_THROW(context.throwOnValidationMessages()); // the list was cleared
}

} // namespace
} // namespace sculptflow
