// sculptflow.deform: one solve on the CPU reference or a Context's GPU.
#include "bindings.hpp"

#include <algorithm>

#include <pybind11/stl.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>

namespace sculptflow::python {

namespace {

// What one solve needs, checked while the GIL is held. The positions and the
// mask are the caller's arrays, read in place.
struct SolveInputs {
    MoveMode mode = MoveMode::Move;
    std::vector<Move> segments; // one in move mode, one a pose pair in continuous mode
    BorrowedPositions start;
    BorrowedMask mask;
    SolverOptions options;
};

// The solver options as the CLI picks them: rk4 takes `steps`, not the
// tolerance; an adaptive method's attempt budget is max_attempts or planned
// from the tolerance and the moves (plannedAttempts).
SolverOptions solveOptions(const std::string& method, double tolerance, std::optional<int> steps,
                           std::optional<int> maxAttempts, bool verify, std::span<const Move> segments) {
    const std::optional<Method> parsed = parseMethod(method);
    if (!parsed) throw Error("method '" + method + "': expected " + methodNameList());
    SolverOptions options;
    options.method = *parsed;
    options.tolerance = tolerance;
    options.verify = verify;
    validateSolverOptions(options); // the tolerance, before it plans anything
    if (options.method == Method::Rk4 && !steps)
        throw Error("method 'rk4' takes fixed steps without error control: give steps=N, or use an adaptive "
                    "method held to tol: " + methodNameList(true));
    if (options.method != Method::Rk4 && steps)
        throw Error("steps: fixed steps are for method 'rk4'; " + method + " chooses its own to meet tol");
    if (maxAttempts && *maxAttempts < 1)
        throw Error("max_attempts " + std::to_string(*maxAttempts) + ": expected at least 1");
    options.maxIterations = maxAttempts ? *maxAttempts : plannedAttempts(options, segments);
    if (steps) {
        if (*steps < 1 || *steps > 4096) throw Error("steps " + std::to_string(*steps) + ": expected 1 to 4096");
        options.fixedSteps = *steps;
        size_t tools = 1;
        for (const Move& move : segments) tools = std::max(tools, move.tools.size());
        options.maxIterations = int(std::min<long>(1L << 16, std::max<long>(options.maxIterations,
                                                                             long(*steps) * long(tools))));
    }
    validateSolverOptions(options);
    return options;
}

py::dict statisticsDict(std::vector<VertexStatistics>&& statistics, const SolveReport& report,
                        const SolverOptions& options) {
    // Per vertex over the whole run, as the CLI has it (report.maxEvaluations is one segment's).
    uint32_t maxEvaluations = 0;
    for (const VertexStatistics& st : statistics) maxEvaluations = std::max(maxEvaluations, st.evaluations);
    py::dict d = statisticsArrays(std::move(statistics));
    d["vertices"] = report.vertices;
    d["min_step_clamped"] = report.minStepClamped;
    d["iteration_cap"] = report.iterationCap;
    d["non_finite"] = report.nonFinite;
    d["culled"] = report.culled;
    d["folded"] = report.folded;
    d["unverified"] = report.unverified;
    d["accepted_steps"] = report.acceptedSteps;
    d["rejected_steps"] = report.rejectedSteps;
    d["total_evaluations"] = report.evaluations;
    d["max_evaluations"] = maxEvaluations;
    d["max_steps"] = report.maxSteps;
    d["mean_evaluations"] = report.meanEvaluations();
    d["max_attempts"] = options.maxIterations;
    return d;
}

struct Solved {
    std::vector<glm::vec3> positions;
    std::vector<VertexStatistics> statistics;
    SolveReport report;
    double gpuMilliseconds = 0.0;
};

Solved solveCpu(const SolveInputs& in, unsigned threads) {
    const std::span<const glm::vec3> start = in.start.positions;
    CpuSolution s = in.mode == MoveMode::Move
                        ? solveOnCpu(in.segments.front(), start, in.mask.values, in.options, threads)
                        : solveContinuousOnCpu(in.segments, start, in.mask.values, in.options, threads);
    return {std::move(s.positions), std::move(s.statistics), std::move(s.report), 0.0};
}

Solved solveGpu(PyContext& context, const SolveInputs& in, bool statistics) {
    if (in.start.positions.empty()) return {}; // nothing to upload
    std::lock_guard lock(context.mutex);
    try {
        GpuMesh mesh(*context.context, in.start.positions, in.mask.values);
        GpuRun run = in.mode == MoveMode::Move
                         ? context.solver->run(mesh, in.segments.front(), in.options, statistics)
                         : context.solver->runContinuous(mesh, in.segments, in.options, statistics);
        Solved solved{mesh.readPositions(), {}, run.report, run.gpuMilliseconds};
        if (statistics) solved.statistics = mesh.readStatistics();
        return solved;
    } catch (const Error& e) {
        // The inputs were checked before: what fails here is the device's (memory,
        // a lost device, a validation message).
        throw DeviceError(e.what());
    }
}

py::object deform(const py::handle& positions, const Stroke& stroke, const std::string& method, double tol,
                  const std::string& mode, const py::object& mask, const std::string& backend,
                  const std::optional<std::shared_ptr<PyContext>>& context, bool statistics,
                  std::optional<double> voxelSize, std::optional<int> steps, std::optional<int> maxAttempts,
                  bool verify, unsigned threads, const std::optional<std::string>& symmetry,
                  const std::optional<std::array<double, 3>>& symmetryOrigin) {
    SolveInputs in;
    if (backend != "cpu" && backend != "gpu") throw Error("backend '" + backend + "': expected 'cpu' or 'gpu'");
    if (context && backend != "gpu") throw Error("context: given for backend 'gpu' only");
    const std::optional<MoveMode> parsedMode = parseMoveMode(mode);
    if (!parsedMode) throw Error("mode '" + mode + "': expected 'move' or 'continuous'");
    in.mode = *parsedMode;
    in.start = borrowPositions(positions, "positions");
    if (!mask.is_none()) in.mask = borrowMask(mask, in.start.positions.size(), "mask");
    const Stroke used = strokeWithSymmetry(strokeWithVoxelSize(stroke, voxelSize), symmetry, symmetryOrigin);
    if (in.mode == MoveMode::Move) in.segments = {moveToolMotion(used)};
    else in.segments = continuousMotions(used);
    in.options = solveOptions(method, tol, steps, maxAttempts, verify, in.segments);

    Solved solved;
    if (backend == "cpu") {
        py::gil_scoped_release release;
        solved = solveCpu(in, threads);
    } else {
        std::shared_ptr<PyContext> gpu = context ? *context : createContext(false, "");
        py::gil_scoped_release release;
        solved = solveGpu(*gpu, in, statistics);
    }
    py::array_t<float> out = arrayFromPositions(std::move(solved.positions));
    if (!statistics) return out;
    py::dict d = statisticsDict(std::move(solved.statistics), solved.report, in.options);
    d["backend"] = backend;
    if (backend == "gpu") d["gpu_milliseconds"] = solved.gpuMilliseconds;
    return py::make_tuple(out, d);
}

} // namespace

void registerSolve(py::module_& m) {
    m.def("deform", &deform, py::arg("positions"), py::arg("stroke"), py::kw_only(), py::arg("method") = "bs32",
          py::arg("tol") = 0.1, py::arg("mode") = "move", py::arg("mask") = py::none(),
          py::arg("backend") = "cpu", py::arg("context") = py::none(), py::arg("statistics") = false,
          py::arg("voxel_size") = py::none(), py::arg("steps") = py::none(),
          py::arg("max_attempts") = py::none(), py::arg("verify") = false, py::arg("threads") = 0u,
          py::arg("symmetry") = py::none(), py::arg("symmetry_origin") = py::none(),
          R"doc(Deforms vertices through a stroke and returns their new positions.

positions: a float32, C-contiguous (N, 3) NumPy array IN VOXELS (world units divided
    by the stroke's voxel size: Stroke.to_voxels), as the C++ solvers take them. It is
    read in place (no copy), never written; do not write it from another thread meanwhile.
stroke: a sculptflow.Stroke; its poses are in world units, converted with its
    voxel_size, or with voxel_size when given.
method: 'bs32' (default), 'dp45', 'tsit5', 'rk4dbl', or 'rk4' with steps=N fixed steps.
tol: the error tolerance in voxels over the whole move (default 0.1).
mode: 'move' (each tool's first pose to its last) or 'continuous' (each pose pair in
    turn, each at tol / segments).
mask: None or a float32 (N,) array of values in [0, 1] scaling each displacement.
backend: 'cpu' (the reference, on every core or `threads`) or 'gpu' (Vulkan).
context: a sculptflow.Context to solve on (backend='gpu'); None makes one for this call.
statistics: also return a dict: per-vertex NumPy uint32 arrays 'flags' (FLAG_* bits),
    'accepted', 'rejected' and 'evaluations', and the report's totals.
max_attempts: the attempt budget per vertex; default planned from tol and the move.
verify: aim the error bound at tol/2 and check independently where it is over (1-1.8 times the work; FLAG_UNVERIFIED otherwise).
symmetry: mirror symmetry in place of the stroke's: 'x', 'xz', ... (each subset of the
    axes gives a reflected copy of every tool), or 'none' (or '') for none; None keeps
    the stroke's (Stroke.symmetry).
symmetry_origin: a point on every mirror plane, in world units, (x, y, z); needs symmetry.

Returns a new float32 (N, 3) array in voxels, or (positions, statistics) with
statistics=True; each owns the solver's buffer (no copy; the statistics arrays are
strided views of one buffer). The GIL is released while solving. Raises ValueError for bad input
(with the library's message), RuntimeError for device trouble.)doc");
}

} // namespace sculptflow::python
