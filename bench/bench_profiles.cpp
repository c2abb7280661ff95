// What each Kelvinlet profile (spec §3.7) costs on a sculpt larger than its reach
// (GPU, bs32, tol 0.1, GPU timestamps): the built-in stroke pulls the middle of a
// lumpy slab of 1,000 × 1,000 vertices, 200 ε on a side (ε = the tool's outer
// radius, 99.8 voxels), out of its plane. The faster a profile decays, the smaller
// its culling radius (docs/field-shapes.md) and the fewer vertices it solves:
//   profiles/bi-scale, profiles/tri-scale, profiles/laplacian, profiles/bi-laplacian
// with counters solved (vertices not culled), solved_ratio_vs_bi_scale, evals (per
// vertex of the mesh, culled ones 0), evals_solved (per solved vertex) and
// reach_eps (the farthest solved vertex from the tip's path, in ε).
//
// `--decay-svg PATH` instead writes the profiles' speed against the distance from
// the tip (log–log, the double reference) and prints it with the float kernel's.
// Quote ratios between rows of one run: the machine is shared.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/motion.hpp>
#include "src/kelvinlet_reference.hpp"
#include "src/kernel_tools.hpp"
#include "gpu_bench_main.hpp"
#include "svg_chart.hpp"

namespace sculptflow {
namespace {

constexpr int kSlabSide = 1000;          // vertices along each side: 1M in all
constexpr double kSlabHalfWidth = 100.0; // ε from the tip to each side (141 ε to a corner)
constexpr std::array kProfiles = {KelvinletProfile::BiScale, KelvinletProfile::TriScale, KelvinletProfile::Laplacian,
                                  KelvinletProfile::BiLaplacian};

GpuSolver& gpuSolver() {
    static Context context(ContextOptions{.validation = false});
    static GpuSolver solver(context);
    return solver;
}

Stroke profileStroke(KelvinletProfile profile) {
    Stroke stroke = defaultStroke();
    stroke.tools.front().profile = profile;
    return stroke;
}

ToolMotion builtinTool() { return moveToolMotion(defaultStroke()).tools.front(); }

// A unit vector perpendicular to `n`.
glm::dvec3 perpendicular(const glm::dvec3& n) {
    const glm::dvec3 other = std::abs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    return glm::normalize(glm::cross(n, other));
}

// The slab through the tip at pose A, perpendicular to the tool's translation (the
// tool grabs the surface and pulls it out), in rows (mesh order). Lumps of ±1.5 ε
// keep it from being a plane; they vanish at the tip.
const std::vector<glm::vec3>& slab() {
    static const std::vector<glm::vec3> points = [] {
        const ToolMotion tool = builtinTool();
        const double eps = tool.outerRadius;
        const glm::dvec3 n = glm::normalize(tool.translation);
        const glm::dvec3 u = perpendicular(n);
        const glm::dvec3 v = glm::cross(n, u);
        const double step = 2.0 * kSlabHalfWidth * eps / (kSlabSide - 1);
        std::vector<glm::vec3> out;
        out.reserve(size_t(kSlabSide) * kSlabSide);
        for (int j = 0; j < kSlabSide; ++j) {
            for (int i = 0; i < kSlabSide; ++i) {
                const double x = -kSlabHalfWidth * eps + i * step;
                const double y = -kSlabHalfWidth * eps + j * step;
                const double h = 1.5 * eps * std::sin(2.0 * std::numbers::pi * x / (23.0 * eps)) *
                                 std::sin(2.0 * std::numbers::pi * y / (29.0 * eps));
                out.emplace_back(tool.origin + x * u + y * v + h * n);
            }
        }
        return out;
    }();
    return points;
}

GpuMesh& slabMesh() {
    static GpuMesh mesh(gpuSolver().context(), slab());
    return mesh;
}

double distanceToPath(const ToolMotion& tool, const glm::dvec3& x) {
    const glm::dvec3 rel = x - tool.origin;
    const double dd = glm::dot(tool.translation, tool.translation);
    const double s = dd > 0.0 ? std::clamp(glm::dot(rel, tool.translation) / dd, 0.0, 1.0) : 0.0;
    return glm::length(rel - s * tool.translation);
}

struct ProfileRun {
    SolveReport report;
    double reachEps = 0.0;
};

// One run with statistics per profile, kept: Google Benchmark calls a benchmark
// several times while it picks the iteration count, and a run with statistics
// on 1M vertices takes seconds on lavapipe.
const ProfileRun& profileRun(KelvinletProfile profile) {
    static std::map<KelvinletProfile, ProfileRun> runs;
    auto found = runs.find(profile);
    if (found != runs.end()) return found->second;
    const Move move = moveToolMotion(profileStroke(profile));
    ProfileRun run;
    run.report = gpuSolver().run(slabMesh(), move, SolverOptions{}).report;
    const std::vector<VertexStatistics> statistics = slabMesh().readStatistics();
    for (size_t i = 0; i < statistics.size(); ++i) {
        if (statistics[i].flags & kVertexCulled) continue;
        run.reachEps = std::max(run.reachEps, distanceToPath(move.tools.front(), glm::dvec3(slab()[i])));
    }
    run.reachEps /= move.tools.front().outerRadius;
    return runs.emplace(profile, run).first->second;
}

size_t solvedVertices(const SolveReport& report) { return report.vertices - report.culled; }

void profileBenchmark(benchmark::State& state, KelvinletProfile profile) {
    GpuSolver& solver = gpuSolver();
    GpuMesh& mesh = slabMesh();
    const Move move = moveToolMotion(profileStroke(profile));
    const SolverOptions options; // bs32, tol 0.1
    const ProfileRun& run = profileRun(profile);
    const size_t biScaleSolved = solvedVertices(profileRun(KelvinletProfile::BiScale).report);
    solver.run(mesh, move, options, false); // restores what the last run (with statistics) wrote
    for (auto _ : state) {
        const double ms = solver.run(mesh, move, options, false).gpuMilliseconds;
        if (std::isnan(ms)) {
            state.SkipWithError("the device has no compute timestamps");
            return;
        }
        state.SetIterationTime(ms * 1e-3);
    }
    const size_t solved = solvedVertices(run.report);
    state.counters["solved"] = double(solved);
    state.counters["solved_ratio_vs_bi_scale"] = double(solved) / double(biScaleSolved);
    state.counters["evals"] = run.report.meanEvaluations();
    state.counters["evals_solved"] = solved ? double(run.report.evaluations) / double(solved) : 0.0;
    state.counters["reach_eps"] = run.reachEps;
}

void registerAll() {
    for (KelvinletProfile profile : kProfiles) {
        const std::string name = "profiles/" + std::string(kelvinletProfileName(profile));
        benchmark::RegisterBenchmark(name.c_str(), profileBenchmark, profile)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
}

// --- The decay plot -----------------------------------------------------------

constexpr double kDecayFloor = 1e-8;   // of the tip speed: where a series stops
constexpr int kPointsPerDecade = 10;
constexpr double kDecayNearest = 0.1;  // ε
constexpr double kDecayFarthest = 200.0;

// The double reference's field of `tool` at offset R from its tip, calibrated as
// the ground truth is (src/ground_truth.cpp, spec §3.2, §3.7): the tip follows the
// tool at μ = 1.
struct ReferenceField {
    std::vector<WeightedKernel> kernels;
    KelvinletLoads loads;

    explicit ReferenceField(const ToolMotion& tool) {
        auto kelvinA = [](double mu) { return 1.0 / (4.0 * std::numbers::pi * mu); };
        auto kelvinB = [&](double mu, double nu) { return kelvinA(mu) / (4.0 * (1.0 - nu)); };
        const double a = kelvinA(tool.stiffness);
        kernels = profileKernels(tool.profile, a, kelvinB(tool.stiffness, tool.compressibility), tool.outerRadius);
        const double a1 = kelvinA(1.0);
        double grab = 0.0, phi = 0.0;
        for (const WeightedKernel& w :
             profileKernels(tool.profile, a1, kelvinB(1.0, tool.compressibility), tool.outerRadius)) {
            grab += w.weight * w.kernel.A(w.kernel.eps * w.kernel.eps);
            phi += w.weight * w.kernel.phi(w.kernel.eps * w.kernel.eps);
        }
        loads.force = tool.translation / grab;
        loads.twist = tool.rotation * (-1.0 / (a1 * phi));
        loads.a = a;
        loads.scaleFactor = (2.0 * kelvinB(tool.stiffness, 0.0) - a) * tool.logScale /
                            ((2.0 * kelvinB(1.0, 0.0) - a1) * phi);
    }

    glm::dvec3 operator()(const glm::dvec3& R) const {
        glm::dvec3 v(0.0);
        for (const WeightedKernel& w : kernels) v += w.weight * kernelVelocity(w.kernel, loads, R);
        return v;
    }
};

// Speed |v| at s = 0 along the line from the tip at pose A towards the rotation
// axis's part perpendicular to the translation: there the grab (A·f, R ⊥ f) and the
// twist (F×R ⊥ f) are orthogonal, so neither hides the other's decay. One series per
// profile; printed beside the float kernel's and the culling radius along the line.
// Writes the chart to `path`.
int writeDecaySvg(const std::string& path) {
    const ToolMotion base = builtinTool();
    const double eps = base.outerRadius;
    const glm::dvec3 n = glm::normalize(base.translation);
    const glm::dvec3 along = glm::normalize(base.rotation - glm::dot(base.rotation, n) * n);
    const SolverOptions options;
    cli::LogLogChart chart;
    chart.title = "Kelvinlet profiles: speed vs distance from the tip";
    chart.xLabel = "distance from the tip, perpendicular to the translation (ε = 99.8 voxels)";
    chart.yLabel = "|v| at s = 0 (voxels per move)";
    std::printf("built-in stroke: eps %.1f voxels, |d| %.1f voxels, |r| %.3f rad\n", eps,
                glm::length(base.translation), glm::length(base.rotation));
    std::printf("%-13s %10s %12s %13s %13s %14s\n", "profile", "tip |v|", "|v| at 1 eps", "|v| at 10 eps",
                "float rel err", "cull radius");
    for (KelvinletProfile profile : kProfiles) {
        Move move = moveToolMotion(profileStroke(profile));
        const ToolMotion& tool = move.tools.front();
        const ReferenceField field(tool);
        kernel::Kernel cpu = makeKernel(move, options);
        const double tip = glm::length(field(glm::dvec3(0.0)));
        cli::ChartSeries series{std::string(kelvinletProfileName(profile)), {}};
        double worstFloat = 0.0; // relative difference of the float kernel, down to 1e-5 of the tip speed
        for (int k = 0;; ++k) {
            const double distance = kDecayNearest * std::pow(10.0, double(k) / kPointsPerDecade);
            if (distance > kDecayFarthest * 1.0001) break;
            const glm::dvec3 R = distance * eps * along;
            const double speed = glm::length(field(R));
            if (speed < kDecayFloor * tip) break;
            series.points.push_back({distance, speed, ""});
            const double single = glm::length(glm::dvec3(cpu.velocity(glm::vec3(tool.origin + R), 0.0f, 1u)));
            if (speed > 1e-5 * tip) worstFloat = std::max(worstFloat, std::abs(single - speed) / speed);
        }
        // Where the kernel's own bound culls along the line, to 0.1 ε.
        double cull = 0.0;
        for (double d = 0.1; d < 1000.0; d += 0.1) {
            if (cpu.outOfReach(glm::vec3(tool.origin + d * eps * along), cpu.settings.tolerance)) {
                cull = d;
                break;
            }
        }
        std::printf("%-13s %10.2f %12.4g %13.4g %13.2e %12.1f ε\n", series.name.c_str(), tip,
                    glm::length(field(eps * along)), glm::length(field(10.0 * eps * along)), worstFloat, cull);
        chart.series.push_back(std::move(series));
    }
    chart.references.push_back({kernel::kCullFraction * options.tolerance, "tol/10 at tol 0.1"});
    cli::writeSvg(chart, path);
    std::printf("wrote %s\n", path.c_str());
    return 0;
}

} // namespace
} // namespace sculptflow

int main(int argc, char** argv) {
    // --decay-svg PATH is ours: take it out before Google Benchmark reads argv.
    std::string decaySvg;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--decay-svg" && i + 1 < argc) {
            decaySvg = argv[++i];
        } else if (arg.starts_with("--decay-svg=")) {
            decaySvg = std::string(arg.substr(std::string_view("--decay-svg=").size()));
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    if (!decaySvg.empty()) {
        try {
            return sculptflow::writeDecaySvg(decaySvg);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "sculptflow_bench_profiles: %s\n", e.what());
            return 1;
        }
    }
    return sculptflow::runGpuBenchmarks(
        argc, argv, [] { return sculptflow::gpuSolver().context().deviceName(); }, sculptflow::registerAll);
}
