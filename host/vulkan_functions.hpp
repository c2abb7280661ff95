// The Vulkan entry points one Context uses, loaded into a table it owns. Nothing
// here is global: a renderer that links the loader, uses volk or keeps its own
// dispatch table shares the process with any number of Contexts.
#pragma once

// Prototypes off: any call that bypasses a table fails to compile.
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <memory>

#include <vulkan/vulkan_core.h>

namespace sculptflow {

// Global commands: no instance yet.
#define SF_VK_GLOBAL_FUNCTIONS(X)                                                                           \
    X(vkCreateInstance)                                                                                     \
    X(vkEnumerateInstanceLayerProperties)                                                                   \
    X(vkEnumerateInstanceExtensionProperties)

// Instance commands.
#define SF_VK_INSTANCE_FUNCTIONS(X)                                                                         \
    X(vkDestroyInstance)                                                                                    \
    X(vkEnumeratePhysicalDevices)                                                                           \
    X(vkGetPhysicalDeviceProperties)                                                                        \
    X(vkGetPhysicalDeviceMemoryProperties)                                                                  \
    X(vkGetPhysicalDeviceMemoryProperties2)                                                                 \
    X(vkGetPhysicalDeviceProperties2)                                                                       \
    X(vkEnumerateDeviceExtensionProperties)                                                                 \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                             \
    X(vkGetPhysicalDeviceFormatProperties)                                                                  \
    X(vkCreateDevice)                                                                                       \
    X(vkGetDeviceProcAddr)

// Optional instance commands (VK_EXT_debug_utils): null where not enabled.
#define SF_VK_DEBUG_UTILS_FUNCTIONS(X)                                                                      \
    X(vkCreateDebugUtilsMessengerEXT)                                                                       \
    X(vkDestroyDebugUtilsMessengerEXT)                                                                      \
    X(vkSetDebugUtilsObjectNameEXT)

#define SF_VK_DEVICE_FUNCTIONS(X)                                                                           \
    X(vkDestroyDevice)                                                                                      \
    X(vkGetDeviceQueue)                                                                                     \
    X(vkQueueSubmit)                                                                                        \
    X(vkAllocateMemory)                                                                                     \
    X(vkFreeMemory)                                                                                         \
    X(vkMapMemory)                                                                                          \
    X(vkBindBufferMemory)                                                                                   \
    X(vkBindImageMemory)                                                                                    \
    X(vkGetBufferMemoryRequirements)                                                                        \
    X(vkGetImageMemoryRequirements)                                                                         \
    X(vkCreateBuffer)                                                                                       \
    X(vkDestroyBuffer)                                                                                      \
    X(vkCreateImage)                                                                                        \
    X(vkDestroyImage)                                                                                       \
    X(vkCreateImageView)                                                                                    \
    X(vkDestroyImageView)                                                                                   \
    X(vkCreateFence)                                                                                        \
    X(vkDestroyFence)                                                                                       \
    X(vkResetFences)                                                                                        \
    X(vkWaitForFences)                                                                                      \
    X(vkCreateQueryPool)                                                                                    \
    X(vkDestroyQueryPool)                                                                                   \
    X(vkGetQueryPoolResults)                                                                                \
    X(vkCreateShaderModule)                                                                                 \
    X(vkDestroyShaderModule)                                                                                \
    X(vkCreatePipelineCache)                                                                                \
    X(vkDestroyPipelineCache)                                                                               \
    X(vkGetPipelineCacheData)                                                                               \
    X(vkCreateComputePipelines)                                                                             \
    X(vkCreateGraphicsPipelines)                                                                            \
    X(vkDestroyPipeline)                                                                                    \
    X(vkCreatePipelineLayout)                                                                               \
    X(vkDestroyPipelineLayout)                                                                              \
    X(vkCreateDescriptorSetLayout)                                                                          \
    X(vkDestroyDescriptorSetLayout)                                                                         \
    X(vkCreateDescriptorPool)                                                                               \
    X(vkDestroyDescriptorPool)                                                                              \
    X(vkAllocateDescriptorSets)                                                                             \
    X(vkUpdateDescriptorSets)                                                                               \
    X(vkCreateRenderPass)                                                                                   \
    X(vkDestroyRenderPass)                                                                                  \
    X(vkCreateFramebuffer)                                                                                  \
    X(vkDestroyFramebuffer)                                                                                 \
    X(vkCreateCommandPool)                                                                                  \
    X(vkDestroyCommandPool)                                                                                 \
    X(vkAllocateCommandBuffers)                                                                             \
    X(vkResetCommandBuffer)                                                                                 \
    X(vkBeginCommandBuffer)                                                                                 \
    X(vkEndCommandBuffer)                                                                                   \
    X(vkCmdPipelineBarrier)                                                                                 \
    X(vkCmdBindPipeline)                                                                                    \
    X(vkCmdBindDescriptorSets)                                                                              \
    X(vkCmdPushConstants)                                                                                   \
    X(vkCmdDispatch)                                                                                        \
    X(vkCmdDispatchIndirect)                                                                                \
    X(vkCmdCopyBuffer)                                                                                      \
    X(vkCmdCopyImageToBuffer)                                                                               \
    X(vkCmdFillBuffer)                                                                                      \
    X(vkCmdUpdateBuffer)                                                                                    \
    X(vkCmdResetQueryPool)                                                                                  \
    X(vkCmdWriteTimestamp)                                                                                  \
    X(vkCmdBeginRenderPass)                                                                                 \
    X(vkCmdEndRenderPass)                                                                                   \
    X(vkCmdBindVertexBuffers)                                                                               \
    X(vkCmdBindIndexBuffer)                                                                                 \
    X(vkCmdSetViewport)                                                                                     \
    X(vkCmdSetScissor)                                                                                      \
    X(vkCmdDrawIndexed)

#define SF_VK_MEMBER(name) PFN_##name name = nullptr;

// One Context's entry points. Device commands come from vkGetDeviceProcAddr, so
// they call the driver directly, with no loader trampoline.
struct VulkanFunctions {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
    SF_VK_GLOBAL_FUNCTIONS(SF_VK_MEMBER)
    SF_VK_INSTANCE_FUNCTIONS(SF_VK_MEMBER)
    SF_VK_DEBUG_UTILS_FUNCTIONS(SF_VK_MEMBER)
    SF_VK_DEVICE_FUNCTIONS(SF_VK_MEMBER)
    // Optional: where the adopted device has synchronization2 (Vulkan 1.3, or the
    // KHR extension's command); null elsewhere.
    PFN_vkCmdPipelineBarrier2 vkCmdPipelineBarrier2 = nullptr;
};

#undef SF_VK_MEMBER

class SharedLibrary;

// The system loader, opened at run time (shared_library.hpp) and closed with this
// object.
class LoaderLibrary {
public:
    // `name` null: the platform's loader (vulkan-1.dll; libvulkan.so.1, then
    // libvulkan.so; libvulkan.1.dylib). Throws sculptflow::Error naming each library
    // tried when none can be opened, or the one that has no vkGetInstanceProcAddr.
    explicit LoaderLibrary(const char* name);
    ~LoaderLibrary();
    LoaderLibrary(const LoaderLibrary&) = delete;
    LoaderLibrary& operator=(const LoaderLibrary&) = delete;

    PFN_vkGetInstanceProcAddr getInstanceProcAddr() const { return getInstanceProcAddr_; }

private:
    std::unique_ptr<SharedLibrary> library_;
    PFN_vkGetInstanceProcAddr getInstanceProcAddr_ = nullptr;
};

// Each loader throws sculptflow::Error naming the first required command the
// given entry point did not return (a wrong or stubbed vkGetInstanceProcAddr).
void loadGlobalFunctions(VulkanFunctions& vk, PFN_vkGetInstanceProcAddr getInstanceProcAddr);
void loadInstanceFunctions(VulkanFunctions& vk, VkInstance instance);
// getDeviceProcAddr null: the instance's vkGetDeviceProcAddr. With
// synchronization2, vkCmdPipelineBarrier2 (or its KHR name) is required too.
void loadDeviceFunctions(VulkanFunctions& vk, VkDevice device, PFN_vkGetDeviceProcAddr getDeviceProcAddr,
                         bool synchronization2 = false);

} // namespace sculptflow
