// sculptflow.Context: a headless Vulkan context and its solver, kept between solves.
#include "bindings.hpp"

#include <cstdlib>

#include <sculptflow/error.hpp>
#include "host/gpu_solver_impl.hpp"
#include "host/impl_access.hpp"

namespace sculptflow::python {

std::shared_ptr<PyContext> createContext(bool validation, const std::string& device) {
    auto made = std::make_shared<PyContext>();
    ContextOptions options;
    options.validation = validation;
    options.device = device;
    {
        py::gil_scoped_release release; // creating a device takes a while
        try {
            made->context = std::make_unique<Context>(options);
            made->solver = std::make_unique<GpuSolver>(*made->context);
        } catch (const Error& e) {
            // A device choice that names no usable device is bad input (ValueError);
            // no device, no loader, no validation layer: RuntimeError.
            const char* env = std::getenv("SCULPTFLOW_DEVICE");
            const std::string selector = env && *env ? env : device;
            if (!selector.empty() && choiceMatchesNoDevice(selector)) throw;
            throw DeviceError(e.what());
        }
    }
    return made;
}

namespace {

void checkValidation(PyContext& self) {
    py::gil_scoped_release release;
    std::lock_guard lock(self.mutex);
    try {
        self.context->throwOnValidationMessages();
    } catch (const Error& e) {
        throw DeviceError(e.what());
    }
}

size_t pipelinesBuilt(PyContext& self) {
    py::gil_scoped_release release;
    std::lock_guard lock(self.mutex); // not while a solve may be building one
    return implOf(*self.solver).pipelines.buildCount();
}

} // namespace

void registerContext(py::module_& m) {
    py::class_<PyContext, std::shared_ptr<PyContext>>(
        m, "Context",
        "A headless Vulkan context and its GPU solver, kept between calls of deform(..., backend='gpu', "
        "context=...) so that pipelines are built once. One solve runs on a Context at a time (others "
        "wait); solves on different Contexts may run at once from different threads.")
        .def(py::init(&createContext), py::arg("validation") = false, py::arg("device") = "",
             "Creates a Vulkan device and compute queue. validation: Khronos validation, each message an "
             "error (SCULPTFLOW_VALIDATION=1 turns it on too). device: an index or a substring of its name "
             "('' picks a discrete GPU first; SCULPTFLOW_DEVICE overrides it; sculptflow.devices() lists "
             "them). Raises ValueError with the library's message when the choice names no usable device, "
             "RuntimeError when there is no Vulkan device.")
        .def_property_readonly(
            "device_name", [](const PyContext& self) { return self.context->deviceName(); }, "The device's name.")
        .def_property_readonly(
            "driver_name", [](const PyContext& self) { return self.context->driverName(); },
            "The driver's name and version.")
        .def_property_readonly(
            "validation_enabled", [](const PyContext& self) { return self.context->validationEnabled(); },
            "Whether the Khronos validation layer is on.")
        .def_property_readonly(
            "allocated_memory", [](const PyContext& self) { return self.context->allocatedMemory(); },
            "Bytes of device memory the library holds now.")
        .def_property_readonly("pipelines_built", &pipelinesBuilt,
                               "Compute pipelines this Context's solver has compiled so far. Each solver variant "
                               "(method, attempt budget, tool count and kinds, mask, statistics, verify) is built "
                               "once, by the first solve that needs it; later solves reuse it.")
        .def("check_validation", &checkValidation,
             "Raises RuntimeError listing what the validation layer reported since the last check, if "
             "anything, and clears the list.")
        .def("__repr__", [](const PyContext& self) {
            return "<sculptflow.Context: " + self.context->deviceName() +
                   (self.context->validationEnabled() ? ", validation" : "") + ">";
        });
}

} // namespace sculptflow::python
