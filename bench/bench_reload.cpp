// Time from saving a shader edit to having the new results: the hot-reload loop
// a solver tuner lives in (built-in case, 10,242 vertices).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/hot_reload.hpp>
#include "host/shader_compiler.hpp"
#include "gpu_bench_main.hpp"

namespace sculptflow {
namespace {

std::filesystem::path exportShaders() {
    auto dir = std::filesystem::temp_directory_path() / ("sculptflow-bench-reload-" + std::to_string(::getpid()));
    for (const auto& [path, text] : embeddedShaderSources()) {
        std::filesystem::create_directories((dir / path).parent_path());
        std::ofstream(dir / path, std::ios::binary) << text;
    }
    return dir;
}

// Each save changes the code (a new constant), so no driver cache can answer it.
void save(const std::filesystem::path& controller, const std::string& original, int edit) {
    std::string text = original;
    const std::string from = "settings.safety * pow(";
    text.replace(text.find(from), from.size(),
                 "settings.safety * (1.0f + " + std::to_string(edit) + ".0e-7f) * pow(");
    std::ofstream(controller, std::ios::binary | std::ios::trunc) << text;
}

void BM_SaveToResults(benchmark::State& state) {
    Context context(ContextOptions{.validation = false});
    GpuSolver solver(context);
    const std::filesystem::path dir = exportShaders();
    const std::filesystem::path controller = dir / "sculptflow/controller.glsl";
    const std::string original = embeddedShaderSources().at("sculptflow/controller.glsl");
    Stroke stroke = defaultStroke();
    Move move = moveToolMotion(stroke);
    std::vector<glm::vec3> start;
    for (const glm::vec3& p : defaultMesh(stroke).positions) start.push_back(p / float(stroke.voxelSize));
    GpuMesh mesh(context, start);
    ShaderReloader reloader(solver, dir);
    solver.run(mesh, move, SolverOptions{}, true);

    int edit = 0;
    double compileMs = 0.0;
    for (auto _ : state) {
        save(controller, original, ++edit);
        auto begin = std::chrono::steady_clock::now();
        ReloadReport report = reloader.poll();
        if (report.status != ReloadReport::Status::Reloaded) state.SkipWithError("the edit did not reload");
        GpuRun run = solver.run(mesh, move, SolverOptions{}, true);
        benchmark::DoNotOptimize(run.report.evaluations);
        auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        state.SetIterationTime(seconds);
        compileMs += report.compileMilliseconds;
    }
    state.counters["glslang+pipeline ms"] = compileMs / double(edit);
    std::filesystem::remove_all(dir);
}
BENCHMARK(BM_SaveToResults)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    using namespace sculptflow;
    return runGpuBenchmarks(
        argc, argv, [] { return Context(ContextOptions{.validation = false}).deviceName(); }, [] {});
}
