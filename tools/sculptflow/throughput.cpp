// Solver throughput: workloads, one measurement per method and backend, FLOPs and peaks.
#include "throughput.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <thread>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/demo_fixtures.hpp"
#include "src/kernel.hpp"
#include "src/kernel_tools.hpp"
#include "src/tolerance_plan.hpp"

namespace sculptflow::cli {
namespace {

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();
constexpr uint32_t kLayoutSeed = 777;
constexpr uint32_t kShellSeed = 4242;

uint32_t flagsWithoutCulled(const VertexStatistics& s) { return s.flags & ~kernel::kFlagCulled; }

size_t countFlagged(std::span<const VertexStatistics> statistics) {
    return size_t(std::count_if(statistics.begin(), statistics.end(),
                                [](const VertexStatistics& s) { return flagsWithoutCulled(s) != 0; }));
}

// Max error of the unflagged probes against the ground truth; NaN without probes.
void probeError(const MeasureContext& context, const Workload& workload, std::span<const glm::vec3> positions,
                std::span<const VertexStatistics> statistics, BenchRecord& record) {
    record.maxErrVox = kNotMeasured;
    record.errProbes = 0;
    if (!context.probes) return;
    const GroundTruth& truth = context.probes->truth;
    double worst = 0.0;
    const size_t n = std::min(workload.probes.size(), context.probes->count);
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = workload.probes[k];
        if (!truth.converged[k] || flagsWithoutCulled(statistics[i]) != 0) continue;
        worst = std::max(worst, glm::length(glm::dvec3(positions[i]) - truth.positions[k]));
        ++record.errProbes;
    }
    if (record.errProbes) record.maxErrVox = worst;
}

BenchRecord startRecord(const MeasureContext& context, const Workload& workload, const SolverOptions& options,
                        Backend backend) {
    BenchRecord r;
    r.stroke = context.stroke;
    r.workload = workload.name;
    r.method = options.method;
    r.tolerance = options.tolerance;
    r.fixedSteps = !isAdaptive(options.method) ? options.fixedSteps : 0;
    r.backend = backend;
    r.vertices = workload.vertices.size();
    r.flopsPerEval = flopsPerEvaluation(*context.move);
    r.peakGflops = kNotMeasured;
    r.gpuStatisticsMs = kNotMeasured;
    return r;
}

void finishRecord(const SolveReport& report, double seconds, BenchRecord& r) {
    r.seconds = seconds;
    r.active = r.vertices ? double(r.vertices - report.culled) / double(r.vertices) : 0.0;
    r.evalsMean = report.meanEvaluations();
    r.evaluations = report.evaluations;
    const bool timed = std::isfinite(seconds) && seconds > 0.0;
    r.vertsPerSecond = timed ? double(r.vertices) / seconds : kNotMeasured;
    r.gflops = timed ? r.flopsPerEval * double(r.evaluations) / seconds * 1e-9 : kNotMeasured;
}

std::string fixed(double v, const char* format) {
    if (!std::isfinite(v)) return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

} // namespace

std::string_view backendName(Backend backend) {
    switch (backend) {
    case Backend::Gpu: return "gpu";
    case Backend::CpuOne: return "cpu1";
    case Backend::CpuAll: return "cpuN";
    }
    return "?";
}

std::string_view layoutName(Layout layout) { return layout == Layout::Scattered ? "scattered" : "clustered"; }

double flopsPerEvaluation(const ToolMotion& tool) {
    constexpr double kEveryTool = 12.0, kKelvinletCommon = 45.0, kAffineVelocity = 18.0, kAffineFlowCommon = 31.0;
    switch (tool.kind) {
    case ToolKind::Kelvinlet: {
        const double coefficients = tool.profile == KelvinletProfile::BiScale    ? 40.0
                                  : tool.profile == KelvinletProfile::TriScale   ? 74.0
                                  : tool.profile == KelvinletProfile::Laplacian  ? 23.0
                                                                                 : 24.0;
        return kEveryTool + kKelvinletCommon + coefficients;
    }
    case ToolKind::Affine: return kEveryTool + kAffineVelocity;
    case ToolKind::AffineFlow: {
        const double profile = tool.falloff == Falloff::Smooth     ? 4.0
                             : tool.falloff == Falloff::Smoother   ? 7.0
                             : tool.falloff == Falloff::Sharp      ? 1.0
                                                                   : 0.0;
        return kEveryTool + kAffineFlowCommon + profile;
    }
    }
    return 0.0;
}

double flopsPerEvaluation(const Move& move) {
    double flops = 0.0;
    for (const ToolMotion& tool : move.tools) flops += flopsPerEvaluation(tool);
    return flops;
}

std::vector<std::pair<std::string, double>> flopsPerEvaluationByShape() {
    std::vector<std::pair<std::string, double>> counts;
    ToolMotion tool;
    for (const KelvinletProfile profile : {KelvinletProfile::BiScale, KelvinletProfile::TriScale,
                                           KelvinletProfile::Laplacian, KelvinletProfile::BiLaplacian}) {
        tool.kind = ToolKind::Kelvinlet;
        tool.profile = profile;
        counts.emplace_back("kelvinlet " + std::string(kelvinletProfileName(profile)), flopsPerEvaluation(tool));
    }
    tool.kind = ToolKind::Affine;
    counts.emplace_back("affine", flopsPerEvaluation(tool));
    for (const Falloff falloff : {Falloff::Smooth, Falloff::Smoother, Falloff::Linear, Falloff::Sharp}) {
        tool.kind = ToolKind::AffineFlow;
        tool.falloff = falloff;
        counts.emplace_back("affine-flow " + std::string(falloffName(falloff)), flopsPerEvaluation(tool));
    }
    return counts;
}

PeakFlops devicePeakFlops(const std::string& deviceName, unsigned cpuThreads, double clockGhz) {
    char text[200];
    if (deviceName.find("llvmpipe") != std::string::npos) {
        int bits = 256; // llvmpipe names its vector width: "llvmpipe (LLVM 15.0.6, 256 bits)"
        if (const size_t at = deviceName.find(" bits"); at != std::string::npos) {
            size_t from = at;
            while (from > 0 && std::isdigit(static_cast<unsigned char>(deviceName[from - 1]))) --from;
            if (from < at) bits = std::atoi(deviceName.substr(from, at - from).c_str());
        }
        unsigned threads = std::max(1u, cpuThreads);
        if (const char* env = std::getenv("LP_NUM_THREADS"); env && std::atoi(env) > 0) threads = unsigned(std::atoi(env));
        const int lanes = std::max(1, bits / 32);
        if (!(clockGhz > 0.0)) return {kNotMeasured, "lavapipe: CPU clock unknown (no /proc/cpuinfo); pass --peak-gflops"};
        std::snprintf(text, sizeof text, "lavapipe: %u threads x %d lanes x 2 (FMA) x %.2f GHz", threads, lanes,
                      clockGhz);
        return {double(threads) * lanes * 2.0 * clockGhz, text};
    }
    struct Known {
        const char* name;
        double tflops;
    };
    // NVIDIA datasheet FP32 (non-tensor) peaks; the more specific names first.
    static const Known known[] = {{"H100 PCIe", 51.2}, {"H100 NVL", 60.0}, {"H100", 67.0},
                                  {"H200 NVL", 60.0},  {"H200", 67.0}};
    for (const Known& k : known) {
        if (deviceName.find(k.name) == std::string::npos) continue;
        std::snprintf(text, sizeof text, "%s FP32 datasheet peak, %.1f TFLOP/s", k.name, k.tflops);
        return {k.tflops * 1e3, text};
    }
    return {kNotMeasured, "unknown for this device; pass --peak-gflops"};
}

Workload ballWorkload(const Move& move, size_t count, size_t probeCount) {
    if (move.tools.empty()) throw Error("bench: the move has no tools to place the workload around");
    Workload w;
    w.name = "ball";
    w.vertices = ballAroundTip(move.tools.front(), count);
    w.activeVertices = count;
    for (size_t k = 0; k < std::min(probeCount, count); ++k) w.probes.push_back(uint32_t(k));
    return w;
}

Workload sphereWorkload(const Move& move, size_t count, size_t probeCount) {
    if (move.tools.empty()) throw Error("bench: the move has no tools to place the workload around");
    if (count > (size_t(1) << 26)) throw Error("bench: a sphere of at most 2^26 vertices");
    const ToolMotion& tool = move.tools.front();
    int subdivisions = 0;
    while ((size_t(10) << (2 * subdivisions)) + 2 < count) ++subdivisions;
    Mesh sphere = icosphere(subdivisions, glm::vec3(tool.origin), float(kDefaultSphereRadius * tool.outerRadius));
    Workload w;
    w.name = "sphere";
    w.vertices.assign(sphere.positions.begin(), sphere.positions.begin() + std::ptrdiff_t(count));
    w.activeVertices = count;
    for (size_t k = 0; k < std::min(probeCount, count); ++k) w.probes.push_back(uint32_t(k));
    return w;
}

std::vector<double> everyMethodsInternalTolerance(const Move& move, const SolverOptions& options) {
    std::vector<double> tolerances;
    for (Method m : allMethods()) {
        SolverOptions o = options;
        o.method = m;
        tolerances.push_back(internalTolerance(move, o));
    }
    return tolerances;
}

Workload partlyActiveWorkload(const Move& move, size_t count, double activeFraction, Layout layout,
                              size_t probeCount, const std::vector<double>& cullTolerances) {
    if (move.tools.empty()) throw Error("bench: the move has no tools to place the workload around");
    if (!(activeFraction > 0.0 && activeFraction <= 1.0))
        throw Error("bench: the active fraction must be in (0, 1]");
    if (count > size_t(std::numeric_limits<uint32_t>::max())) throw Error("bench: too many vertices");
    const ToolMotion& tool = move.tools.front();
    const size_t active = std::max<size_t>(1, size_t(std::llround(activeFraction * double(count))));
    const size_t far = count - std::min(active, count);

    // The far vertices: uniform in a spherical shell [R, 2R] around the middle of
    // the tip's path, each kept only if the kernel culls it at every tolerance.
    SolverOptions options;
    kernel::Kernel k = makeKernel(move, options);
    std::vector<float> tolerances;
    for (double t : cullTolerances) tolerances.push_back(float(t));
    if (tolerances.empty()) tolerances.push_back(k.settings.tolerance);
    auto culled = [&](const glm::vec3& p) {
        for (float t : tolerances)
            if (!k.outOfReach(p, t)) return false;
        return true;
    };
    const glm::dvec3 center = tool.origin + 0.5 * tool.translation;
    double reach = 0.5 * glm::length(tool.translation);
    for (const ToolMotion& t : move.tools)
        reach = std::max(reach, glm::length(t.origin - center) + glm::length(t.translation) + 4.0 * t.outerRadius);
    auto shellPoint = [&](std::mt19937& rng, double inner) {
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const double z = 2.0 * unit(rng) - 1.0; // uniform direction
        const double phi = 2.0 * 3.14159265358979323846 * unit(rng);
        const double u = unit(rng);             // uniform in volume between inner and 2·inner
        const double radius = inner * std::cbrt(1.0 + 7.0 * u);
        const double xy = std::sqrt(std::max(0.0, 1.0 - z * z));
        return glm::vec3(center + radius * glm::dvec3(xy * std::cos(phi), xy * std::sin(phi), z));
    };
    // Grow the shell until almost all of a trial lies out of reach.
    std::mt19937 trial(kShellSeed);
    for (int grow = 0; grow < 40; ++grow) {
        int inReach = 0;
        for (int i = 0; i < 256; ++i) inReach += culled(shellPoint(trial, reach)) ? 0 : 1;
        if (inReach <= 2) break;
        reach *= 1.5;
    }
    // Blocks of far points, each from its own seed, so that the workload is the
    // same on any number of threads (64M vertices take minutes on one).
    constexpr size_t kBlock = size_t(1) << 16;
    std::vector<glm::vec3> farPoints(far);
    std::atomic<size_t> nextBlock{0};
    std::atomic<bool> placed{true};
    auto fillBlocks = [&] {
        for (size_t block; (block = nextBlock++) * kBlock < far;) {
            std::seed_seq seed{uint32_t(kShellSeed), uint32_t(block), uint32_t(block >> 32)};
            std::mt19937 rng(seed);
            const size_t end = std::min(far, (block + 1) * kBlock);
            size_t rejected = 0;
            for (size_t i = block * kBlock; i < end && placed;) {
                const glm::vec3 p = shellPoint(rng, reach);
                if (culled(p)) farPoints[i++] = p;
                else if (++rejected > kBlock + 1000) placed = false;
            }
        }
    };
    std::vector<std::thread> threads(std::max(1u, std::thread::hardware_concurrency()) - 1);
    for (std::thread& t : threads) t = std::thread(fillBlocks);
    fillBlocks();
    for (std::thread& t : threads) t.join();
    if (!placed) throw Error("bench: could not place vertices out of the tool's reach");

    const std::vector<glm::vec3> ball = ballAroundTip(tool, active);
    Workload w;
    char name[64];
    std::snprintf(name, sizeof name, "ball %g%% active, %s", 100.0 * activeFraction,
                  std::string(layoutName(layout)).c_str());
    w.name = name;
    w.activeVertices = active;
    // order[i]: < active → ball point order[i], else far point order[i] − active.
    std::vector<uint32_t> order(active + far);
    for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
    if (layout == Layout::Scattered) { // Fisher–Yates with mt19937, portable across libraries
        std::mt19937 shuffle(kLayoutSeed);
        for (size_t i = order.size(); i > 1; --i) {
            const size_t j = size_t((uint64_t(shuffle()) * uint64_t(i)) >> 32);
            std::swap(order[i - 1], order[j]);
        }
    }
    w.vertices.resize(order.size());
    std::vector<uint32_t> whereBall(active);
    for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] < active) {
            w.vertices[i] = ball[order[i]];
            whereBall[order[i]] = uint32_t(i);
        } else {
            w.vertices[i] = farPoints[order[i] - active];
        }
    }
    for (size_t p = 0; p < std::min(probeCount, active); ++p) w.probes.push_back(whereBall[p]);
    return w;
}

TruthProbes computeTruthProbes(const Move& move, const std::vector<glm::vec3>& points) {
    TruthProbes probes;
    probes.count = points.size();
    const auto begin = std::chrono::steady_clock::now();
    probes.truth = groundTruth(move, points);
    probes.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return probes;
}

TruthProbes computeTruthProbes(const Move& move, size_t count) {
    return computeTruthProbes(move, ballAroundTip(move.tools.front(), count));
}

BenchRecord measureCpu(const MeasureContext& context, const Workload& workload, const SolverOptions& options,
                       Backend backend, int runs) {
    BenchRecord r = startRecord(context, workload, options, backend);
    r.device = context.cpuDevice;
    r.threads = backend == Backend::CpuOne ? 1u : std::max(1u, context.allThreads);
    r.runs = std::max(1, runs);
    double best = std::numeric_limits<double>::infinity();
    SolveReport report;
    for (int run = 0; run < r.runs; ++run) {
        const auto begin = std::chrono::steady_clock::now();
        CpuSolution solution = solveOnCpu(*context.move, workload.vertices, options, r.threads);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        if (run == 0) {
            report = solution.report;
            probeError(context, workload, solution.positions, solution.statistics, r);
            r.flagged = countFlagged(solution.statistics);
        }
    }
    finishRecord(report, best, r);
    return r;
}

BenchRecord measureGpu(const MeasureContext& context, const Workload& workload, GpuSolver& solver, GpuMesh& mesh,
                       const SolverOptions& options, GpuClock& clock, const GpuTimingOptions& timing) {
    if (mesh.vertexCount() != workload.vertices.size()) throw Error("bench: the GPU mesh is not the workload's");
    BenchRecord r = startRecord(context, workload, options, Backend::Gpu);
    r.device = context.gpuDevice;
    r.threads = 0;
    r.peakGflops = context.gpuPeakGflops;

    const GpuRun statisticsRun = solver.run(mesh, *context.move, options, /*statistics=*/true);
    r.gpuStatisticsMs = statisticsRun.gpuMilliseconds;
    {
        const std::vector<VertexStatistics> statistics = mesh.readStatistics();
        const std::vector<glm::vec3> positions = mesh.readPositions();
        probeError(context, workload, positions, statistics, r);
        r.flagged = countFlagged(statistics);
    }
    const GpuTiming timed = timeGpuWork(
        [&] { return solver.run(mesh, *context.move, options, /*statistics=*/false).gpuMilliseconds; }, clock, timing);
    r.runs = timed.measurements * timed.batchRuns;
    r.gpuTiming = timed;
    finishRecord(statisticsRun.report, std::isfinite(timed.msPerRun) ? timed.msPerRun * 1e-3 : kNotMeasured, r);
    return r;
}

nlohmann::json recordJson(const BenchRecord& r) {
    const bool gpu = r.backend == Backend::Gpu;
    return {
        {"method", methodName(r.method)},
        {"backend", backendName(r.backend)},
        {"device", r.device},
        {"vertices", r.vertices},
        {"active", r.active},
        {"verts_per_s", r.vertsPerSecond}, // NaN (no timing) is written as null
        {"evals_mean", r.evalsMean},
        {"max_err_vox", r.maxErrVox},
        {"suite", r.suite},
        {"stroke", r.stroke},
        {"workload", r.workload},
        {"tol", r.tolerance},
        {"fixed_steps", r.fixedSteps ? nlohmann::json(r.fixedSteps) : nlohmann::json(nullptr)},
        {"threads", gpu ? nlohmann::json(nullptr) : nlohmann::json(r.threads)},
        {"runs", r.runs},
        {"ms", r.seconds * 1e3},
        {"gpu_ms", gpu ? r.seconds * 1e3 : kNotMeasured},
        {"gpu_statistics_ms", r.gpuStatisticsMs},
        {"evaluations", r.evaluations},
        {"flagged", r.flagged},
        {"err_probes", r.errProbes},
        {"flops_per_eval", r.flopsPerEval},
        {"gflops", r.gflops},
        {"peak_gflops", r.peakGflops},
        {"peak_fraction", r.gflops / r.peakGflops},
        {"gpu_timing", r.gpuTiming ? timingJson(*r.gpuTiming) : nlohmann::json(nullptr)},
    };
}

std::string recordsTable(const std::vector<BenchRecord>& records) {
    std::string out;
    char line[300];
    std::snprintf(line, sizeof line, "%-7s %-5s %-28s %9s %7s %10s %9s %9s %7s %10s %10s\n", "method", "back",
                  "workload", "vertices", "active", "Mverts/s", "evals/vtx", "GFLOP/s", "%peak", "max err", "time ms");
    out += line;
    for (const BenchRecord& r : records) {
        const std::string peak = std::isfinite(r.peakGflops) ? fixed(100.0 * r.gflops / r.peakGflops, "%.2f") : "-";
        std::snprintf(line, sizeof line, "%-7s %-5s %-28s %9zu %6.1f%% %10s %9.1f %9s %7s %10s %10s\n",
                      std::string(methodName(r.method)).c_str(), std::string(backendName(r.backend)).c_str(),
                      r.workload.c_str(), r.vertices, 100.0 * r.active, fixed(r.vertsPerSecond * 1e-6, "%.4f").c_str(),
                      r.evalsMean, fixed(r.gflops, "%.3f").c_str(), peak.c_str(), fixed(r.maxErrVox, "%.4f").c_str(),
                      fixed(r.seconds * 1e3, "%.1f").c_str());
        out += line;
    }
    return out;
}

LogLogChart scalingChart(const nlohmann::json& records, const std::string& method, const std::string& stroke,
                         const std::string& title) {
    LogLogChart chart;
    chart.title = title;
    chart.xLabel = "vertices";
    chart.yLabel = "vertices per second";
    for (const nlohmann::json& r : records) {
        if (r.value("suite", "") == "work_precision" || r.value("method", "") != method) continue;
        if (r.value("stroke", "") != stroke) continue;
        if (!r["verts_per_s"].is_number() || !r["vertices"].is_number()) continue;
        const std::string name = r.at("backend").get<std::string>() + " " + r.at("workload").get<std::string>();
        auto series = std::find_if(chart.series.begin(), chart.series.end(),
                                   [&](const ChartSeries& s) { return s.name == name; });
        if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), ChartSeries{name, {}});
        series->points.push_back({r["vertices"].get<double>(), r["verts_per_s"].get<double>(), ""});
    }
    // A curve needs two sizes: a backend measured at one size only (the per-method table's) is left out.
    std::erase_if(chart.series, [](const ChartSeries& s) { return s.points.size() < 2; });
    for (ChartSeries& s : chart.series)
        std::sort(s.points.begin(), s.points.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    return chart;
}

} // namespace sculptflow::cli
