// Checked copies between NumPy arrays and the library's vectors, and the
// per-vertex flag constants that go with the statistics arrays.
#include "bindings.hpp"

#include <cmath>
#include <cstring>

#include "error.hpp"
#include "mesh.hpp"
#include "solve_report.hpp"

static_assert(sizeof(glm::vec3) == 3 * sizeof(float) && sizeof(glm::dvec3) == 3 * sizeof(double));

namespace sculptflow::python {

namespace {

std::string shapeText(const py::array& a) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
    return text + (a.ndim() == 1 ? ",)" : ")");
}

// The argument as a NumPy array, without converting it: a wrong type, dtype or
// layout is the caller's to fix, so nothing is copied silently.
py::array checkedArray(const py::handle& object, const char* name, const char* expected) {
    if (!py::isinstance<py::array>(object))
        throw Error(std::string(name) + ": expected a NumPy array (" + expected + "); got " +
                    std::string(py::str(py::type::of(object).attr("__name__"))));
    py::array a = py::reinterpret_borrow<py::array>(object);
    if (!a.dtype().is(py::dtype::of<float>()))
        throw Error(std::string(name) + ": expected dtype float32 (" + expected + "); got " +
                    std::string(py::str(a.dtype())) + " (convert with .astype(numpy.float32))");
    if (!(a.flags() & py::array::c_style))
        throw Error(std::string(name) + ": expected a C-contiguous array (numpy.ascontiguousarray)");
    return a;
}

} // namespace

std::vector<glm::vec3> positionsFromArray(const py::handle& object, const char* name) {
    py::array a = checkedArray(object, name, "float32, shape (N, 3)");
    if (a.ndim() != 2 || a.shape(1) != 3)
        throw Error(std::string(name) + ": expected shape (N, 3); got " + shapeText(a));
    const size_t count = size_t(a.shape(0));
    std::vector<glm::vec3> positions(count);
    if (count) std::memcpy(positions.data(), a.data(), count * sizeof(glm::vec3));
    for (size_t i = 0; i < count; ++i)
        for (int c = 0; c < 3; ++c)
            if (!std::isfinite(positions[i][c]))
                throw Error(std::string(name) + ": vertex " + std::to_string(i) + " is not finite (" +
                            std::to_string(positions[i][c]) + ")");
    return positions;
}

std::vector<float> maskFromArray(const py::handle& object, size_t vertexCount, const char* name) {
    py::array a = checkedArray(object, name, "float32, shape (N,)");
    if (a.ndim() != 1) throw Error(std::string(name) + ": expected shape (N,); got " + shapeText(a));
    std::vector<float> mask(size_t(a.shape(0)));
    if (!mask.empty()) std::memcpy(mask.data(), a.data(), mask.size() * sizeof(float));
    validateMask(mask, vertexCount, name);
    return mask;
}

py::array_t<float> arrayFromPositions(std::span<const glm::vec3> positions) {
    py::array_t<float> out({py::ssize_t(positions.size()), py::ssize_t(3)});
    if (!positions.empty()) std::memcpy(out.mutable_data(), positions.data(), positions.size_bytes());
    return out;
}

py::array_t<double> arrayFromPositions(std::span<const glm::dvec3> positions) {
    py::array_t<double> out({py::ssize_t(positions.size()), py::ssize_t(3)});
    if (!positions.empty()) std::memcpy(out.mutable_data(), positions.data(), positions.size_bytes());
    return out;
}

void registerArrays(py::module_& m) {
    // The bits of the statistics' "flags" array (VertexStatistics::flags).
    m.attr("FLAG_MIN_STEP_CLAMPED") = uint32_t(kVertexMinStepClamped);
    m.attr("FLAG_ITERATION_CAP") = uint32_t(kVertexIterationCap);
    m.attr("FLAG_NON_FINITE") = uint32_t(kVertexNonFinite);
    m.attr("FLAG_CULLED") = uint32_t(kVertexCulled);
    m.attr("FLAG_FOLDED") = uint32_t(kVertexFolded);
    m.attr("FLAG_UNVERIFIED") = uint32_t(kVertexUnverified);
}

} // namespace sculptflow::python
