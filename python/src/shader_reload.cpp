// sculptflow.ShaderReloader: edit the GLSL, reload it into a Context, re-solve, compare.
// Built where the library has hot reload (SCULPTFLOW_HOT_RELOAD, glslang).
#include "bindings.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <sculptflow/hot_reload.hpp>
#include "host/shader_compiler.hpp"

namespace sculptflow::python {

namespace {

// The library's reloader on one Context's solver. The Context's mutex is held
// across every compile and swap, so that no solve runs on half-swapped pipelines.
struct PyShaderReloader {
    std::shared_ptr<PyContext> context; // the reloader refers to its solver
    std::unique_ptr<ShaderReloader> reloader;
};

PyObject* gShaderError = nullptr; // sculptflow.ShaderError, a ValueError; lives as long as the process

// Raises sculptflow.ShaderError with the compiler's message and its diagnostics
// as (file, line, message) tuples.
[[noreturn]] void raiseShaderError(const ReloadReport& report) {
    py::list diagnostics;
    for (const ShaderDiagnostic& d : report.diagnostics)
        diagnostics.append(py::make_tuple(d.file.string(), d.line, d.message));
    py::object error = py::reinterpret_borrow<py::object>(gShaderError)(report.message);
    error.attr("diagnostics") = diagnostics;
    PyErr_SetObject(gShaderError, error.ptr());
    throw py::error_already_set();
}

std::shared_ptr<PyShaderReloader> createReloader(const std::shared_ptr<PyContext>& context,
                                                 const std::filesystem::path& directory,
                                                 const std::filesystem::path& entry, bool useInotify) {
    auto made = std::make_shared<PyShaderReloader>();
    made->context = context;
    ReloadReport report;
    {
        py::gil_scoped_release release;
        std::lock_guard lock(context->mutex);
        made->reloader = std::make_unique<ShaderReloader>(*context->solver, directory, entry, useInotify);
        report = made->reloader->lastReport();
    }
    if (report.status == ReloadReport::Status::Failed) raiseShaderError(report); // the solver kept its shaders
    return made;
}

template <ReloadReport (ShaderReloader::*check)()> bool reloadWith(PyShaderReloader& self) {
    ReloadReport report;
    {
        py::gil_scoped_release release;
        std::lock_guard lock(self.context->mutex);
        report = ((*self.reloader).*check)();
    }
    if (report.status == ReloadReport::Status::Failed) raiseShaderError(report);
    return report.status == ReloadReport::Status::Reloaded;
}

} // namespace

void registerShaderReloader(py::module_& m) {
    gShaderError = PyErr_NewExceptionWithDoc(
        "sculptflow.ShaderError",
        "A shader that did not compile or load (a ValueError). str() is the compiler's message; "
        "diagnostics lists (file, line, message) tuples. The Context kept the pipelines it had.",
        PyExc_ValueError, nullptr);
    if (!gShaderError) throw py::error_already_set();
    m.attr("ShaderError") = py::reinterpret_borrow<py::object>(gShaderError);

    m.def(
        "shader_sources", [] { return embeddedShaderSources(); },
        "The GLSL sources built into the library, as {path relative to the shader folder: text}: write them "
        "into a folder to edit and load with ShaderReloader (as `sculptflow shaders export DIR` does).");

    py::class_<PyShaderReloader, std::shared_ptr<PyShaderReloader>>(
        m, "ShaderReloader",
        "Compiles the solver's compute shader from a folder of GLSL (sculptflow.shader_sources() written out "
        "and edited) and puts it into a Context: later deform(..., backend='gpu', context=...) calls run it. "
        "A shader that does not compile raises ShaderError and the Context keeps the pipelines it had.")
        .def(py::init(&createReloader), py::arg("context"), py::arg("directory"),
             py::arg("entry") = "deform.comp", py::arg("use_inotify") = true,
             "Compiles directory/entry (its #includes resolve against the file, then the folder) and swaps it "
             "into context's solver. Raises ShaderError (a ValueError) with the compiler's message when it "
             "does not compile or load; the Context then keeps its shaders.")
        .def("poll", &reloadWith<&ShaderReloader::poll>,
             "Recompiles and swaps in when the entry or a file it includes changed since the last build: "
             "True when it did, False when nothing changed. Raises ShaderError when the changed source does "
             "not compile; the last good pipelines stay, and the next good save recovers.")
        .def("reload", &reloadWith<&ShaderReloader::reload>,
             "Recompiles and swaps in now, changed or not (True). Raises ShaderError as poll() does.")
        .def_property_readonly(
            "generation", [](const PyShaderReloader& self) { return self.reloader->generation(); },
            "How many builds have been swapped in (1 after construction).")
        .def_property_readonly(
            "sources", [](const PyShaderReloader& self) { return self.reloader->sources(); },
            "The entry and every file it included, as of the last good build.")
        .def_property_readonly(
            "compile_milliseconds",
            [](const PyShaderReloader& self) { return self.reloader->lastReport().compileMilliseconds; },
            "How long the last compile (and swap) took.")
        .def_property_readonly(
            "uses_inotify", [](const PyShaderReloader& self) { return self.reloader->usesInotify(); },
            "Whether poll() learns of changes from inotify rather than modification times.")
        .def_property_readonly(
            "context", [](const PyShaderReloader& self) { return self.context; }, "The Context it loads into.");
}

} // namespace sculptflow::python
