// Headless Vulkan context creation through volk, device choice, validation messages.
#include "context.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "error.hpp"
#include "instance_support.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {
namespace {

std::atomic<int> gLateValidationMessages{0};

bool envFlag(const char* name) {
    const char* value = std::getenv(name);
    return value && std::strcmp(value, "0") != 0 && value[0] != '\0';
}

std::optional<uint32_t> computeQueueFamily(VkPhysicalDevice device) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
    return std::nullopt;
}

VkPhysicalDevice chooseDevice(const std::vector<VkPhysicalDevice>& devices, const std::string& selector) {
    std::string available;
    std::vector<VkPhysicalDevice> usable;
    for (size_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        available += "\n  " + std::to_string(i) + ": " + p.deviceName;
        bool matches = selector.empty() || selector == std::to_string(i) ||
                       std::string(p.deviceName).find(selector) != std::string::npos;
        if (matches && p.apiVersion >= VK_API_VERSION_1_2 && computeQueueFamily(devices[i]))
            usable.push_back(devices[i]);
    }
    if (usable.empty()) {
        throw Error(selector.empty()
                        ? "no Vulkan 1.2 device with a compute queue; devices:" + available
                        : "no Vulkan 1.2 compute device matches SCULPTFLOW_DEVICE='" + selector +
                              "'; devices:" + available);
    }
    return *std::min_element(usable.begin(), usable.end(), [](VkPhysicalDevice a, VkPhysicalDevice b) {
        VkPhysicalDeviceProperties pa, pb;
        vkGetPhysicalDeviceProperties(a, &pa);
        vkGetPhysicalDeviceProperties(b, &pb);
        return deviceTypeRank(pa.deviceType) < deviceTypeRank(pb.deviceType);
    });
}

} // namespace

Context::Context(const ContextOptions& options) : memoryBudget_(options.memoryBudget) {
    if (volkInitialize() != VK_SUCCESS)
        throw Error("no Vulkan loader found (libvulkan.so.1); install a Vulkan driver");
    const bool validation = options.validation || envFlag("SCULPTFLOW_VALIDATION");
    if (validation && !hasInstanceLayer(kValidationLayer))
        throw Error(std::string("validation requested but ") + kValidationLayer +
                    " is not installed (Debian: vulkan-validationlayers)");

    try {
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.pApplicationName = "sculptflow";
        app.apiVersion = VK_API_VERSION_1_2;
        VkDebugUtilsMessengerCreateInfoEXT messengerInfo = validationMessengerInfo(&Context::onMessage, this);
        const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        info.pApplicationInfo = &app;
        if (validation) {
            info.enabledLayerCount = 1;
            info.ppEnabledLayerNames = &kValidationLayer;
            info.enabledExtensionCount = 1;
            info.ppEnabledExtensionNames = &extension;
            info.pNext = &messengerInfo; // also covers instance creation and destruction
        }
        VkResult created = vkCreateInstance(&info, nullptr, &instance_);
        if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
            throw Error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); "
                        "install a GPU driver or Mesa's lavapipe (mesa-vulkan-drivers)");
        SF_VK_CHECK(created);
        // Device functions through the loader's dispatch, never volkLoadDevice's
        // direct pointers: those are global and would bind every Context (and a
        // renderer in the same process) to one device.
        volkLoadInstance(instance_);
        if (validation) SF_VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messengerInfo, nullptr, &messenger_));

        uint32_t count = 0;
        SF_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
        std::vector<VkPhysicalDevice> devices(count);
        SF_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));
        const char* selector = std::getenv("SCULPTFLOW_DEVICE");
        physicalDevice_ = chooseDevice(devices, selector && *selector ? selector : options.device);
        queueFamily_ = *computeQueueFamily(physicalDevice_);
        loadProperties();

        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queueInfo.queueFamilyIndex = queueFamily_;
        queueInfo.queueCount = 1;
        queueInfo.pQueuePriorities = &priority;
        VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        deviceInfo.queueCreateInfoCount = 1;
        deviceInfo.pQueueCreateInfos = &queueInfo;
        SF_VK_CHECK(vkCreateDevice(physicalDevice_, &deviceInfo, nullptr, &device_));
        vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    } catch (...) {
        destroy();
        throw;
    }
}

Context::Context(const AdoptedDevice& adopted, uint64_t memoryBudget)
    : instance_(adopted.instance),
      physicalDevice_(adopted.physicalDevice),
      device_(adopted.device),
      queueFamily_(adopted.queueFamily),
      queue_(adopted.queue),
      adopted_(true),
      memoryBudget_(memoryBudget) {
    if (!adopted.instance || !adopted.physicalDevice || !adopted.device || !adopted.queue)
        throw Error("adopting a device: instance, physicalDevice, device and queue must all be given");
    if (adopted.getInstanceProcAddr) {
        volkInitializeCustom(adopted.getInstanceProcAddr);
    } else if (volkInitialize() != VK_SUCCESS) {
        throw Error("no Vulkan loader found (libvulkan.so.1) to adopt the renderer's device with");
    }
    volkLoadInstance(instance_); // dispatch through the loader, as above
    loadProperties();
    if (!(queueFlags_ & VK_QUEUE_COMPUTE_BIT))
        throw Error("adopting a device: queue family " + std::to_string(queueFamily_) + " has no compute support");
    if (properties_.apiVersion < VK_API_VERSION_1_2)
        throw Error(std::string("adopting a device: ") + properties_.deviceName + " is older than Vulkan 1.2");
}

void Context::loadProperties() {
    vkGetPhysicalDeviceProperties(physicalDevice_, &properties_);
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &memory_);
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, families.data());
    if (queueFamily_ >= count)
        throw Error("queue family " + std::to_string(queueFamily_) + " does not exist on this device");
    queueFlags_ = families[queueFamily_].queueFlags;
}

Context::~Context() { destroy(); }

int Context::lateValidationMessages() { return gLateValidationMessages.load(); }

void Context::destroy() {
    if (adopted_) return; // the renderer's objects: never ours to destroy
    if (device_) vkDestroyDevice(device_, nullptr);
    // Leaks are reported while the device is destroyed: too late to throw.
    std::lock_guard lock(messagesMutex_);
    for (const std::string& m : messages_) {
        std::fprintf(stderr, "sculptflow: Vulkan validation: %s\n", m.c_str());
        ++gLateValidationMessages;
    }
    messages_.clear();
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
    device_ = VK_NULL_HANDLE;
    messenger_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
}

uint32_t Context::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                             VkMemoryPropertyFlags preferred) const {
    std::optional<uint32_t> fallback;
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
        if (!(typeBits & (1u << i)) || (flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (!fallback) fallback = i;
    }
    if (!fallback) throw Error("no Vulkan memory type with the required properties");
    return *fallback;
}

void Context::reserveMemory(uint64_t bytes, const char* what) {
    uint64_t before = allocated_.fetch_add(bytes);
    if (memoryBudget_ != 0 && before + bytes > memoryBudget_) {
        allocated_ -= bytes;
        throw Error(std::string("GPU memory budget exceeded allocating ") + what + ": " + std::to_string(bytes) +
                    " bytes requested, " + std::to_string(before) + " in use, budget " +
                    std::to_string(memoryBudget_));
    }
}

void Context::throwOnValidationMessages() {
    std::vector<std::string> messages;
    {
        std::lock_guard lock(messagesMutex_);
        messages.swap(messages_);
    }
    if (messages.empty()) return;
    std::string text = "Vulkan validation reported " + std::to_string(messages.size()) + " message(s):";
    for (const std::string& m : messages) text += "\n  " + m;
    throw Error(text);
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                 VkDebugUtilsMessageTypeFlagsEXT,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                 void* self) {
    auto* context = static_cast<Context*>(self);
    std::lock_guard lock(context->messagesMutex_);
    context->messages_.emplace_back(data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

} // namespace sculptflow
