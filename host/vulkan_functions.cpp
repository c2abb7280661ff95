// Loading one Context's Vulkan entry points: from the renderer's
// vkGetInstanceProcAddr or from the system loader opened at run time.
#include "vulkan_functions.hpp"

#include <memory>
#include <string>
#include <vector>

#include <sculptflow/error.hpp>
#include "shared_library.hpp"

namespace sculptflow {
namespace {

template <typename Function>
void require(Function& slot, PFN_vkVoidFunction address, const char* name) {
    if (!address)
        throw Error(ErrorCode::InitializationFailed,
                    std::string("the Vulkan entry point did not return ") + name +
                        " (is vkGetInstanceProcAddr the loader's, or a working dispatch's?)");
    slot = reinterpret_cast<Function>(address);
}

// The loader's names per platform, most specific first.
std::vector<const char*> systemLoaderNames() {
#if defined(_WIN32)
    return {"vulkan-1.dll"};
#elif defined(__APPLE__)
    return {"libvulkan.1.dylib", "libvulkan.dylib"};
#else
    return {"libvulkan.so.1", "libvulkan.so"}; // Linux, Android
#endif
}

} // namespace

LoaderLibrary::LoaderLibrary(const char* name) {
    const std::vector<const char*> names = name ? std::vector<const char*>{name} : systemLoaderNames();
    std::string failures;
    for (const char* candidate : names) {
        auto library = std::make_unique<SharedLibrary>(candidate);
        if (!library->isOpen()) {
            failures += std::string(failures.empty() ? "" : "; ") + candidate + ": " + library->error();
            continue;
        }
        getInstanceProcAddr_ = reinterpret_cast<PFN_vkGetInstanceProcAddr>(library->symbol("vkGetInstanceProcAddr"));
        if (!getInstanceProcAddr_)
            throw Error(ErrorCode::InitializationFailed,
                        std::string("the Vulkan loader ") + candidate + " has no vkGetInstanceProcAddr");
        library_ = std::move(library);
        return;
    }
    throw Error(ErrorCode::InitializationFailed, "cannot open the Vulkan loader " + failures +
                                                     " (Debian: libvulkan1 and a driver, such as mesa-vulkan-drivers)");
}

LoaderLibrary::~LoaderLibrary() = default;

void loadGlobalFunctions(VulkanFunctions& vk, PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
    if (!getInstanceProcAddr) throw Error(ErrorCode::InitializationFailed, "vkGetInstanceProcAddr is null");
    vk.vkGetInstanceProcAddr = getInstanceProcAddr;
#define SF_VK_LOAD(name) require(vk.name, getInstanceProcAddr(VK_NULL_HANDLE, #name), #name);
    SF_VK_GLOBAL_FUNCTIONS(SF_VK_LOAD)
#undef SF_VK_LOAD
}

void loadInstanceFunctions(VulkanFunctions& vk, VkInstance instance) {
    if (!vk.vkGetInstanceProcAddr) throw Error(ErrorCode::InitializationFailed, "vkGetInstanceProcAddr is null");
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
    if (!load) throw Error(ErrorCode::InitializationFailed, "vkGetDeviceProcAddr is null");
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
