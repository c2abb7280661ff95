// The module `sculptflow`: exception translation, then each topic's bindings.
#include "bindings.hpp"

#include <sculptflow/error.hpp>
#include <sculptflow/version.hpp>

namespace sculptflow::python {

PYBIND11_MODULE(sculptflow, m) {
    m.doc() = "sculptflow: deform a mesh through a sculpting stroke with the library's adaptive "
              "Runge-Kutta solver, on the CPU reference or a Vulkan GPU, and compare with its "
              "double-precision ground truth. Positions are NumPy float32 (N, 3) arrays in voxels "
              "(world units / Stroke.voxel_size). Bad input raises ValueError; device trouble "
              "raises RuntimeError.";
    // Registered last, tried first: the library's input errors are ValueError;
    // DeviceError falls through to pybind11's std::runtime_error → RuntimeError.
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const Error& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
    const Version v = version();
    m.attr("__version__") = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
    registerArrays(m);
    registerStrokes(m);
    registerStrokeBuilding(m);
    registerContext(m);
    registerDevices(m);
#if SCULPTFLOW_PYTHON_HOT_RELOAD
    registerShaderReloader(m);
#endif
    registerSolve(m);
    registerTruth(m);
    registerCompare(m);
}

} // namespace sculptflow::python
