// Solver throughput for `sculptflow bench`: the workloads (a ball around the
// tool tip, fully or partly within the tool's reach), one measurement of one
// method on one backend (GPU, CPU reference on one thread or on all), and the
// FLOP count and device peak that turn a time into an achieved FLOP rate.
//
// Every measurement is a BenchRecord; `sculptflow bench --json` writes them as
// an array of records and the charts read the same records back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/solver_options.hpp>
#include "src/ground_truth.hpp"
#include "gpu_timing.hpp"
#include "svg_chart.hpp"

namespace sculptflow::cli {

enum class Backend { Gpu, CpuOne, CpuAll };
std::string_view backendName(Backend backend); // "gpu", "cpu1", "cpuN"

// FLOPs of one right-hand-side evaluation v(x, s) of one tool, counted by hand
// from shaders/sculptflow/field.glsl, field_common.glsl and kinds/*.glsl as
// written: every add, subtract, multiply, divide, sqrt and inversesqrt counts 1
// (so a fused multiply-add counts 2, as device peaks count it); negation,
// loads, compares and a multiply by a literal 1 count 0. Only what v needs is
// counted: the radial coefficients' slopes, written beside them for the
// Jacobian, are dropped by the compiler where v alone is used.
//   every tool: toolOffset (x − p_A) − s·d 9, velocity()'s v += 3          = 12
//   a Kelvinlet, any profile: dot(R, R) 5, kelvinletFromCoefficients 40
//     (A·f 3, (B·dot(R, f))·R 9, (κ·G)·R 4, a·(F × R) 12, the bracket's − 3,
//     φ·[…] 3, the two adds 6), plus its coefficients:                    = 45 +
//     bi-scale: ε², t₁, the weight 3; biScaleDifferences 26 (u₀, u₁ 2,
//       two inversesqrt 2, d 5, x², y², x + y 3, x³, y³ 2, H₂ 2, H₄ 3,
//       d·H₂, d·H₄ 2, t₀h₁ + y³ 2, t₀h₂ + y³y² 3); the weighted sum 11      = 40
//     tri-scale: ε², t₁, t₂, the weight 5; scaleDifferences 58 (three sqrt
//       with their adds 6, three inverses 3, d₀₁ d₁₂ d₀₂ 9, d₀₁₂ 11, the
//       complete homogeneous sums up to degree 4: 15, h₁ h₂ 8, th₁ th₂ 6);
//       the weighted sum 11                                                = 74
//     Laplacian: ε², 1/u, q, q², u^-3/2, u^-5/2 8; A 8, B 5, φ 2          = 23
//     bi-Laplacian: the same 8 and u^-7/2 1; A 8, B 3, φ 4                 = 24
//   an affine tool: affineVelocity (cross 9, λ·R 3, two adds 6)            = 18
//   an affine flow: |R| 6; the falloff's u 4 and profile (smooth 4,
//     smoother 7, linear 0, sharp 1); affineVelocity 18, w·u 3             = 31 + profile
// So a bi-scale Kelvinlet costs 97, tri-scale 131, Laplacian 80,
// bi-Laplacian 81; an affine tool 30; an affine flow 47 / 50 / 43 / 44
// (smooth / smoother / linear / sharp). tsit5's stages add R + δ (3 a tool).
// The steppers' own arithmetic (stage combinations, the error norm, the
// controller, the bound's Jacobian once a step) and the culling test are not
// counted, so the achieved rate is a lower bound.
double flopsPerEvaluation(const ToolMotion& tool);

// FLOPs of one evaluation of the move's field: the sum over its tools (exact for
// one tool; an upper bound once affine tools have ended for a vertex).
double flopsPerEvaluation(const Move& move);

// Every tool shape's count, by name ("kelvinlet bi-scale", "affine", "affine-flow
// smooth", ...): what `sculptflow bench` prints and writes as flops_per_eval.
std::vector<std::pair<std::string, double>> flopsPerEvaluationByShape();

// A device's FP32 peak, in GFLOP/s (NaN when unknown), and where it came from.
struct PeakFlops {
    double gflops = 0.0;
    std::string source;
};

// The peak of a Vulkan device by name: for lavapipe ("llvmpipe (LLVM …, 256
// bits)") threads × lanes (the bits / 32) × 2 (FMA) × clock, with threads from
// LP_NUM_THREADS or `cpuThreads`; for the NVIDIA parts of the README's table
// their datasheet FP32 figure (H100 SXM 67, H100 PCIe 51, H100 NVL 60, H200 67,
// H200 NVL 60 TFLOP/s); otherwise NaN with a note to pass --peak-gflops.
PeakFlops devicePeakFlops(const std::string& deviceName, unsigned cpuThreads, double clockGhz);

// Where the active vertices of a partly active workload sit in the vertex order.
enum class Layout {
    Scattered, // at random positions among the others (a point cloud with no order): SIMD lanes diverge
    Clustered, // first, one block (a mesh whose touched region is contiguous in memory)
};
std::string_view layoutName(Layout layout); // "scattered", "clustered"

// A benchmark mesh. Active vertices are the first ones of ballAroundTip (points
// uniform in a ball of 2 outer radii around the first tool's tip at pose A,
// seed 12345), so a partly active workload contains exactly the vertices of the
// fully active one of its active count.
struct Workload {
    std::string name;                // "ball", "ball 5% active, scattered"
    std::vector<glm::vec3> vertices; // voxels
    size_t activeVertices = 0;       // those from the ball
    // probes[k] is the index of ball point k (k < probes.size()): the vertices
    // whose ground truth TruthProbes holds.
    std::vector<uint32_t> probes;
};

// The ball: `count` vertices, all within reach; the first `probeCount` are probes.
Workload ballWorkload(const Move& move, size_t count, size_t probeCount);

// The built-in mesh's sphere (an icosphere of kDefaultSphereRadius outer radii
// around the first tool's tip at pose A, voxels), subdivided until it has `count`
// vertices, whose first `count` it keeps in the order they were made: like any
// mesh, neighbouring vertices lie close together and need similar work, where
// the ball's random order is the worst case for lanes that wait on each other.
// The first `probeCount` are probes (they span the coarse levels, so the whole sphere).
Workload sphereWorkload(const Move& move, size_t count, size_t probeCount);

// `count` vertices of which round(activeFraction × count) are the ball's first
// points and the rest lie in a shell around the tool's path, each one checked to
// be culled by the kernel's outOfReach at every tolerance in `cullTolerances`
// (the kernel's internal ones, voxels). Deterministic.
Workload partlyActiveWorkload(const Move& move, size_t count, double activeFraction, Layout layout,
                              size_t probeCount, const std::vector<double>& cullTolerances);

// The kernel's internal tolerance on `move` for each method at options.tolerance:
// partlyActiveWorkload's cullTolerances, so that its culled vertices are culled by all.
std::vector<double> everyMethodsInternalTolerance(const Move& move, const SolverOptions& options);

// The double ground truth of the probes: the ball's first `count` points, or the
// given ones (a workload's vertices at its probe indices, in order).
struct TruthProbes {
    GroundTruth truth;
    size_t count = 0;
    double seconds = 0.0;
};
TruthProbes computeTruthProbes(const Move& move, size_t count);
TruthProbes computeTruthProbes(const Move& move, const std::vector<glm::vec3>& points);

// One measurement: one method, one backend, one workload. NaN is written as null.
struct BenchRecord {
    std::string suite;    // the table that asked first: "methods", "scaling", "key", "work_precision"
    std::string stroke;   // "built-in" or the stroke's path, with the kind
    std::string workload; // Workload::name, or "sweep" for the work-precision points
    Method method = Method::Bs32;
    double tolerance = 0.1; // voxels (rk4: the culling tolerance only)
    int fixedSteps = 0;     // rk4: steps per segment; 0 for the adaptive methods
    Backend backend = Backend::Gpu;
    std::string device;
    unsigned threads = 1; // CPU threads (the GPU: 0)
    size_t vertices = 0;
    double active = 0.0;  // (vertices − culled) / vertices, from the solver's report
    int runs = 0;         // timed runs; the best is kept
    double seconds = 0.0; // best run: GPU timestamps around the dispatches, or CPU wall clock
    double vertsPerSecond = 0.0;
    double evalsMean = 0.0;    // evaluations per vertex, the solver's report (culled vertices count 0)
    uint64_t evaluations = 0;  // in all
    size_t flagged = 0;        // vertices ending MIN_STEP_CLAMPED, ITERATION_CAP or NON_FINITE
    double maxErrVox = 0.0;    // max |x − truth| over the unflagged probes; NaN when not computed
    size_t errProbes = 0;      // probes compared
    double flopsPerEval = 0.0; // flopsPerEvaluation(move)
    double gflops = 0.0;       // flopsPerEval × evaluations / seconds / 1e9
    double peakGflops = 0.0;   // GPU records: the device's peak; NaN otherwise or unknown
    double gpuStatisticsMs = 0.0; // GPU: the statistics run's time (not one of the timed runs); NaN for CPU
    std::optional<GpuTiming> gpuTiming; // GPU: batches, clocks and warm-up behind `seconds`
};

nlohmann::json recordJson(const BenchRecord& record);

// What a measurement needs besides the workload.
struct MeasureContext {
    const Move* move = nullptr;
    std::string stroke;               // BenchRecord::stroke
    const TruthProbes* probes = nullptr; // null: max_err_vox is null
    std::string gpuDevice;
    double gpuPeakGflops = 0.0;       // NaN when unknown
    std::string cpuDevice;            // the CPU's model name
    unsigned allThreads = 1;          // the cpuN backend's threads
};

// Runs the CPU reference `runs` times (best wall clock kept) with `threads`
// threads; the first run gives the report and the error against the probes.
BenchRecord measureCpu(const MeasureContext& context, const Workload& workload, const SolverOptions& options,
                       Backend backend, int runs);

// One GPU run with statistics (the report, the flags and the positions compared
// with the probes), then the runs without statistics that `timing` asks for
// (gpu_timing.hpp), the best batch kept. `mesh` holds the workload's vertices.
// The pipeline variant without statistics should have been built (one run on
// any mesh) before, so that no timed run includes the driver's compile.
BenchRecord measureGpu(const MeasureContext& context, const Workload& workload, GpuSolver& solver, GpuMesh& mesh,
                       const SolverOptions& options, GpuClock& clock, const GpuTimingOptions& timing);

// A table of records: method, backend, workload, vertices, active, Mverts/s,
// evals/vertex, GFLOP/s (% of peak for the GPU), max error and time.
std::string recordsTable(const std::vector<BenchRecord>& records);

// Vertices per second against vertices, one series per backend and workload,
// from the records of `sculptflow bench --json` whose verts_per_s is a number:
// those of `method` ("bs32") and `stroke`, outside the work-precision sweep;
// a series measured at fewer than two sizes is left out.
LogLogChart scalingChart(const nlohmann::json& records, const std::string& method, const std::string& stroke,
                         const std::string& title);

} // namespace sculptflow::cli
