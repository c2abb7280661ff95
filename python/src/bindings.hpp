// What the module's sources share: each registers one topic on the module.
#pragma once

#include <array>
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

#include <sculptflow/context.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/solve_report.hpp>
#include <sculptflow/stroke.hpp>

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

// arrays.cpp: NumPy arrays in and out without copies. `name` names the argument
// in ValueError messages. Positions must be a float32, C-contiguous, aligned
// (N, 3) array of finite values; a mask a float32 (N,) array of values in [0, 1].
// The borrowed span reads the caller's memory: `array` keeps it alive, and the
// owner must be held (with the GIL) until the span's last use.
struct BorrowedPositions {
    py::object array;
    std::span<const glm::vec3> positions;
};
struct BorrowedMask {
    py::object array;
    std::span<const float> values;
};
struct BorrowedTruth {
    py::object array;
    std::span<const glm::dvec3> positions;
};
BorrowedPositions borrowPositions(const py::handle& array, const char* name);
// The same for a float64 (N, 3) array (a ground truth).
BorrowedTruth borrowTruth(const py::handle& array, const char* name);
// A uint32 (count,) array of any stride (the statistics' views), copied out.
std::vector<uint32_t> uint32Values(const py::handle& array, size_t count, const char* name);
BorrowedMask borrowMask(const py::handle& array, size_t vertexCount, const char* name);
// The vector moves into a capsule that the returned array owns: no copy.
py::array_t<float> arrayFromPositions(std::vector<glm::vec3>&& positions);
py::array_t<double> arrayFromPositions(std::vector<glm::dvec3>&& positions);
py::array_t<float> arrayFromVector(std::vector<float>&& values);
py::array_t<double> arrayFromVector(std::vector<double>&& values);
// Read-only views of `values`, which `owner` (a Python object) keeps alive.
py::array_t<float> viewOfPositions(std::span<const glm::vec3> values, const py::object& owner);
py::array_t<uint32_t> viewOfVector(std::span<const uint32_t> values, const py::object& owner);
py::array_t<float> viewOfVector(std::span<const float> values, const py::object& owner);
// Four uint32 arrays, 'flags', 'accepted', 'rejected', 'evaluations', strided views
// of one buffer that the statistics vector moves into.
py::dict statisticsArrays(std::vector<VertexStatistics>&& statistics);

// context.cpp: a new Context (RuntimeError when there is no device).
std::shared_ptr<PyContext> createContext(bool validation, const std::string& device);

// devices.cpp: whether the devices could be listed and `selector` (an index or a
// substring of a name) picks none of the usable ones.
bool choiceMatchesNoDevice(const std::string& selector);

// strokes.cpp: `stroke`, with voxel_size in place of its own when given (> 0, finite).
Stroke strokeWithVoxelSize(const Stroke& stroke, const std::optional<double>& voxelSize);
// stroke_build.cpp: `stroke` with other mirror symmetry: axes '' or 'none' (none), 'x', 'xz', ...;
// origin (world units) needs axes. Neither given: the stroke's own.
Stroke strokeWithSymmetry(const Stroke& stroke, const std::optional<std::string>& symmetry,
                          const std::optional<std::array<double, 3>>& origin);

void registerArrays(py::module_& m);
void registerStrokes(py::module_& m);
void registerStrokeBuilding(py::module_& m); // after registerStrokes
void registerContext(py::module_& m);
void registerDevices(py::module_& m);
void registerShaderReloader(py::module_& m); // where the library has hot reload
void registerSolve(py::module_& m);
void registerTruth(py::module_& m);
void registerCompare(py::module_& m);

} // namespace sculptflow::python
