// Context: a headless instance and device, or a renderer's adopted; device
// choice, entry points per Context, validation messages.
#include "context_impl.hpp"
#include "live_pipelines.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sculptflow/error.hpp>
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
        throw Error(ErrorCode::InitializationFailed,
                    selector.empty() ? "no Vulkan 1.2 device with a compute queue; devices:" + available
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
    impl.library.emplace(loader.library);
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

bool hasDeviceExtension(const VulkanFunctions& vk, VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    if (vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

void loadProperties(Context::Impl& impl) {
    impl.vk.vkGetPhysicalDeviceProperties(impl.physicalDevice, &impl.properties);
    impl.vk.vkGetPhysicalDeviceMemoryProperties(impl.physicalDevice, &impl.memory);
    impl.maxWorkgroupsPerDispatch = impl.properties.limits.maxComputeWorkGroupCount[0];
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    subgroup.pNext = &driver;
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup;
    impl.vk.vkGetPhysicalDeviceProperties2(impl.physicalDevice, &properties2);
    impl.subgroupSize = subgroup.subgroupSize;
    impl.driver = std::string(driver.driverName) + " " + driver.driverInfo;
    uint32_t count = 0;
    impl.vk.vkGetPhysicalDeviceQueueFamilyProperties(impl.physicalDevice, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    impl.vk.vkGetPhysicalDeviceQueueFamilyProperties(impl.physicalDevice, &count, families.data());
    if (impl.queueFamily >= count)
        throw Error("queue family " + std::to_string(impl.queueFamily) + " does not exist on " +
                    impl.properties.deviceName + " (it has " + std::to_string(count) + ")");
    impl.queueFamilyCount = count;
    impl.queueFlags = families[impl.queueFamily].queueFlags;
    impl.timestampBits = families[impl.queueFamily].timestampValidBits;
    impl.memoryBudgetQuery = hasDeviceExtension(impl.vk, impl.physicalDevice, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
}

// Mapped buffers cost nothing to fill or read, but on a discrete GPU without
// resizable BAR host-visible device-local memory is a 256 MB window, and
// host-visible memory elsewhere is system memory the GPU reads over PCIe. So
// Auto maps only where some host-visible type lives on a heap as large as the
// largest device-local heap: unified memory, resizable BAR, or a CPU device.
BufferPlacement resolvePlacement(const Context::Impl& impl, BufferPlacement asked) {
    if (asked != BufferPlacement::Auto) return asked;
    const VkPhysicalDeviceMemoryProperties& m = impl.memory;
    const VkDeviceSize deviceHeapSize = m.memoryHeaps[impl.deviceHeap()].size;
    const VkMemoryPropertyFlags mapped = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
        const VkMemoryType& type = m.memoryTypes[i];
        const bool deviceLocalHeap = m.memoryHeaps[type.heapIndex].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
        if ((type.propertyFlags & mapped) == mapped && (deviceLocalHeap || deviceHeapSize == 0) &&
            m.memoryHeaps[type.heapIndex].size >= deviceHeapSize)
            return BufferPlacement::Mapped;
    }
    return BufferPlacement::Staged;
}

// The cache kept in hooks.pipelineCacheFile, where the renderer gave none.
void openPipelineCacheFile(Context::Impl& impl, const ContextHooks& hooks) {
    if (hooks.pipelineCache || hooks.pipelineCacheFile.empty()) return;
    impl.cacheFile = hooks.pipelineCacheFile;
    PipelineCacheFile file = readPipelineCacheFile(impl.cacheFile, impl.properties);
    if (!file.warning.empty()) impl.log(LogLevel::Warning, file.warning);
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    info.initialDataSize = file.data.size();
    info.pInitialData = file.data.data();
    if (impl.vk.vkCreatePipelineCache(impl.device, &info, impl.allocator, &impl.ownedCache) != VK_SUCCESS) {
        impl.log(LogLevel::Warning,
                 "the driver refused pipeline cache " + impl.cacheFile.string() + "; starting with an empty cache");
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
            impl.log(LogLevel::Validation, m);
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
        throw Error(ErrorCode::InitializationFailed, std::string("validation requested but ") + kValidationLayer +
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
        throw Error(ErrorCode::InitializationFailed,
                    "no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); "
                    "install a GPU driver or Mesa's lavapipe (mesa-vulkan-drivers)",
                    VK_ERROR_INCOMPATIBLE_DRIVER);
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
    const char* budgetExtension = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
    if (impl.memoryBudgetQuery) {
        deviceInfo.enabledExtensionCount = 1;
        deviceInfo.ppEnabledExtensionNames = &budgetExtension;
    }
    SF_VK_CHECK(vk.vkCreateDevice(impl.physicalDevice, &deviceInfo, impl.allocator, &impl.device));
    loadDeviceFunctions(impl.vk, impl.device, options.loader.getDeviceProcAddr);
    vk.vkGetDeviceQueue(impl.device, impl.queueFamily, 0, &impl.queue);
    impl.placement = resolvePlacement(impl, options.hooks.bufferPlacement);
    openPipelineCacheFile(impl, options.hooks);
}

void adopt(Context::Impl& impl, const AdoptedDevice& adopted) {
    if (!adopted.instance || !adopted.physicalDevice || !adopted.device || !adopted.queue)
        throw Error("adopting a device: instance, physicalDevice, device and queue must all be given");
    if (adopted.apiVersion < VK_API_VERSION_1_2)
        throw Error(ErrorCode::Unsupported, "adopting a device: the instance's API version is " +
                                                versionText(adopted.apiVersion) + "; sculptflow needs Vulkan 1.2");
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
        throw Error(ErrorCode::Unsupported, "adopting a device: queue family " + std::to_string(impl.queueFamily) +
                                                " of " + impl.properties.deviceName + " has no compute support");
    if (impl.properties.apiVersion < VK_API_VERSION_1_2)
        throw Error(ErrorCode::Unsupported, std::string("adopting a device: ") + impl.properties.deviceName +
                                                " supports Vulkan " + versionText(impl.properties.apiVersion) +
                                                "; sculptflow needs 1.2");
    loadDeviceFunctions(impl.vk, impl.device, adopted.loader.getDeviceProcAddr, adopted.synchronization2);
    impl.synchronization2 = adopted.synchronization2;
    impl.placement = resolvePlacement(impl, adopted.hooks.bufferPlacement);
    openPipelineCacheFile(impl, adopted.hooks);
}

} // namespace

Context::Context(const ContextOptions& options) : impl_(std::make_unique<Impl>()) {
    impl_->owner = this;
    impl_->logCallback = options.hooks.log;
    loadGlobalFunctions(impl_->vk, entryPoint(*impl_, options.loader));
    try {
        createHeadless(*impl_, options);
    } catch (...) {
        destroyOwned(*impl_);
        throw;
    }
}

Context::Context(const AdoptedDevice& adopted) : impl_(std::make_unique<Impl>()) {
    impl_->owner = this;
    impl_->logCallback = adopted.hooks.log;
    impl_->vk.vkGetInstanceProcAddr = entryPoint(*impl_, adopted.loader); // no global commands needed
    adopt(*impl_, adopted);
}

Context::~Context() {
    savePipelineCache();
    impl_->livePipelines.reset(); // before the device goes
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
    if (!warning.empty()) impl.log(LogLevel::Warning, warning);
    return warning.empty();
}

VkInstance Context::instance() const { return impl_->instance; }
VkPhysicalDevice Context::physicalDevice() const { return impl_->physicalDevice; }
VkDevice Context::device() const { return impl_->device; }
uint32_t Context::queueFamily() const { return impl_->queueFamily; }
VkQueue Context::queue() const { return impl_->queue; }
VkQueueFlags Context::queueFlags() const { return impl_->queueFlags; }
bool Context::synchronization2() const { return impl_->synchronization2; }
const VkPhysicalDeviceProperties& Context::properties() const { return impl_->properties; }
std::string Context::deviceName() const { return impl_->properties.deviceName; }
std::string Context::driverName() const { return impl_->driver; }
bool Context::validationEnabled() const { return impl_->messenger != VK_NULL_HANDLE; }
bool Context::adopted() const { return impl_->adopted; }
uint64_t Context::allocatedMemory() const { return impl_->allocated; }
BufferPlacement Context::bufferPlacement() const { return impl_->placement; }
uint64_t Context::deviceHeapAvailable() const { return impl_->heapAvailable(impl_->deviceHeap()); }

const char* bufferPlacementName(BufferPlacement placement) {
    switch (placement) {
    case BufferPlacement::Auto: return "auto";
    case BufferPlacement::Mapped: return "mapped";
    case BufferPlacement::Staged: return "staged";
    }
    return "unknown";
}

void Context::Impl::log(LogLevel level, std::string_view text) const noexcept {
    try {
        if (logCallback) return logCallback(level, text);
        logToStderr(level, text);
    } catch (...) {
        // A callback that throws loses its message; the library's call goes on.
    }
}

int lateValidationMessages() { return gLateValidationMessages.load(); }

void Context::throwOnValidationMessages() {
    std::vector<std::string> messages;
    {
        std::lock_guard lock(impl_->messagesMutex);
        messages.swap(impl_->messages);
    }
    if (messages.empty()) return;
    std::string text = "Vulkan validation reported " + std::to_string(messages.size()) + " message(s):";
    for (const std::string& m : messages) text += "\n  " + m;
    throw Error(ErrorCode::Validation, text);
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
    if (!fallback) throw Error(ErrorCode::Unsupported, "no Vulkan memory type with the required properties");
    return *fallback;
}

void Context::Impl::reserveMemory(uint64_t bytes, const char* what) {
    uint64_t before = allocated.fetch_add(bytes);
    if (memoryBudget != 0 && before + bytes > memoryBudget) {
        allocated -= bytes;
        throw Error(ErrorCode::OutOfDeviceMemory, std::string("GPU memory budget exceeded allocating ") + what + ": " +
                                                      std::to_string(bytes) + " bytes requested, " +
                                                      std::to_string(before) + " in use, budget " +
                                                      std::to_string(memoryBudget));
    }
}

uint32_t Context::Impl::deviceHeap() const {
    uint32_t best = 0;
    VkDeviceSize bestSize = 0;
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
        if ((memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && memory.memoryHeaps[h].size > bestSize) {
            best = h;
            bestSize = memory.memoryHeaps[h].size;
        }
    }
    return best;
}

uint64_t Context::Impl::heapAvailable(uint32_t heap, uint64_t counted) const {
    const uint64_t held = allocated - counted;
    if (heapAvailableOverride) return *heapAvailableOverride > held ? *heapAvailableOverride - held : 0;
    if (memoryBudgetQuery) {
        VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
        VkPhysicalDeviceMemoryProperties2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
        query.pNext = &budget;
        vk.vkGetPhysicalDeviceMemoryProperties2(physicalDevice, &query);
        return budget.heapBudget[heap] > budget.heapUsage[heap] ? budget.heapBudget[heap] - budget.heapUsage[heap] : 0;
    }
    const uint64_t size = memory.memoryHeaps[heap].size;
    return size > held ? size - held : 0;
}

void Context::Impl::checkHeap(uint32_t type, uint64_t bytes, const char* what, uint64_t counted) const {
    const uint32_t heap = memory.memoryTypes[type].heapIndex;
    const uint64_t available = heapAvailable(heap, counted);
    if (bytes <= available) return;
    throw Error(ErrorCode::OutOfDeviceMemory,
                std::string("not enough GPU memory for ") + what + ": " + std::to_string(bytes) + " bytes needed, " +
                    std::to_string(available) + " available in memory heap " + std::to_string(heap) + " (" +
                    std::to_string(memory.memoryHeaps[heap].size) + " bytes" +
                    (memoryBudgetQuery ? ", VK_EXT_memory_budget)" : ")"));
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
