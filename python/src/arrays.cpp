// NumPy arrays in and out without copies (checked inputs borrowed, results
// moved into capsules), and the per-vertex flag constants of the statistics.
#include "bindings.hpp"

#include <cmath>

#include <sculptflow/error.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/solve_report.hpp>

static_assert(sizeof(glm::vec3) == 3 * sizeof(float) && sizeof(glm::dvec3) == 3 * sizeof(double));

namespace sculptflow::python {

namespace {

constexpr const char* kBufferCapsuleName = "sculptflow.buffer";

std::string shapeText(const py::array& a) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
    return text + (a.ndim() == 1 ? ",)" : ")");
}

// The argument as a NumPy array, without converting it: a wrong type, dtype or
// layout is the caller's to fix, so nothing is copied silently.
template <typename T>
py::array checkedArray(const py::handle& object, const char* name, const char* expected, bool contiguous = true) {
    if (!py::isinstance<py::array>(object))
        throw Error(std::string(name) + ": expected a NumPy array (" + expected + "); got " +
                    std::string(py::str(py::type::of(object).attr("__name__"))));
    py::array a = py::reinterpret_borrow<py::array>(object);
    const py::dtype want = py::dtype::of<T>();
    if (!a.dtype().is(want)) {
        const std::string wanted = py::str(want.attr("name"));
        throw Error(std::string(name) + ": expected dtype " + wanted + " (" + expected + "); got " +
                    std::string(py::str(a.dtype())) + " (convert with .astype(numpy." + wanted + "))");
    }
    if (contiguous && !(a.flags() & py::array::c_style))
        throw Error(std::string(name) + ": expected a C-contiguous array (numpy.ascontiguousarray)");
    if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_))
        throw Error(std::string(name) + ": expected an aligned array (numpy.require(a, requirements='A'))");
    return a;
}

template <typename Vec>
std::span<const Vec> checkedRows(const py::array& a, const char* name) {
    if (a.ndim() != 2 || a.shape(1) != 3)
        throw Error(std::string(name) + ": expected shape (N, 3); got " + shapeText(a));
    const size_t count = size_t(a.shape(0));
    std::span<const Vec> rows(static_cast<const Vec*>(a.data()), count);
    for (size_t i = 0; i < count; ++i)
        for (int c = 0; c < 3; ++c)
            if (!std::isfinite(rows[i][c]))
                throw Error(std::string(name) + ": vertex " + std::to_string(i) + " is not finite (" +
                            std::to_string(rows[i][c]) + ")");
    return rows;
}

} // namespace

BorrowedPositions borrowPositions(const py::handle& object, const char* name) {
    py::array a = checkedArray<float>(object, name, "float32, shape (N, 3)");
    const std::span<const glm::vec3> rows = checkedRows<glm::vec3>(a, name);
    return {std::move(a), rows};
}

BorrowedTruth borrowTruth(const py::handle& object, const char* name) {
    py::array a = checkedArray<double>(object, name, "float64, shape (N, 3)");
    const std::span<const glm::dvec3> rows = checkedRows<glm::dvec3>(a, name);
    return {std::move(a), rows};
}

std::vector<uint32_t> uint32Values(const py::handle& object, size_t count, const char* name) {
    py::array a = checkedArray<uint32_t>(object, name, "uint32, shape (N,)", false);
    if (a.ndim() != 1 || size_t(a.shape(0)) != count)
        throw Error(std::string(name) + ": expected shape (" + std::to_string(count) + ",); got " + shapeText(a));
    const auto view = py::reinterpret_borrow<py::array_t<uint32_t>>(a).unchecked<1>(); // any stride
    std::vector<uint32_t> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = view(py::ssize_t(i));
    return values;
}

BorrowedMask borrowMask(const py::handle& object, size_t vertexCount, const char* name) {
    py::array a = checkedArray<float>(object, name, "float32, shape (N,)");
    if (a.ndim() != 1) throw Error(std::string(name) + ": expected shape (N,); got " + shapeText(a));
    std::span<const float> mask(static_cast<const float*>(a.data()), size_t(a.shape(0)));
    validateMask(mask, vertexCount, name);
    return {std::move(a), mask};
}

namespace {

// A capsule that owns `vector` (moved to the heap) and whose pointer is its data,
// so that Python can see which buffer an array reads (PyCapsule_GetPointer).
template <typename Element> py::capsule capsuleOwning(std::vector<Element>&& vector) {
    using Vector = std::vector<Element>;
    auto* owned = new Vector(std::move(vector));
    void* pointer = owned->empty() ? static_cast<void*>(owned) : static_cast<void*>(owned->data());
    PyObject* capsule = PyCapsule_New(pointer, kBufferCapsuleName, [](PyObject* self) {
        delete static_cast<Vector*>(PyCapsule_GetContext(self));
    });
    if (!capsule) {
        delete owned;
        throw py::error_already_set();
    }
    PyCapsule_SetContext(capsule, owned); // cannot fail on a valid capsule
    return py::reinterpret_steal<py::capsule>(capsule);
}

template <typename T, typename Element>
py::array_t<T> owningArray(std::vector<Element>&& values, std::vector<py::ssize_t> shape) {
    static_assert(sizeof(Element) % sizeof(T) == 0);
    const T* data = reinterpret_cast<const T*>(values.data());
    if (values.empty()) return py::array_t<T>(shape); // NumPy's own empty array
    py::capsule owner = capsuleOwning(std::move(values));
    return py::array_t<T>(std::move(shape), data, owner);
}

template <typename T> py::array_t<T> readOnly(py::array_t<T> array) {
    array.attr("setflags")(py::arg("write") = false);
    return array;
}

} // namespace

py::array_t<float> arrayFromPositions(std::vector<glm::vec3>&& positions) {
    const py::ssize_t n = py::ssize_t(positions.size());
    return owningArray<float>(std::move(positions), {n, 3});
}

py::array_t<double> arrayFromPositions(std::vector<glm::dvec3>&& positions) {
    const py::ssize_t n = py::ssize_t(positions.size());
    return owningArray<double>(std::move(positions), {n, 3});
}

py::array_t<float> arrayFromVector(std::vector<float>&& values) {
    const py::ssize_t n = py::ssize_t(values.size());
    return owningArray<float>(std::move(values), {n});
}

py::array_t<double> arrayFromVector(std::vector<double>&& values) {
    const py::ssize_t n = py::ssize_t(values.size());
    return owningArray<double>(std::move(values), {n});
}

py::array_t<float> viewOfPositions(std::span<const glm::vec3> values, const py::object& owner) {
    return readOnly(py::array_t<float>({py::ssize_t(values.size()), py::ssize_t(3)},
                                       reinterpret_cast<const float*>(values.data()), owner));
}

py::array_t<uint32_t> viewOfVector(std::span<const uint32_t> values, const py::object& owner) {
    return readOnly(py::array_t<uint32_t>({py::ssize_t(values.size())}, values.data(), owner));
}

py::array_t<float> viewOfVector(std::span<const float> values, const py::object& owner) {
    return readOnly(py::array_t<float>({py::ssize_t(values.size())}, values.data(), owner));
}

py::dict statisticsArrays(std::vector<VertexStatistics>&& statistics) {
    static_assert(sizeof(VertexStatistics) == 4 * sizeof(uint32_t));
    const py::ssize_t n = py::ssize_t(statistics.size());
    const auto* base = reinterpret_cast<const uint32_t*>(statistics.data());
    py::dict d;
    const char* names[] = {"flags", "accepted", "rejected", "evaluations"};
    if (statistics.empty()) {
        for (const char* key : names) d[key] = py::array_t<uint32_t>(0);
        return d;
    }
    py::capsule owner = capsuleOwning(std::move(statistics));
    // Field k of every vertex: a view strided by the struct's size, offset k words.
    for (int k = 0; k < 4; ++k)
        d[names[k]] = py::array_t<uint32_t>({n}, {py::ssize_t(sizeof(VertexStatistics))}, base + k, owner);
    return d;
}

void registerArrays(py::module_& m) {
    // The bits of the statistics' "flags" array (VertexStatistics::flags).
    m.attr("FLAG_MIN_STEP_CLAMPED") = uint32_t(kVertexMinStepClamped);
    m.attr("FLAG_ITERATION_CAP") = uint32_t(kVertexIterationCap);
    m.attr("FLAG_NON_FINITE") = uint32_t(kVertexNonFinite);
    m.attr("FLAG_CULLED") = uint32_t(kVertexCulled);
    m.attr("FLAG_FOLDED") = uint32_t(kVertexFolded);
    m.attr("FLAG_UNVERIFIED") = uint32_t(kVertexUnverified);
    // The tests' way to see that inputs are read in place, not copied.
    m.def(
        "_borrowed_address",
        [](const py::handle& positions) {
            return reinterpret_cast<uintptr_t>(borrowPositions(positions, "positions").positions.data());
        },
        py::arg("positions"),
        "For tests: the address deform() and ground_truth() read `positions` from (its own data: no copy).");
}

} // namespace sculptflow::python
