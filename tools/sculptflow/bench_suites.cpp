// The suites of `sculptflow bench` (see bench_suites.hpp).
#include "bench_suites.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "src/kernel_tools.hpp"
#include "output_paths.hpp"
#include "throughput.hpp"
#include "work_precision.hpp"

namespace sculptflow::cli {
namespace {

constexpr const char* kKeyStrokeName = "test0_righthandstroke.bin";

std::filesystem::path defaultKeyStroke() {
    if (const char* env = std::getenv("SCULPTFLOW_STROKES")) return std::filesystem::path(env) / kKeyStrokeName;
    return std::filesystem::path(SCULPTFLOW_DEFAULT_STROKES_DIR) / kKeyStrokeName;
}

std::vector<glm::vec3> sweepVertices(const std::vector<glm::vec3>& voxels, size_t most) {
    if (voxels.size() <= most) return voxels;
    std::vector<glm::vec3> thinned;
    const double stride = double(voxels.size()) / double(most);
    for (size_t i = 0; i < most; ++i) thinned.push_back(voxels[size_t(double(i) * stride)]);
    return thinned;
}

Backend parseBackend(const std::string& name) {
    if (name == "gpu") return Backend::Gpu;
    if (name == "cpu1") return Backend::CpuOne;
    return Backend::CpuAll;
}

// "meets" / "misses" against an issue's target, or "n/a".
const char* verdict(double value, double target, bool atMost) {
    if (!std::isfinite(value)) return "n/a";
    return (atMost ? value <= target : value >= target) ? "meets" : "misses";
}

const std::vector<Backend> kAllBackends{Backend::Gpu, Backend::CpuOne, Backend::CpuAll};

// The two scaling targets, per backend: throughput flat from 100k to 4M,
// and a partly active mesh against its active vertices alone.
void scalingTargets(BenchSession& s, const std::vector<BenchRecord>& scaling, const std::vector<Backend>& backends) {
    nlohmann::json flatness = nlohmann::json::array(), partlyActive = nlohmann::json::array();
    for (Backend backend : backends) {
        double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
        size_t count = 0;
        for (const BenchRecord& r : scaling) {
            if (r.backend != backend || r.workload != "ball" || r.vertices < 100'000 || r.vertices > 4'000'000 ||
                !std::isfinite(r.vertsPerSecond))
                continue;
            lo = std::min(lo, r.vertsPerSecond);
            hi = std::max(hi, r.vertsPerSecond);
            ++count;
        }
        const double ratio = count >= 2 ? lo / hi : kNoValue;
        std::printf("throughput flat from 100k to 4M (%s, %zu sizes): min/max %.3f (target >= 0.8: %s)\n",
                    std::string(backendName(backend)).c_str(), count, ratio, verdict(ratio, 0.8, false));
        flatness.push_back({{"backend", backendName(backend)}, {"sizes", count}, {"min_over_max", ratio},
                            {"min_verts_per_s", count ? lo : kNoValue}, {"max_verts_per_s", count ? hi : kNoValue},
                            {"target", ">= 0.8"}});
        for (const BenchRecord& partial : scaling) {
            if (partial.backend != backend || partial.workload == "ball") continue;
            const size_t active = size_t(std::llround(s.args.activeFraction * double(partial.vertices)));
            for (const BenchRecord& alone : scaling) {
                if (alone.backend != backend || alone.workload != "ball" || alone.vertices != active) continue;
                const double timeRatio = partial.seconds / alone.seconds;
                std::printf("%s of %zu vertices (%.2f%% active) vs the same %zu vertices alone (%s): "
                            "time ratio %.2f (target <= 1.3: %s)\n",
                            partial.workload.c_str(), partial.vertices, 100.0 * partial.active, active,
                            std::string(backendName(backend)).c_str(), timeRatio, verdict(timeRatio, 1.3, true));
                partlyActive.push_back({{"backend", backendName(backend)}, {"workload", partial.workload},
                                        {"vertices", partial.vertices}, {"active", partial.active},
                                        {"alone_vertices", active}, {"time_ratio", timeRatio},
                                        {"target", "<= 1.3"}});
            }
        }
    }
    s.summary["flatness"] = flatness;
    s.summary["partly_active"] = partlyActive;
}

} // namespace

std::string strokeLabel(const MoveInputArgs& inputs) {
    std::string label = inputs.strokePath.empty() ? "built-in" : inputs.strokePath;
    if (!inputs.kind.empty()) label += " (" + inputs.kind + ")";
    return label;
}

void runMethods(BenchSession& s, const std::vector<Method>& methods, const std::vector<size_t>& sizes) {
    std::printf("\n[methods] every method on every backend, default options (tol 0.1 voxel)\n");
    std::vector<size_t> rows;
    for (size_t size : sizes) {
        if (s.bench.outOfTime()) break;
        const Workload ball = ballWorkload(s.in.move, size, s.probeCount);
        for (Method method : methods) {
            SolverOptions options;
            options.method = method;
            for (size_t i : s.bench.measure("methods", s.context, ball, options, kAllBackends)) rows.push_back(i);
        }
    }
    std::printf("\n%s", recordsTable(select(s.bench, rows)).c_str());
}

void runScaling(BenchSession& s, const std::vector<size_t>& sizes) {
    const BenchArgs& args = s.args;
    std::vector<Backend> backends;
    for (const std::string& name : args.scalingBackends) backends.push_back(parseBackend(name));
    if (!s.bench.hasGpu() && std::find(backends.begin(), backends.end(), Backend::Gpu) != backends.end()) {
        std::erase(backends, Backend::Gpu);
        if (backends.empty()) backends.push_back(Backend::CpuAll);
        std::printf("\n(no GPU: the scaling curve runs on %s)\n", std::string(backendName(backends[0])).c_str());
    }
    std::vector<Layout> layouts;
    for (const std::string& name : args.layouts)
        layouts.push_back(name == "clustered" ? Layout::Clustered : Layout::Scattered);
    SolverOptions options;
    options.method = *parseMethod(args.scalingMethod);
    const std::vector<double> cullTolerances = everyMethodsInternalTolerance(s.in.move, options);
    std::printf("\n[scaling] %s, %g%% and %g%% active\n", args.scalingMethod.c_str(), 100.0,
                100.0 * args.activeFraction);
    std::vector<size_t> rows;
    for (size_t size : sizes) {
        if (s.bench.outOfTime()) break; // before building a workload of that size
        for (size_t i : s.bench.measure("scaling", s.context, ballWorkload(s.in.move, size, s.probeCount), options,
                                        backends))
            rows.push_back(i);
        for (Layout layout : layouts) {
            const Workload partly =
                partlyActiveWorkload(s.in.move, size, args.activeFraction, layout, s.probeCount, cullTolerances);
            for (size_t i : s.bench.measure("scaling", s.context, partly, options, backends)) rows.push_back(i);
        }
    }
    const std::vector<BenchRecord> scaling = select(s.bench, rows);
    std::printf("\n%s\n", recordsTable(scaling).c_str());
    scalingTargets(s, scaling, backends);
    if (!args.scalingChartPath.empty()) {
        nlohmann::json records = nlohmann::json::array();
        for (const BenchRecord& r : s.bench.records()) records.push_back(recordJson(r));
        LogLogChart chart = scalingChart(records, args.scalingMethod, s.context.stroke,
                                         "Throughput: " + args.scalingMethod + ", " + s.in.description);
        writeSvg(chart, args.scalingChartPath);
        std::printf("wrote %s\n", args.scalingChartPath.c_str());
    }
}

// bs32 at tol 0.1 on the recorded stroke test0 as a Kelvinlet (or the built-in
// stroke), GPU against the CPU reference: on a sphere, in a mesh's own vertex
// order, and on the ball, the same work in random order, the worst case for lanes.
void runKey(BenchSession& s, size_t keySize) {
    if (s.bench.outOfTime()) return;
    const std::filesystem::path keyPath =
        s.args.keyStroke.empty() ? defaultKeyStroke() : std::filesystem::path(s.args.keyStroke);
    MoveInputArgs keyArgs;
    keyArgs.kind = "kelvinlet";
    if (std::filesystem::is_regular_file(keyPath)) {
        keyArgs.strokePath = keyPath.string();
    } else {
        std::printf("\n[key] recorded stroke %s not found (set SCULPTFLOW_STROKES or --key-stroke); "
                    "using the built-in stroke instead\n",
                    keyPath.string().c_str());
    }
    const MoveInputs key = loadMoveInputs(keyArgs);
    const std::string keyStrokeName = keyArgs.strokePath.empty() ? "the built-in stroke" : keyArgs.strokePath;
    SolverOptions options;
    options.method = Method::Bs32;
    options.tolerance = 0.1;
    const Workload sphere = sphereWorkload(key.move, keySize, s.probeCount);
    const Workload ball = ballWorkload(key.move, keySize, s.probeCount);
    for (const Workload* workload : {&sphere, &ball}) {
        const bool isSphere = workload == &sphere;
        std::printf("\n[key] bs32, tol 0.1 voxel, %s as a Kelvinlet, %zu-vertex %s: GPU against the CPU "
                    "reference\n",
                    keyStrokeName.c_str(), keySize,
                    isSphere ? "sphere (the built-in mesh's, subdivided)" : "ball (random order)");
        TruthProbes keyProbes;
        if (s.probeCount) {
            std::vector<glm::vec3> points;
            for (uint32_t index : workload->probes) points.push_back(workload->vertices[index]);
            keyProbes = computeTruthProbes(key.move, points);
        }
        MeasureContext keyContext = s.context;
        keyContext.move = &key.move;
        keyContext.stroke = strokeLabel(keyArgs);
        keyContext.probes = s.probeCount ? &keyProbes : nullptr;
        const std::vector<BenchRecord> rows =
            select(s.bench, s.bench.measure("key", keyContext, *workload, options, kAllBackends));
        std::printf("\n%s", recordsTable(rows).c_str());
        double gpuRate = kNoValue, oneRate = kNoValue, allRate = kNoValue;
        for (const BenchRecord& r : rows)
            (r.backend == Backend::Gpu ? gpuRate : r.backend == Backend::CpuOne ? oneRate : allRate) =
                r.vertsPerSecond;
        std::printf("key figure (%s): GPU / CPU-1 = %.3f, GPU / CPU-%u = %.3f (throughput ratios, same run)\n\n",
                    workload->name.c_str(), gpuRate / oneRate, s.allThreads, gpuRate / allRate);
        s.summary[isSphere ? "key" : "key_ball"] = {
            {"stroke", keyContext.stroke}, {"workload", workload->name}, {"method", "bs32"}, {"tol", 0.1},
            {"vertices", keySize}, {"gpu_over_cpu1", gpuRate / oneRate},
            {"gpu_over_cpuN", gpuRate / allRate}, {"cpuN_threads", s.allThreads}};
    }
}

// The work-precision sweep on the CPU reference; returns its JSON summary.
nlohmann::json runWorkPrecision(BenchSession& s, const std::vector<Method>& methods, size_t sweepMost) {
    WorkPrecisionOptions sweepOptions;
    sweepOptions.methods = methods;
    sweepOptions.threads = s.allThreads;
    const std::vector<glm::vec3> start = sweepVertices(s.in.voxels, sweepMost);
    const WorkPrecision sweep = sweepWorkPrecision(s.in.move, start, sweepOptions);
    std::printf("\n%s\n", workPrecisionTable(sweep).c_str());
    nlohmann::json workPrecision = workPrecisionJson(sweep);
    workPrecision.erase("points"); // they are records
    for (BenchRecord& r : workPrecisionRecords(sweep, s.in.move, s.context.cpuDevice, s.context.stroke))
        s.bench.records().push_back(r);
    if (!s.args.chartPath.empty()) {
        nlohmann::json records = nlohmann::json::array();
        for (const BenchRecord& r : s.bench.records()) records.push_back(recordJson(r));
        const bool affine = !s.in.stroke.tools.empty() && s.in.stroke.tools.front().kind == ToolKind::Affine;
        char title[64];
        std::snprintf(title, sizeof title, " (%s, %zu vertices)", affine ? "affine" : "Kelvinlet", start.size());
        writeSvg(workPrecisionChart(records, "Work–precision: " + s.in.description + title), s.args.chartPath);
        std::printf("wrote %s\n", s.args.chartPath.c_str());
    }
    return workPrecision;
}

} // namespace sculptflow::cli
