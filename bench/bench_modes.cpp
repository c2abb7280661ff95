// How sculptors apply the move, on the GPU (bs32, the built-in stroke, a ball of
// vertices around the tool's tip, GPU timestamps):
//   modes/move, modes/continuous: the whole stroke at once against its 47
//     segments in turn (counters: segments, ms_per_segment, evals over the stroke);
//   mask/none, mask/90pct-scattered, mask/90pct-slab, mask/all-zero: no mask against
//     one that freezes 90% of the vertices (at random, or all but a slab through the
//     tip) and one that freezes all (the runs' fixed cost);
//   symmetry/none, symmetry/xyz-corner: the tool against its 8 mirrored copies,
//     with the mirror planes' corner 6 radii from the tip, so that the copies reach
//     few of the ball's vertices.
// Quote ratios between rows of one run: the machine is shared.
#include <cmath>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/motion.hpp>
#include "src/demo_fixtures.hpp"
#include "gpu_bench_main.hpp"

namespace sculptflow {
namespace {

constexpr size_t kVertices = 100'000;

GpuSolver& gpuSolver() {
    static Context context(ContextOptions{.validation = false});
    static GpuSolver solver(context);
    return solver;
}

const Stroke& stroke() {
    static const Stroke builtin = defaultStroke();
    return builtin;
}

const std::vector<glm::vec3>& ball() {
    static const std::vector<glm::vec3> points = ballAroundTip(moveToolMotion(stroke()).tools.front(), kVertices);
    return points;
}

// Times `run` (which returns GPU milliseconds) per iteration; skips without timestamps.
template <class Run>
void timeGpu(benchmark::State& state, Run&& run) {
    for (auto _ : state) {
        const double ms = run();
        if (std::isnan(ms)) {
            state.SkipWithError("the device has no compute timestamps");
            return;
        }
        state.SetIterationTime(ms * 1e-3);
    }
    state.counters["verts_per_s"] = benchmark::Counter(double(kVertices), benchmark::Counter::kIsIterationInvariantRate);
}

void moveMode(benchmark::State& state, MoveMode mode) {
    GpuSolver& solver = gpuSolver();
    GpuMesh mesh(solver.context(), ball());
    const SolverOptions options;
    const Move move = moveToolMotion(stroke());
    const std::vector<Move> segments = continuousMotions(stroke());
    const bool continuous = mode == MoveMode::Continuous;
    const GpuRun warm = continuous ? solver.runContinuous(mesh, segments, options) : solver.run(mesh, move, options);
    timeGpu(state, [&] {
        return continuous ? solver.runContinuous(mesh, segments, options, false).gpuMilliseconds
                          : solver.run(mesh, move, options, false).gpuMilliseconds;
    });
    state.counters["evals"] = warm.report.meanEvaluations();
    if (continuous) {
        state.counters["segments"] = double(segments.size());
        state.counters["ms_per_segment"] =
            benchmark::Counter(double(segments.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                            benchmark::Counter::kInvert);
    }
}

enum class MaskKind { None, Scattered, Slab, AllZero };

std::vector<float> ninetyPercentZero(MaskKind kind) {
    std::vector<float> mask;
    if (kind == MaskKind::None) return mask;
    const ToolMotion tool = moveToolMotion(stroke()).tools.front();
    const glm::vec3 tip(tool.origin);
    const glm::vec3 along = glm::normalize(glm::vec3(tool.translation));
    for (size_t i = 0; i < kVertices; ++i) {
        bool free = false;
        if (kind == MaskKind::AllZero) {
            free = false;
        } else if (kind == MaskKind::Scattered) {
            free = (i * 2654435761u >> 7) % 10 == 0; // a hash: one vertex in ten
        } else {
            // Points are uniform in a ball of 2 radii: a central slab of ±0.135 radii
            // along the stroke holds about a tenth of them.
            free = std::abs(glm::dot(ball()[i] - tip, along)) < 0.135f * float(tool.outerRadius);
        }
        mask.push_back(free ? 1.0f : 0.0f);
    }
    return mask;
}

void masked(benchmark::State& state, MaskKind kind) {
    GpuSolver& solver = gpuSolver();
    const std::vector<float> mask = ninetyPercentZero(kind);
    GpuMesh mesh(solver.context(), ball(), mask);
    const SolverOptions options;
    const Move move = moveToolMotion(stroke());
    const SolveReport warm = solver.run(mesh, move, options).report;
    solver.run(mesh, move, options, false);
    timeGpu(state, [&] { return solver.run(mesh, move, options, false).gpuMilliseconds; });
    state.counters["evals"] = warm.meanEvaluations();
    state.counters["integrated"] = double(warm.vertices - warm.culled) / double(warm.vertices);
}

void mirrored(benchmark::State& state, uint32_t axes) {
    GpuSolver& solver = gpuSolver();
    Stroke mirroredStroke = stroke();
    const ToolMotion tool = moveToolMotion(stroke()).tools.front();
    mirroredStroke.symmetry = {axes, (tool.origin - glm::dvec3(6.0 * tool.outerRadius)) * stroke().voxelSize};
    const Move move = moveToolMotion(mirroredStroke);
    GpuMesh mesh(solver.context(), ball());
    const SolverOptions options;
    const SolveReport warm = solver.run(mesh, move, options).report;
    solver.run(mesh, move, options, false);
    timeGpu(state, [&] { return solver.run(mesh, move, options, false).gpuMilliseconds; });
    state.counters["tools"] = double(move.tools.size());
    state.counters["evals"] = warm.meanEvaluations();
}

void registerAll() {
    auto add = [](benchmark::internal::Benchmark* b) { b->UseManualTime()->Unit(benchmark::kMillisecond); };
    add(benchmark::RegisterBenchmark("modes/move", moveMode, MoveMode::Move));
    add(benchmark::RegisterBenchmark("modes/continuous", moveMode, MoveMode::Continuous));
    add(benchmark::RegisterBenchmark("mask/none", masked, MaskKind::None));
    add(benchmark::RegisterBenchmark("mask/90pct-scattered", masked, MaskKind::Scattered));
    add(benchmark::RegisterBenchmark("mask/90pct-slab", masked, MaskKind::Slab));
    add(benchmark::RegisterBenchmark("mask/all-zero", masked, MaskKind::AllZero));
    add(benchmark::RegisterBenchmark("symmetry/none", mirrored, 0u));
    add(benchmark::RegisterBenchmark("symmetry/xyz-corner", mirrored, kSymmetryX | kSymmetryY | kSymmetryZ));
}

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    return sculptflow::runGpuBenchmarks(
        argc, argv, [] { return sculptflow::gpuSolver().context().deviceName(); }, sculptflow::registerAll);
}
