// Loading one Context's Vulkan entry points: from the renderer's
// vkGetInstanceProcAddr or from the system loader opened at run time.
#include "vulkan_functions.hpp"

#include <dlfcn.h>

#include <string>

#include "error.hpp"

namespace sculptflow {
namespace {

template <typename Function>
void require(Function& slot, PFN_vkVoidFunction address, const char* name) {
    if (!address)
        throw Error(std::string("the Vulkan entry point did not return ") + name +
                    " (is vkGetInstanceProcAddr the loader's, or a working dispatch's?)");
    slot = reinterpret_cast<Function>(address);
}

} // namespace

LoaderLibrary::LoaderLibrary(const char* name) {
    handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* reason = dlerror();
        throw Error(std::string("cannot open the Vulkan loader ") + name + ": " + (reason ? reason : "unknown") +
                    " (Debian: libvulkan1 and a driver, such as mesa-vulkan-drivers)");
    }
    getInstanceProcAddr_ = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(handle_, "vkGetInstanceProcAddr"));
    if (!getInstanceProcAddr_) {
        dlclose(handle_);
        handle_ = nullptr;
        throw Error(std::string("the Vulkan loader ") + name + " has no vkGetInstanceProcAddr");
    }
}

LoaderLibrary::~LoaderLibrary() {
    if (handle_) dlclose(handle_);
}

void loadGlobalFunctions(VulkanFunctions& vk, PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
    if (!getInstanceProcAddr) throw Error("vkGetInstanceProcAddr is null");
    vk.vkGetInstanceProcAddr = getInstanceProcAddr;
#define SF_VK_LOAD(name) require(vk.name, getInstanceProcAddr(VK_NULL_HANDLE, #name), #name);
    SF_VK_GLOBAL_FUNCTIONS(SF_VK_LOAD)
#undef SF_VK_LOAD
}

void loadInstanceFunctions(VulkanFunctions& vk, VkInstance instance) {
    if (!vk.vkGetInstanceProcAddr) throw Error("vkGetInstanceProcAddr is null");
#define SF_VK_LOAD(name) require(vk.name, vk.vkGetInstanceProcAddr(instance, #name), #name);
    SF_VK_INSTANCE_FUNCTIONS(SF_VK_LOAD)
#undef SF_VK_LOAD
#define SF_VK_LOAD_OPTIONAL(name) vk.name = reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(instance, #name));
    SF_VK_DEBUG_UTILS_FUNCTIONS(SF_VK_LOAD_OPTIONAL)
#undef SF_VK_LOAD_OPTIONAL
}

void loadDeviceFunctions(VulkanFunctions& vk, VkDevice device, PFN_vkGetDeviceProcAddr getDeviceProcAddr,
                         bool synchronization2) {
    PFN_vkGetDeviceProcAddr load = getDeviceProcAddr ? getDeviceProcAddr : vk.vkGetDeviceProcAddr;
    if (!load) throw Error("vkGetDeviceProcAddr is null");
#define SF_VK_LOAD(name) require(vk.name, load(device, #name), #name);
    SF_VK_DEVICE_FUNCTIONS(SF_VK_LOAD)
#undef SF_VK_LOAD
    if (synchronization2) {
        PFN_vkVoidFunction barrier2 = load(device, "vkCmdPipelineBarrier2");
        if (!barrier2) barrier2 = load(device, "vkCmdPipelineBarrier2KHR");
        require(vk.vkCmdPipelineBarrier2, barrier2, "vkCmdPipelineBarrier2");
    }
}

} // namespace sculptflow
