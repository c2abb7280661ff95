// sculptflow.ground_truth: the library's independent double-precision solution.
#include "bindings.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <thread>

#include <pybind11/stl.h>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include "src/ground_truth.hpp"

namespace sculptflow::python {

namespace {

// A vertex's path depends on its own start only: blocks of vertices go to threads.
template <typename Point>
GroundTruth threadedTruth(const Move& move, std::span<const Point> start, const GroundTruthOptions& options) {
    const size_t n = start.size();
    const size_t blocks = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(n / 512, 1));
    std::vector<GroundTruth> parts(blocks);
    std::vector<std::exception_ptr> errors(blocks);
    {
        std::vector<std::jthread> workers;
        for (size_t b = 0; b < blocks; ++b)
            workers.emplace_back([&, b] {
                const size_t begin = n * b / blocks, end = n * (b + 1) / blocks;
                try {
                    parts[b] = groundTruth(move, start.subspan(begin, end - begin), options);
                } catch (...) {
                    errors[b] = std::current_exception();
                }
            });
    }
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    GroundTruth all;
    for (GroundTruth& part : parts) {
        all.positions.insert(all.positions.end(), part.positions.begin(), part.positions.end());
        all.errorEstimate.insert(all.errorEstimate.end(), part.errorEstimate.begin(), part.errorEstimate.end());
        all.converged.insert(all.converged.end(), part.converged.begin(), part.converged.end());
    }
    return all;
}

py::object groundTruthOf(const py::handle& positions, const Stroke& stroke, double tol,
                         std::optional<double> voxelSize, bool details, const std::optional<std::string>& symmetry,
                         const std::optional<std::array<double, 3>>& symmetryOrigin) {
    if (!(std::isfinite(tol) && tol > 0.0)) throw Error("tol " + std::to_string(tol) + ": expected a finite tolerance > 0");
    const Stroke used = strokeWithSymmetry(strokeWithVoxelSize(stroke, voxelSize), symmetry, symmetryOrigin);
    const Move move = moveToolMotion(used);
    const GroundTruthOptions options{.tolerance = tol};
    GroundTruth truth;
    // float64 starts let a truth be chained from its own output, with no float rounding between segments.
    const bool isArray = py::isinstance<py::array>(positions);
    const py::dtype dtype = isArray ? py::reinterpret_borrow<py::array>(positions).dtype() : py::dtype::of<float>();
    if (dtype.is(py::dtype::of<double>())) {
        const BorrowedTruth start = borrowTruth(positions, "positions");
        py::gil_scoped_release release;
        truth = threadedTruth(move, start.positions, options);
    } else {
        if (!dtype.is(py::dtype::of<float>()))
            throw Error("positions: expected dtype float32 or float64, shape (N, 3); got " + std::string(py::str(py::object(dtype))) +
                        " (convert with .astype(numpy.float64))");
        const BorrowedPositions start = borrowPositions(positions, "positions");
        py::gil_scoped_release release;
        truth = threadedTruth(move, start.positions, options);
    }
    py::array_t<double> out = arrayFromPositions(std::move(truth.positions));
    if (!details) return out;
    // std::vector<bool> packs bits: the one array that is copied.
    py::array_t<bool> converged(py::ssize_t(truth.converged.size()));
    std::copy(truth.converged.begin(), truth.converged.end(), converged.mutable_data());
    py::dict d;
    d["error_estimate"] = arrayFromVector(std::move(truth.errorEstimate));
    d["converged"] = converged;
    return py::make_tuple(out, d);
}

} // namespace

void registerTruth(py::module_& m) {
    m.def("ground_truth", &groundTruthOf, py::arg("positions"), py::arg("stroke"), py::kw_only(),
          py::arg("tol") = 1e-6, py::arg("voxel_size") = py::none(), py::arg("details") = false,
          py::arg("symmetry") = py::none(), py::arg("symmetry_origin") = py::none(),
          R"doc(The independent double-precision ground truth of the stroke's move (mode 'move').

positions: a float32, C-contiguous (N, 3) NumPy array IN VOXELS, as for deform() (read in place), or a float64
  one, such as an earlier ground_truth's output: a truth chained segment by segment then carries no float rounding.
tol: how close, in voxels, the converged result is to the limit (default 1e-6).
voxel_size: in place of the stroke's own, as for deform().
symmetry, symmetry_origin: mirror symmetry in place of the stroke's, as for deform().

Returns a new float64 (N, 3) array in voxels (owning the solver's buffer); with details=True, (positions, dict)
where the dict holds float64 'error_estimate' and bool 'converged' per vertex.
Vertices are solved on every core, with the GIL released. Raises ValueError for bad input.)doc");
}

} // namespace sculptflow::python
