// Context: a headless instance and device, or a renderer's adopted; device
// choice, entry points per Context, validation messages.
#include "context_impl.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "error.hpp"
#include "instance_support.hpp"
#include "pipeline_cache_file.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

std::atomic<int> gLateValidationMessages{0};

bool envFlag(const char* name) {
    const char* value = std::getenv(name);
    return value && std::strcmp(value, "0") != 0 && value[0] != '\0';
}

std::optional<uint32_t> computeQueueFamily(const VulkanFunctions& vk, VkPhysicalDevice device) {
    uint32_t count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
    return std::nullopt;
}

VkPhysicalDevice chooseDevice(const VulkanFunctions& vk, const std::vector<VkPhysicalDevice>& devices,
                              const std::string& selector) {
    std::string available;
    std::vector<VkPhysicalDevice> usable;
    for (size_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vk.vkGetPhysicalDeviceProperties(devices[i], &p);
        available += "\n  " + std::to_string(i) + ": " + p.deviceName;
        bool matches = selector.empty() || selector == std::to_string(i) ||
                       std::string(p.deviceName).find(selector) != std::string::npos;
        if (matches && p.apiVersion >= VK_API_VERSION_1_2 && computeQueueFamily(vk, devices[i]))
            usable.push_back(devices[i]);
    }
    if (usable.empty()) {
        throw Error(selector.empty()
                        ? "no Vulkan 1.2 device with a compute queue; devices:" + available
                        : "no Vulkan 1.2 compute device matches SCULPTFLOW_DEVICE='" + selector +
                              "'; devices:" + available);
    }
    return *std::min_element(usable.begin(), usable.end(), [&](VkPhysicalDevice a, VkPhysicalDevice b) {
        VkPhysicalDeviceProperties pa, pb;
        vk.vkGetPhysicalDeviceProperties(a, &pa);
        vk.vkGetPhysicalDeviceProperties(b, &pb);
        return deviceTypeRank(pa.deviceType) < deviceTypeRank(pb.deviceType);
    });
}

std::string versionText(uint32_t version) {
    return std::to_string(VK_API_VERSION_MAJOR(version)) + "." + std::to_string(VK_API_VERSION_MINOR(version));
}

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* impl = static_cast<Context::Impl*>(user);
    std::lock_guard lock(impl->messagesMutex);
    impl->messages.emplace_back(data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

// The caller's entry point, or the system loader's.
PFN_vkGetInstanceProcAddr entryPoint(Context::Impl& impl, const VulkanLoader& loader) {
    if (loader.getInstanceProcAddr) return loader.getInstanceProcAddr;
    impl.library.emplace(loader.library ? loader.library : "libvulkan.so.1");
    return impl.library->getInstanceProcAddr();
}

// Names only where the instance has VK_EXT_debug_utils (the loader then returns
// vkSetDebugUtilsObjectNameEXT): called once its instance functions are loaded.
void takeHooks(Context::Impl& impl, const ContextHooks& hooks, bool debugUtilsEnabled) {
    impl.allocator = hooks.allocationCallbacks;
    impl.pipelineCache = hooks.pipelineCache;
    impl.memoryBudget = hooks.memoryBudget;
    if (debugUtilsEnabled && impl.vk.vkSetDebugUtilsObjectNameEXT) impl.objectNamePrefix = hooks.objectNamePrefix;
}

void loadProperties(Context::Impl& impl) {
    impl.vk.vkGetPhysicalDeviceProperties(impl.physicalDevice, &impl.properties);
    impl.vk.vkGetPhysicalDeviceMemoryProperties(impl.physicalDevice, &impl.memory);
    uint32_t count = 0;
    impl.vk.vkGetPhysicalDeviceQueueFamilyProperties(impl.physicalDevice, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    impl.vk.vkGetPhysicalDeviceQueueFamilyProperties(impl.physicalDevice, &count, families.data());
    if (impl.queueFamily >= count)
        throw Error("queue family " + std::to_string(impl.queueFamily) + " does not exist on " +
                    impl.properties.deviceName + " (it has " + std::to_string(count) + ")");
    impl.queueFlags = families[impl.queueFamily].queueFlags;
    impl.timestampBits = families[impl.queueFamily].timestampValidBits;
}

void warn(const std::string& text) { std::fprintf(stderr, "sculptflow: warning: %s\n", text.c_str()); }

// The cache kept in hooks.pipelineCacheFile, where the renderer gave none.
void openPipelineCacheFile(Context::Impl& impl, const ContextHooks& hooks) {
    if (hooks.pipelineCache || hooks.pipelineCacheFile.empty()) return;
    impl.cacheFile = hooks.pipelineCacheFile;
    PipelineCacheFile file = readPipelineCacheFile(impl.cacheFile, impl.properties);
    if (!file.warning.empty()) warn(file.warning);
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    info.initialDataSize = file.data.size();
    info.pInitialData = file.data.data();
    if (impl.vk.vkCreatePipelineCache(impl.device, &info, impl.allocator, &impl.ownedCache) != VK_SUCCESS) {
        warn("the driver refused pipeline cache " + impl.cacheFile.string() + "; starting with an empty cache");
        info.initialDataSize = 0;
        SF_VK_CHECK(impl.vk.vkCreatePipelineCache(impl.device, &info, impl.allocator, &impl.ownedCache));
    }
    impl.pipelineCache = impl.ownedCache;
}

void closePipelineCache(Context::Impl& impl) {
    if (impl.ownedCache) impl.vk.vkDestroyPipelineCache(impl.device, impl.ownedCache, impl.allocator);
    impl.ownedCache = impl.pipelineCache = VK_NULL_HANDLE;
}

// Leaks are reported while the device is destroyed: too late to throw.
void destroyOwned(Context::Impl& impl) {
    const VulkanFunctions& vk = impl.vk;
    closePipelineCache(impl);
    if (impl.device) {
        // Through the instance when a bad vkGetDeviceProcAddr left the table without it.
        auto destroyDevice = vk.vkDestroyDevice ? vk.vkDestroyDevice
                                                : reinterpret_cast<PFN_vkDestroyDevice>(
                                                      vk.vkGetDeviceProcAddr(impl.device, "vkDestroyDevice"));
        if (destroyDevice) destroyDevice(impl.device, impl.allocator);
    }
    {
        std::lock_guard lock(impl.messagesMutex);
        for (const std::string& m : impl.messages) {
            std::fprintf(stderr, "sculptflow: Vulkan validation: %s\n", m.c_str());
            ++gLateValidationMessages;
        }
        impl.messages.clear();
    }
    if (impl.messenger) vk.vkDestroyDebugUtilsMessengerEXT(impl.instance, impl.messenger, impl.allocator);
    if (impl.instance) vk.vkDestroyInstance(impl.instance, impl.allocator);
    impl.device = VK_NULL_HANDLE;
    impl.messenger = VK_NULL_HANDLE;
    impl.instance = VK_NULL_HANDLE;
}

void createHeadless(Context::Impl& impl, const ContextOptions& options) {
    const VulkanFunctions& vk = impl.vk;
    const bool validation = options.validation || envFlag("SCULPTFLOW_VALIDATION");
    if (validation && !hasInstanceLayer(vk, kValidationLayer))
        throw Error(std::string("validation requested but ") + kValidationLayer +
                    " is not installed (Debian: vulkan-validationlayers)");
    const bool debugUtils = validation || (!options.hooks.objectNamePrefix.empty() &&
                                           hasInstanceExtension(vk, nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
    impl.allocator = options.hooks.allocationCallbacks; // instance creation uses them already

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "sculptflow";
    app.apiVersion = VK_API_VERSION_1_2;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo = validationMessengerInfo(&onMessage, &impl);
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (debugUtils) {
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &extension;
    }
    if (validation) {
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &kValidationLayer;
        info.pNext = &messengerInfo; // also covers instance creation and destruction
    }
    VkResult created = vk.vkCreateInstance(&info, impl.allocator, &impl.instance);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); "
                    "install a GPU driver or Mesa's lavapipe (mesa-vulkan-drivers)");
    SF_VK_CHECK(created);
    loadInstanceFunctions(impl.vk, impl.instance);
    takeHooks(impl, options.hooks, debugUtils);
    if (validation)
        SF_VK_CHECK(vk.vkCreateDebugUtilsMessengerEXT(impl.instance, &messengerInfo, impl.allocator, &impl.messenger));

    uint32_t count = 0;
    SF_VK_CHECK(vk.vkEnumeratePhysicalDevices(impl.instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    SF_VK_CHECK(vk.vkEnumeratePhysicalDevices(impl.instance, &count, devices.data()));
    const char* selector = std::getenv("SCULPTFLOW_DEVICE");
    impl.physicalDevice = chooseDevice(vk, devices, selector && *selector ? selector : options.device);
    impl.queueFamily = *computeQueueFamily(vk, impl.physicalDevice);
    loadProperties(impl);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = impl.queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    SF_VK_CHECK(vk.vkCreateDevice(impl.physicalDevice, &deviceInfo, impl.allocator, &impl.device));
    loadDeviceFunctions(impl.vk, impl.device, options.loader.getDeviceProcAddr);
    vk.vkGetDeviceQueue(impl.device, impl.queueFamily, 0, &impl.queue);
    openPipelineCacheFile(impl, options.hooks);
}

void adopt(Context::Impl& impl, const AdoptedDevice& adopted) {
    if (!adopted.instance || !adopted.physicalDevice || !adopted.device || !adopted.queue)
        throw Error("adopting a device: instance, physicalDevice, device and queue must all be given");
    if (adopted.apiVersion < VK_API_VERSION_1_2)
        throw Error("adopting a device: the instance's API version is " + versionText(adopted.apiVersion) +
                    "; sculptflow needs Vulkan 1.2");
    impl.adopted = true;
    impl.instance = adopted.instance;
    impl.physicalDevice = adopted.physicalDevice;
    impl.device = adopted.device;
    impl.queueFamily = adopted.queueFamily;
    impl.queue = adopted.queue;
    loadInstanceFunctions(impl.vk, impl.instance);
    takeHooks(impl, adopted.hooks, true); // the loader returns no name function where the renderer did not enable it
    loadProperties(impl);
    if (!(impl.queueFlags & VK_QUEUE_COMPUTE_BIT))
        throw Error("adopting a device: queue family " + std::to_string(impl.queueFamily) + " of " +
                    impl.properties.deviceName + " has no compute support");
    if (impl.properties.apiVersion < VK_API_VERSION_1_2)
        throw Error(std::string("adopting a device: ") + impl.properties.deviceName + " supports Vulkan " +
                    versionText(impl.properties.apiVersion) + "; sculptflow needs 1.2");
    loadDeviceFunctions(impl.vk, impl.device, adopted.loader.getDeviceProcAddr);
    openPipelineCacheFile(impl, adopted.hooks);
}

} // namespace

Context::Context(const ContextOptions& options) : impl_(std::make_unique<Impl>()) {
    loadGlobalFunctions(impl_->vk, entryPoint(*impl_, options.loader));
    try {
        createHeadless(*impl_, options);
    } catch (...) {
        destroyOwned(*impl_);
        throw;
    }
}

Context::Context(const AdoptedDevice& adopted) : impl_(std::make_unique<Impl>()) {
    impl_->vk.vkGetInstanceProcAddr = entryPoint(*impl_, adopted.loader); // no global commands needed
    adopt(*impl_, adopted);
}

Context::~Context() {
    savePipelineCache();
    if (impl_->adopted) {
        closePipelineCache(*impl_); // the renderer's objects are never ours to destroy
    } else {
        destroyOwned(*impl_);
    }
}

bool Context::savePipelineCache() {
    Impl& impl = *impl_;
    if (!impl.ownedCache) return false;
    size_t bytes = 0;
    std::vector<uint8_t> data;
    VkResult result = impl.vk.vkGetPipelineCacheData(impl.device, impl.ownedCache, &bytes, nullptr);
    if (result == VK_SUCCESS) {
        data.resize(bytes);
        result = impl.vk.vkGetPipelineCacheData(impl.device, impl.ownedCache, &bytes, data.data());
        data.resize(bytes);
    }
    std::string warning = result == VK_SUCCESS ? writePipelineCacheFile(impl.cacheFile, data)
                                               : "pipeline cache data unavailable (" +
                                                     std::string(vkResultName(result)) + ")";
    if (!warning.empty()) warn(warning);
    return warning.empty();
}

VkInstance Context::instance() const { return impl_->instance; }
VkPhysicalDevice Context::physicalDevice() const { return impl_->physicalDevice; }
VkDevice Context::device() const { return impl_->device; }
uint32_t Context::queueFamily() const { return impl_->queueFamily; }
VkQueue Context::queue() const { return impl_->queue; }
VkQueueFlags Context::queueFlags() const { return impl_->queueFlags; }
const VkPhysicalDeviceProperties& Context::properties() const { return impl_->properties; }
std::string Context::deviceName() const { return impl_->properties.deviceName; }
bool Context::validationEnabled() const { return impl_->messenger != VK_NULL_HANDLE; }
bool Context::adopted() const { return impl_->adopted; }
uint64_t Context::allocatedMemory() const { return impl_->allocated; }
int Context::lateValidationMessages() { return gLateValidationMessages.load(); }

void Context::throwOnValidationMessages() {
    std::vector<std::string> messages;
    {
        std::lock_guard lock(impl_->messagesMutex);
        messages.swap(impl_->messages);
    }
    if (messages.empty()) return;
    std::string text = "Vulkan validation reported " + std::to_string(messages.size()) + " message(s):";
    for (const std::string& m : messages) text += "\n  " + m;
    throw Error(text);
}

uint32_t Context::Impl::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred) const {
    std::optional<uint32_t> fallback;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if (!(typeBits & (1u << i)) || (flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (!fallback) fallback = i;
    }
    if (!fallback) throw Error("no Vulkan memory type with the required properties");
    return *fallback;
}

void Context::Impl::reserveMemory(uint64_t bytes, const char* what) {
    uint64_t before = allocated.fetch_add(bytes);
    if (memoryBudget != 0 && before + bytes > memoryBudget) {
        allocated -= bytes;
        throw Error(std::string("GPU memory budget exceeded allocating ") + what + ": " + std::to_string(bytes) +
                    " bytes requested, " + std::to_string(before) + " in use, budget " +
                    std::to_string(memoryBudget));
    }
}

void Context::Impl::setObjectName(VkObjectType type, uint64_t handle, const char* text) const {
    if (objectNamePrefix.empty() || !handle) return;
    std::string full = objectNamePrefix + text;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = full.c_str();
    vk.vkSetDebugUtilsObjectNameEXT(device, &info); // returns VK_SUCCESS or out-of-memory: names are best effort
}

} // namespace sculptflow
