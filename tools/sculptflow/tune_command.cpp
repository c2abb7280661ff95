// `sculptflow tune --watch`: validation re-run on every shader or parameter save,
// printing what changed. A typo never ends the session; Ctrl-C does.
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/hot_reload.hpp>
#include "src/ground_truth.hpp"
#include "host/file_watcher.hpp"
#include "commands.hpp"
#include "move_inputs.hpp"
#include "tuning_params.hpp"
#include "validation.hpp"

namespace sculptflow::cli {
namespace {

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int) { gInterrupted = true; }

struct TuneArgs {
    MoveInputArgs inputs;
    std::string method = "bs32";
    double tolerance = 0.1;
    std::optional<int> steps; // --method rk4's fixed steps
    bool watch = false;
    std::string shadersDir; // empty: the built-in shader
    std::string paramsPath;
};

// The figures a tuner follows from run to run.
struct TuneFigures {
    double maxError = 0.0;
    double meanEvaluations = 0.0;
    size_t clamped = 0;
    size_t capped = 0;
    double gpuMilliseconds = 0.0;
    double maxCpuDifference = 0.0;
    size_t compared = 0;       // unflagged vertices in reach compared with the truth: what the error covers
    double flaggedShare = 0.0; // of the vertices in reach
};

// As validate has it: an error over no vertices is no figure at all.
bool checked(const TuneFigures& f) { return f.compared >= ValidationThresholds{}.minCompared; }

std::string delta(double now, std::optional<double> before, const char* pattern) {
    if (!before) return "";
    char text[64];
    std::snprintf(text, sizeof text, pattern, now - *before);
    return std::string(" (") + text + ")";
}

void printFigures(const TuneFigures& f, const std::optional<TuneFigures>& last, const char* why) {
    auto was = [&](double TuneFigures::*field) -> std::optional<double> {
        return last ? std::optional<double>((*last).*field) : std::nullopt;
    };
    auto wasCount = [&](size_t TuneFigures::*field) -> std::optional<double> {
        return last ? std::optional<double>(double((*last).*field)) : std::nullopt;
    };
    if (!checked(f))
        std::printf("[%s] NOT CHECKED: 0 vertices compared with the truth (%zu capped, %zu clamped; the rest "
                    "culled) | ",
                    why, f.capped, f.clamped);
    else if (const double limit = ValidationThresholds{}.flaggedShare; f.flaggedShare > limit)
        std::printf("[%s] %zu compared (over %g %% of those in reach flagged) | ", why, f.compared, 100.0 * limit);
    else
        std::printf("[%s] %zu compared | ", why, f.compared);
    std::printf("max error vs truth %.4f voxel%s | evaluations/vertex %.1f%s | clamped %zu%s | "
                "capped %zu%s | GPU %.1f ms%s | max GPU-CPU %.4f voxel\n",
                f.maxError, delta(f.maxError, was(&TuneFigures::maxError), "%+.4f").c_str(),
                f.meanEvaluations, delta(f.meanEvaluations, was(&TuneFigures::meanEvaluations), "%+.1f").c_str(),
                f.clamped, delta(double(f.clamped), wasCount(&TuneFigures::clamped), "%+.0f").c_str(), f.capped,
                delta(double(f.capped), wasCount(&TuneFigures::capped), "%+.0f").c_str(), f.gpuMilliseconds,
                delta(f.gpuMilliseconds, was(&TuneFigures::gpuMilliseconds), "%+.1f").c_str(), f.maxCpuDifference);
    std::fflush(stdout);
}

// One run: GPU (the running shader) against the CPU reference and the cached truth.
TuneFigures runOnce(GpuSolver& solver, const MoveInputs& in, const GroundTruth& truth, const SolverOptions& options) {
    GpuSolution gpu = solveOnGpu(solver, in.move, in.voxels, options);
    CpuSolution cpu = solveOnCpu(in.move, in.voxels, options);
    ReferenceComparison reference = compareWithReference(gpu.positions, gpu.statistics, cpu.positions, cpu.statistics);
    TruthComparison exact = compareWithTruth(gpu.positions, gpu.statistics, truth.positions, truth.converged);
    return {exact.maxError, gpu.report.meanEvaluations(), gpu.report.minStepClamped, gpu.report.iterationCap,
            gpu.gpuMilliseconds, reference.maxDifference, exact.integrated, exact.flaggedShare()};
}

void runTune(const TuneArgs& args) {
    MoveInputs in = loadMoveInputs(args.inputs);
    // The params file may choose rk4 with its own fixed_steps, so --method rk4 may
    // come without --steps here; readTuningParams refuses rk4 with no step count.
    const bool stepsLater = args.method == "rk4" && !args.steps && !args.paramsPath.empty();
    SolverOptions options = methodOptions(stepsLater ? "bs32" : args.method, args.tolerance, args.steps, in);
    if (stepsLater) options.method = Method::Rk4;
    if (!args.paramsPath.empty()) options = readTuningParams(args.paramsPath, options, stepsLater);

    Context context(gpuContextOptions(args.inputs));
    GpuSolver solver(context);
    std::unique_ptr<ShaderReloader> reloader;
    if (!args.shadersDir.empty()) reloader = std::make_unique<ShaderReloader>(solver, args.shadersDir);
    FileWatcher paramsWatcher;
    if (!args.paramsPath.empty()) paramsWatcher.watch({args.paramsPath});

    // A shader that did not compile leaves the built-in one running: its figures are not the user's.
    const bool shaderFailed = reloader && reloader->generation() == 0;
    if (shaderFailed && !args.watch)
        throw Error("--shaders " + args.shadersDir + ": the shader did not compile or load (the errors above); "
                    "nothing was run, as the figures would be the built-in shader's");

    std::printf("sculptflow tune: %s, %zu vertices on %s\n", in.description.c_str(), in.voxels.size(),
                context.deviceName().c_str());
    GroundTruth truth = groundTruth(in.move, in.voxels); // the move never changes: computed once
    std::optional<TuneFigures> last;
    auto run = [&](const char* why) {
        TuneFigures now = runOnce(solver, in, truth, options);
        printFigures(now, last, why);
        last = now;
    };
    if (shaderFailed)
        std::printf("[start] not run: the shader in %s did not compile or load; waiting for a good save\n",
                    args.shadersDir.c_str());
    else
        run("start");
    if (!args.watch) {
        if (!checked(*last)) throw CLI::RuntimeError(1); // nothing was compared: no figure to tune by
        return;
    }

    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::printf("watching%s%s; Ctrl-C to stop\n", reloader ? " shaders in " : "",
                reloader ? args.shadersDir.c_str() : "");
    while (!gInterrupted) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        bool rerun = false;
        const char* why = "";
        if (reloader) {
            ReloadReport report = reloader->poll(); // prints its own errors
            if (report.status == ReloadReport::Status::Reloaded) {
                rerun = true;
                why = "shader";
            }
        }
        if (!args.paramsPath.empty() && paramsWatcher.changed()) {
            try {
                options = readTuningParams(args.paramsPath, options, stepsLater);
                rerun = true;
                why = "params";
            } catch (const Error& e) {
                std::fprintf(stderr, "sculptflow: %s (keeping the previous parameters)\n", e.what());
            }
        }
        // Until one of the user's shaders loads, a run would be the built-in shader's.
        if (!rerun || (reloader && reloader->generation() == 0)) continue;
        try {
            run(why);
        } catch (const Error& e) { // e.g. a shader that compiles but faults: report, keep going
            std::fprintf(stderr, "sculptflow: run failed: %s\n", e.what());
        }
    }
    std::printf("stopped\n");
}

} // namespace

void addTuneCommand(CLI::App& app) {
    auto args = std::make_shared<TuneArgs>();
    CLI::App* cmd = app.add_subcommand(
        "tune", "Validate once, then again on every shader or parameter save (with --watch)");
    addMoveInputOptions(*cmd, args->inputs);
    addMethodOptions(*cmd, args->method, args->tolerance, args->steps, "the params file may override it");
    cmd->add_flag("--watch", args->watch, "Keep running; re-run on every save until Ctrl-C");
    cmd->add_option("--shaders", args->shadersDir,
                    "Shader directory to compile and hot-reload (see `sculptflow shaders export`)")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--params", args->paramsPath,
                    "JSON tunables: method, tol, fixed_steps (rk4 only, and required by it), h0 (no adaptive "
                    "method: each starts at a share of its vertex's step limit), "
                    "h_min, h_max, safety, shrink_min, grow_max, max_iterations, max_tool_motion_per_step")
        ->check(CLI::ExistingFile);
    cmd->callback([args] { runTune(*args); });
}

} // namespace sculptflow::cli
