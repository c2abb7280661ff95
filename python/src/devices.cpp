// sculptflow.devices(): the Vulkan devices a Context may be given, as the library sees them.
#include "bindings.hpp"

#include <pybind11/stl.h>

#include <sculptflow/error.hpp>
#include "host/vulkan_check.hpp"
#include "host/vulkan_functions.hpp"

namespace sculptflow::python {

namespace {

struct DeviceInfo {
    int index = 0; // what Context(device=...) takes, as does SCULPTFLOW_DEVICE
    std::string name;
    std::string type;
    std::string apiVersion;
    bool usable = false; // Vulkan 1.2 and a compute queue: a Context may run on it
};

std::string typeName(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

bool hasComputeQueue(const VulkanFunctions& vk, VkPhysicalDevice device) {
    uint32_t count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (const VkQueueFamilyProperties& family : families)
        if (family.queueFlags & VK_QUEUE_COMPUTE_BIT) return true;
    return false;
}

// The same enumeration Context makes (the platform's loader, a 1.2 instance, no
// layers), in the same order, so that an index here is an index there.
std::vector<DeviceInfo> listDevices() {
    LoaderLibrary loader(nullptr);
    VulkanFunctions vk;
    loadGlobalFunctions(vk, loader.getInstanceProcAddr());
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "sculptflow";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult created = vk.vkCreateInstance(&info, nullptr, &instance);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER) return {}; // a loader but no driver: no devices
    SF_VK_CHECK(created);
    std::vector<DeviceInfo> list;
    try {
        loadInstanceFunctions(vk, instance);
        uint32_t count = 0;
        SF_VK_CHECK(vk.vkEnumeratePhysicalDevices(instance, &count, nullptr));
        std::vector<VkPhysicalDevice> devices(count);
        SF_VK_CHECK(vk.vkEnumeratePhysicalDevices(instance, &count, devices.data()));
        for (uint32_t i = 0; i < count; ++i) {
            VkPhysicalDeviceProperties p;
            vk.vkGetPhysicalDeviceProperties(devices[i], &p);
            list.push_back({int(i), p.deviceName, typeName(p.deviceType),
                            std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                                std::to_string(VK_API_VERSION_MINOR(p.apiVersion)),
                            p.apiVersion >= VK_API_VERSION_1_2 && hasComputeQueue(vk, devices[i])});
        }
    } catch (...) {
        vk.vkDestroyInstance(instance, nullptr);
        throw;
    }
    vk.vkDestroyInstance(instance, nullptr);
    return list;
}

} // namespace

bool choiceMatchesNoDevice(const std::string& selector) {
    std::vector<DeviceInfo> listed;
    try {
        listed = listDevices();
    } catch (const Error&) {
        return false; // no loader: device trouble, whatever was chosen
    }
    for (const DeviceInfo& d : listed)
        if (d.usable && (selector == std::to_string(d.index) || d.name.find(selector) != std::string::npos))
            return false;
    return true;
}

void registerDevices(py::module_& m) {
    py::class_<DeviceInfo>(m, "Device", "A Vulkan device as sculptflow.devices() lists it.")
        .def_readonly("index", &DeviceInfo::index, "Its index: Context(device=str(index)) picks it.")
        .def_readonly("name", &DeviceInfo::name, "The driver's device name (a substring of it picks it too).")
        .def_readonly("type", &DeviceInfo::type, "'discrete', 'integrated', 'virtual', 'cpu' or 'other'.")
        .def_readonly("api_version", &DeviceInfo::apiVersion, "The Vulkan version it supports, e.g. '1.3'.")
        .def_readonly("usable", &DeviceInfo::usable,
                      "Whether a Context can run on it (Vulkan 1.2 and a compute queue).")
        .def("__repr__", [](const DeviceInfo& d) {
            return "<sculptflow.Device " + std::to_string(d.index) + ": " + d.name + " (" + d.type + ", Vulkan " +
                   d.apiVersion + (d.usable ? "" : ", not usable") + ")>";
        });
    m.def(
        "devices",
        [] {
            try {
                py::gil_scoped_release release; // loading drivers takes a while
                return listDevices();
            } catch (const Error& e) {
                throw DeviceError(e.what()); // no Vulkan loader
            }
        },
        "The Vulkan devices the library sees, in the order Context(device=...) indexes them: a list of "
        "sculptflow.Device (index, name, type, api_version, usable). Empty when there is a Vulkan loader but "
        "no driver; RuntimeError when there is no loader. Context() with no device picks the first usable "
        "one of the best type (discrete, integrated, virtual, cpu).");
}

} // namespace sculptflow::python
