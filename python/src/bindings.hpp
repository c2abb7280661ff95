// What the module's sources share: each registers one topic on the module.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "context.hpp"
#include "gpu_solver.hpp"
#include "stroke.hpp"

namespace sculptflow::python {

namespace py = pybind11;

// Device trouble (no Vulkan device, a failed submission, a validation message):
// Python sees RuntimeError. The library's sculptflow::Error becomes ValueError.
struct DeviceError : std::runtime_error {
    explicit DeviceError(const std::string& message) : std::runtime_error(message) {}
};

// A GPU context kept between solves: the library's Context and one GpuSolver
// (its pipelines), used by one solve at a time.
struct PyContext {
    std::unique_ptr<Context> context;
    std::unique_ptr<GpuSolver> solver;
    std::mutex mutex; // held, without the GIL, for the length of a solve
};

// arrays.cpp: checked copies between NumPy arrays and the library's vectors.
// `name` names the argument in ValueError messages. Positions must be a float32,
// C-contiguous (N, 3) array of finite values; a mask a float32 (N,) array.
std::vector<glm::vec3> positionsFromArray(const py::handle& array, const char* name);
std::vector<float> maskFromArray(const py::handle& array, size_t vertexCount, const char* name);
py::array_t<float> arrayFromPositions(std::span<const glm::vec3> positions);
py::array_t<double> arrayFromPositions(std::span<const glm::dvec3> positions);
template <typename T> py::array_t<T> arrayFromVector(const std::vector<T>& values) {
    py::array_t<T> out(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

// context.cpp: a new Context (RuntimeError when there is no device).
std::shared_ptr<PyContext> createContext(bool validation, const std::string& device);

// strokes.cpp: `stroke`, with voxel_size in place of its own when given (> 0, finite).
Stroke strokeWithVoxelSize(const Stroke& stroke, const std::optional<double>& voxelSize);

void registerArrays(py::module_& m);
void registerStrokes(py::module_& m);
void registerContext(py::module_& m);
void registerSolve(py::module_& m);
void registerTruth(py::module_& m);

} // namespace sculptflow::python
