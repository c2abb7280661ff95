// sculptflow.compare: a result against the ground truth and the CPU reference,
// with the library's comparisons that `sculptflow validate` reports.
#include "bindings.hpp"

#include <sculptflow/error.hpp>
#include "src/result_comparison.hpp"

namespace sculptflow::python {

namespace {

struct Result {
    BorrowedPositions positions;
    std::vector<VertexStatistics> statistics;
};

// A deform() result: its positions, or the (positions, statistics) pair. Without
// statistics every vertex counts as unflagged and integrated.
Result resultOf(const py::handle& object, const char* name) {
    py::handle positions = object, statistics;
    if (py::isinstance<py::tuple>(object)) {
        const auto pair = py::reinterpret_borrow<py::tuple>(object);
        if (pair.size() != 2 || !py::isinstance<py::dict>(pair[1]))
            throw Error(std::string(name) + ": expected positions or deform()'s (positions, statistics)");
        positions = pair[0];
        statistics = pair[1];
    }
    Result r{borrowPositions(positions, name), {}};
    const size_t n = r.positions.positions.size();
    r.statistics.assign(n, VertexStatistics{.evaluations = 1});
    if (statistics) {
        const auto d = py::reinterpret_borrow<py::dict>(statistics);
        for (const char* key : {"flags", "evaluations"})
            if (!d.contains(key)) throw Error(std::string(name) + ": its statistics lack '" + key + "'");
        const std::string label = std::string(name) + " statistics";
        const std::vector<uint32_t> flags = uint32Values(d["flags"], n, (label + "['flags']").c_str());
        const std::vector<uint32_t> evaluations =
            uint32Values(d["evaluations"], n, (label + "['evaluations']").c_str());
        for (size_t i = 0; i < n; ++i) r.statistics[i] = {.flags = flags[i], .evaluations = evaluations[i]};
    }
    return r;
}

py::dict compare(const py::handle& result, const py::handle& truth, const py::object& converged,
                 const py::object& reference) {
    const Result solved = resultOf(result, "result");
    py::handle truthPositions = truth, truthConverged = converged;
    if (py::isinstance<py::tuple>(truth)) { // ground_truth(details=True)'s pair
        const auto pair = py::reinterpret_borrow<py::tuple>(truth);
        if (pair.size() != 2 || !py::isinstance<py::dict>(pair[1]))
            throw Error("truth: expected ground_truth()'s positions or its (positions, details)");
        truthPositions = pair[0];
        if (converged.is_none()) truthConverged = py::reinterpret_borrow<py::dict>(pair[1])["converged"];
    }
    const BorrowedTruth exact = borrowTruth(truthPositions, "truth");
    const size_t n = solved.positions.positions.size();
    if (exact.positions.size() != n)
        throw Error("truth: " + std::to_string(exact.positions.size()) + " vertices; the result has " +
                    std::to_string(n));
    std::vector<bool> convergedFlags(n, true);
    if (truthConverged && !truthConverged.is_none()) {
        const auto flags = py::array_t<bool, py::array::forcecast>::ensure(truthConverged);
        if (!flags || flags.ndim() != 1 || size_t(flags.shape(0)) != n)
            throw Error("converged: expected a bool array of " + std::to_string(n) + " values");
        for (size_t i = 0; i < n; ++i) convergedFlags[i] = flags.at(py::ssize_t(i));
    }

    py::dict d;
    const TruthComparison t =
        compareWithTruth(solved.positions.positions, solved.statistics, exact.positions, convergedFlags);
    d["max_error"] = t.maxError;
    d["mean_error"] = t.meanError;
    d["compared"] = t.compared;
    d["flagged"] = t.flagged;
    d["not_converged"] = t.notConverged;
    d["integrated"] = t.integrated;
    d["in_reach"] = t.inReach;
    d["flagged_share"] = t.flaggedShare();
    if (!reference.is_none()) {
        const Result cpu = resultOf(reference, "reference");
        const ReferenceComparison r = compareWithReference(solved.positions.positions, solved.statistics,
                                                           cpu.positions.positions, cpu.statistics);
        d["reference_compared"] = r.compared;
        d["reference_max_difference"] = r.maxDifference;
        d["reference_p99_difference"] = r.p99Difference;
        d["flag_mismatches"] = r.flagMismatches;
        d["flag_agreement"] = r.flagAgreement;
    }
    return d;
}

} // namespace

void registerCompare(py::module_& m) {
    m.def("compare", &compare, py::arg("result"), py::arg("truth"), py::kw_only(), py::arg("converged") = py::none(),
          py::arg("reference") = py::none(),
          R"doc(Compares a solve's result with the ground truth (and the CPU reference), as `sculptflow validate` does.

result: deform()'s positions (float32 (N, 3), voxels), or its (positions, statistics)
    pair: then vertices flagged other than FLAG_CULLED are left out and counted, and
    'flagged_share' is their share of the vertices in reach. Without statistics every
    vertex is compared.
truth: ground_truth()'s float64 (N, 3) positions, or its (positions, details) pair,
    whose 'converged' leaves out the vertices it did not converge on.
converged: a bool (N,) array, in place of the details' (default: all converged).
reference: the CPU reference's deform() result, (positions, statistics), to compare
    the result with as validate compares the GPU with it.

Returns a dict: 'max_error', 'mean_error' (voxels, over the compared vertices),
'compared', 'flagged', 'not_converged', 'integrated', 'in_reach', 'flagged_share';
with reference also 'reference_max_difference', 'reference_p99_difference' (voxels,
nearest-rank 99th percentile over vertices unflagged on both), 'reference_compared',
'flag_mismatches', 'flag_agreement'. Raises ValueError for bad input.)doc");
}

} // namespace sculptflow::python
