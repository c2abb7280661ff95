// The benchmark suite (`sculptflow bench`): its workloads, FLOP count and peaks,
// and a small run in-process whose JSON records are checked against the solver.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "src/kernel_tools.hpp"
#include "cli_runner.hpp"
#include "commands.hpp"
#include "test_support.hpp"
#include "throughput.hpp"

namespace sculptflow {
namespace {

using Json = nlohmann::json;

// Runs `sculptflow bench <args>` in-process.
void runBench(const std::vector<std::string>& args) {
    std::vector<std::string> all{"bench"};
    all.insert(all.end(), args.begin(), args.end());
    test::runCli(&cli::addBenchCommand, all);
}

using test::readJson;

std::vector<double> internalTolerances() {
    return cli::everyMethodsInternalTolerance(moveToolMotion(defaultStroke()), {});
}

TEST(Bench, FlopsPerEvaluationAreEachToolsOwnCountSummed) {
    Stroke stroke = defaultStroke();
    const Move kelvinlet = moveToolMotion(stroke);
    ASSERT_EQ(stroke.tools.front().profile, KelvinletProfile::BiScale);
    EXPECT_EQ(cli::flopsPerEvaluation(kelvinlet), 97.0);
    stroke.tools.front().kind = ToolKind::Affine;
    EXPECT_EQ(cli::flopsPerEvaluation(moveToolMotion(stroke)), 30.0);
    stroke.tools.push_back(defaultStroke().tools.front());
    EXPECT_EQ(cli::flopsPerEvaluation(moveToolMotion(stroke)), 127.0);
    // Each profile has its own count, and the named list is the same function's.
    stroke = defaultStroke();
    stroke.tools.front().profile = KelvinletProfile::TriScale;
    const std::vector<std::pair<std::string, double>> byShape = cli::flopsPerEvaluationByShape();
    EXPECT_EQ(byShape.at(1).first, "kelvinlet tri-scale");
    EXPECT_EQ(cli::flopsPerEvaluation(moveToolMotion(stroke)), byShape.at(1).second);
}

TEST(Bench, PeakFlopsOfLavapipeAndOfTheReadmesGpus) {
    std::optional<test::ScopedEnv> threads(std::in_place, "LP_NUM_THREADS", nullptr);
    EXPECT_NEAR(cli::devicePeakFlops("llvmpipe (LLVM 15.0.6, 256 bits)", 2, 2.6).gflops, 2 * 8 * 2 * 2.6, 1e-9);
    EXPECT_NEAR(cli::devicePeakFlops("llvmpipe (LLVM 15.0.6, 128 bits)", 4, 3.0).gflops, 4 * 4 * 2 * 3.0, 1e-9);
    threads.emplace("LP_NUM_THREADS", "3");
    EXPECT_NEAR(cli::devicePeakFlops("llvmpipe (LLVM 15.0.6, 256 bits)", 2, 2.0).gflops, 3 * 8 * 2 * 2.0, 1e-9);
    threads.reset();
    EXPECT_TRUE(std::isnan(cli::devicePeakFlops("llvmpipe (LLVM 15.0.6, 256 bits)", 2, NAN).gflops));

    EXPECT_EQ(cli::devicePeakFlops("NVIDIA H100 80GB HBM3", 16, 2.0).gflops, 67000.0);
    EXPECT_EQ(cli::devicePeakFlops("NVIDIA H100 PCIe", 16, 2.0).gflops, 51200.0);
    EXPECT_EQ(cli::devicePeakFlops("NVIDIA H200", 16, 2.0).gflops, 67000.0);
    EXPECT_EQ(cli::devicePeakFlops("NVIDIA H200 NVL", 16, 2.0).gflops, 60000.0);
    const cli::PeakFlops unknown = cli::devicePeakFlops("AMD Radeon RX 7900", 16, 2.0);
    EXPECT_TRUE(std::isnan(unknown.gflops));
    EXPECT_NE(unknown.source.find("--peak-gflops"), std::string::npos);
}

// The key figure's sphere is the built-in mesh's, subdivided: every vertex on
// it, in the order the subdivision made them (a coarser sphere's vertices first).
TEST(Bench, SphereWorkloadIsTheBuiltInSphereInMeshOrder) {
    const Move move = moveToolMotion(defaultStroke());
    const ToolMotion& tool = move.tools.front();
    const float radius = float(kDefaultSphereRadius * tool.outerRadius);
    const cli::Workload w = cli::sphereWorkload(move, 3000, 16);
    ASSERT_EQ(w.vertices.size(), 3000u);
    EXPECT_EQ(w.activeVertices, 3000u);
    EXPECT_EQ(w.probes.size(), 16u);
    for (const glm::vec3& v : w.vertices) ASSERT_NEAR(glm::length(v - glm::vec3(tool.origin)), radius, 1e-3f * radius);
    const Mesh coarse = icosphere(3, glm::vec3(tool.origin), radius); // 642 vertices
    for (size_t i = 0; i < coarse.positions.size(); ++i)
        ASSERT_LT(glm::length(w.vertices[i] - coarse.positions[i]), 1e-4f * radius) << i;
    EXPECT_THROW(cli::sphereWorkload(Move{}, 10, 0), Error);
}

// A partly active workload holds exactly the ball's first points, which are
// integrated as when alone, and every other vertex is culled.
TEST(Bench, PartlyActiveWorkloadIsTheBallPlusCulledVertices) {
    const Move move = moveToolMotion(defaultStroke());
    const cli::Workload alone = cli::ballWorkload(move, 150, 150);
    const CpuSolution aloneRun = solveOnCpu(move, alone.vertices, {});
    EXPECT_EQ(aloneRun.report.culled, 0u);
    for (cli::Layout layout : {cli::Layout::Scattered, cli::Layout::Clustered}) {
        SCOPED_TRACE(std::string(cli::layoutName(layout)));
        const cli::Workload w = cli::partlyActiveWorkload(move, 3000, 0.05, layout, 1000, internalTolerances());
        ASSERT_EQ(w.vertices.size(), 3000u);
        EXPECT_EQ(w.activeVertices, 150u);
        ASSERT_EQ(w.probes.size(), 150u); // every active vertex, as asked for more probes than there are
        for (size_t k = 0; k < w.probes.size(); ++k) EXPECT_EQ(w.vertices[w.probes[k]], alone.vertices[k]) << k;
        const std::set<uint32_t> distinct(w.probes.begin(), w.probes.end());
        EXPECT_EQ(distinct.size(), w.probes.size());
        if (layout == cli::Layout::Clustered) {
            EXPECT_EQ(*distinct.rbegin(), 149u);
        } else {
            EXPECT_GT(*distinct.rbegin(), 1000u); // spread through the order
        }

        SolverOptions options;
        options.method = Method::Dp45; // the smallest internal tolerance: the hardest to cull
        const CpuSolution run = solveOnCpu(move, w.vertices, options);
        EXPECT_EQ(run.report.culled, 2850u);
        const CpuSolution aloneDp45 = solveOnCpu(move, alone.vertices, options);
        EXPECT_EQ(run.report.evaluations, aloneDp45.report.evaluations);
        for (size_t k = 0; k < w.probes.size(); ++k)
            EXPECT_EQ(run.positions[w.probes[k]], aloneDp45.positions[k]) << k;
    }
    EXPECT_TRUE(test::failsWith([&] { cli::partlyActiveWorkload(move, 100, 0.0, cli::Layout::Clustered, 1, {}); },
                                {"active fraction"}));
}

// One record per measurement, every field there, figures consistent with the solver.
TEST(Bench, QuickRunWritesOneRecordPerMeasurement) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const std::filesystem::path out = dir / "bench.json", chart = dir / "scaling.svg";
    ASSERT_NO_THROW(runBench({"--quick", "--no-chart", "--method-sizes", "1000", "--sizes", "1000,20000",
                              "--key-size", "3000", "--probes", "64", "--repeats", "1", "--json", out.string(),
                              "--scaling-chart", chart.string()}));
    const Json doc = readJson(out);
    ASSERT_TRUE(doc.is_object());
    const Json& records = doc["records"];
    ASSERT_TRUE(records.is_array());
    EXPECT_EQ(doc["flops_per_eval"]["kelvinlet bi-scale"], cli::flopsPerEvaluation(moveToolMotion(defaultStroke())));
    EXPECT_TRUE(doc["peak_gflops"].is_number()) << "lavapipe's peak comes from /proc/cpuinfo";

    using Key = std::tuple<std::string, std::string, size_t, std::string, std::string>;
    std::map<Key, Json> byKey;
    const std::set<std::string> methods{"rk4", "rk4dbl", "bs32", "dp45", "tsit5"}, backends{"gpu", "cpu1", "cpuN"};
    for (const Json& r : records) {
        for (const char* field : {"method", "backend", "device", "vertices", "active", "verts_per_s", "evals_mean",
                                  "max_err_vox", "stroke", "workload", "tol", "gflops", "ms", "gpu_ms", "evaluations",
                                  "flops_per_eval", "peak_gflops", "runs"})
            ASSERT_TRUE(r.contains(field)) << field << " in " << r.dump();
        EXPECT_TRUE(methods.count(r["method"])) << r.dump();
        EXPECT_TRUE(backends.count(r["backend"])) << r.dump();
        EXPECT_FALSE(r["device"].get<std::string>().empty());
        EXPECT_TRUE(r["verts_per_s"].is_number() && r["verts_per_s"] > 0.0) << r.dump();
        EXPECT_TRUE(r["max_err_vox"].is_number()) << "every workload here has probes: " << r.dump();
        EXPECT_EQ(r["gpu_ms"].is_number(), r["backend"] == "gpu");
        EXPECT_EQ(r["peak_gflops"].is_number(), r["backend"] == "gpu");
        // gflops = FLOPs per evaluation × evaluations / time.
        const double seconds = r["ms"].get<double>() * 1e-3;
        EXPECT_NEAR(r["gflops"].get<double>(),
                    r["flops_per_eval"].get<double>() * r["evaluations"].get<double>() / seconds * 1e-9,
                    1e-9 * r["gflops"].get<double>());
        EXPECT_NEAR(r["evals_mean"].get<double>() * r["vertices"].get<double>(), r["evaluations"].get<double>(), 0.5);
        const Key key{r["stroke"], r["workload"], r["vertices"], r["method"], r["backend"]};
        EXPECT_TRUE(byKey.emplace(key, r).second) << "measured twice: " << r.dump();
        if (r["method"] != "rk4") {
            EXPECT_LE(r["max_err_vox"].get<double>(), r["tol"].get<double>()) << r.dump();
        }
        const std::string workload = r["workload"];
        if (workload == "ball" || workload == "sphere") {
            EXPECT_EQ(r["active"], 1.0);
        } else {
            EXPECT_TRUE(r["active"] >= 0.04 && r["active"] <= 0.06) << r.dump();
        }
    }

    const Move move = moveToolMotion(defaultStroke());
    const cli::Workload ball = cli::ballWorkload(move, 1000, 0);
    auto find = [&](const std::string& stroke, const std::string& workload, size_t n, const std::string& method,
                    const std::string& backend) -> const Json* {
        auto it = byKey.find(Key{stroke, workload, n, method, backend});
        return it == byKey.end() ? nullptr : &it->second;
    };
    // The per-method table: every method on every backend. The CPU reference is
    // deterministic, so its evaluations are the solver's exactly.
    for (const std::string& method : methods) {
        SolverOptions options;
        options.method = *parseMethod(method);
        const double evals = solveOnCpu(move, ball.vertices, options).report.meanEvaluations();
        for (const std::string& backend : backends) {
            const Json* r = find("built-in", "ball", 1000, method, backend);
            ASSERT_NE(r, nullptr) << method << " " << backend;
            if (backend != "gpu") {
                EXPECT_EQ((*r)["evals_mean"].get<double>(), evals) << method << " " << backend;
            } else {
                EXPECT_NEAR((*r)["evals_mean"].get<double>(), evals, 0.02 * evals) << method;
            }
        }
    }
    // The GPU's evaluations are its own report's.
    {
        Context context(ContextOptions{.validation = test::validate()});
        GpuSolver solver(context);
        const GpuSolution gpu = solveOnGpu(solver, move, ball.vertices, {});
        EXPECT_EQ((*find("built-in", "ball", 1000, "bs32", "gpu"))["evals_mean"].get<double>(),
                  gpu.report.meanEvaluations());
    }

    // The scaling curve: the ball and both 5% layouts at both sizes, on the GPU.
    for (size_t n : {size_t(1000), size_t(20'000)})
        for (const char* workload : {"ball", "ball 5% active, scattered", "ball 5% active, clustered"})
            EXPECT_NE(find("built-in", workload, n, "bs32", "gpu"), nullptr) << workload << " " << n;
    const Json* scattered = find("built-in", "ball 5% active, scattered", 20'000, "bs32", "cpu1");
    EXPECT_EQ(scattered, nullptr) << "the scaling curve is GPU-only by default";
    {
        const cli::Workload w = cli::partlyActiveWorkload(move, 20'000, 0.05, cli::Layout::Scattered, 0,
                                                          internalTolerances());
        const double evals = solveOnCpu(move, w.vertices, {}).report.meanEvaluations();
        EXPECT_NEAR((*find("built-in", "ball 5% active, scattered", 20'000, "bs32", "gpu"))["evals_mean"].get<double>(),
                    evals, 0.02 * evals);
    }
    // The 5%-of-20000 against the same 1000 alone, per layout: the summary's ratios are the records'.
    const Json& partly = doc["summary"]["partly_active"];
    ASSERT_EQ(partly.size(), 2u) << doc["summary"].dump();
    for (const Json& p : partly) {
        EXPECT_EQ(p["vertices"], 20'000);
        EXPECT_EQ(p["alone_vertices"], 1000);
        const Json* part = find("built-in", p["workload"], 20'000, "bs32", "gpu");
        const Json* alone = find("built-in", "ball", 1000, "bs32", "gpu");
        ASSERT_TRUE(part && alone);
        EXPECT_NEAR(p["time_ratio"].get<double>(), (*part)["ms"].get<double>() / (*alone)["ms"].get<double>(), 1e-9);
    }

    // The key figure: bs32 at tol 0.1 on test0 as a Kelvinlet (or the built-in stroke), three backends.
    const Json& key = doc["summary"]["key"];
    ASSERT_TRUE(key.is_object());
    EXPECT_EQ(key["vertices"], 3000);
    const std::string keyStroke = key["stroke"];
    if (test::recordedStroke("test0_righthandstroke.bin")) {
        EXPECT_NE(keyStroke.find("test0_righthandstroke.bin"), std::string::npos) << keyStroke;
    }
    // On the sphere (mesh order) and, beside it, the ball (random order).
    for (const char* summaryName : {"key", "key_ball"}) {
        const Json& figure = doc["summary"][summaryName];
        ASSERT_TRUE(figure.is_object()) << summaryName;
        const std::string workload = figure["workload"];
        EXPECT_EQ(workload, std::string(summaryName) == "key" ? "sphere" : "ball");
        const Json* keyGpu = find(keyStroke, workload, 3000, "bs32", "gpu");
        const Json* keyOne = find(keyStroke, workload, 3000, "bs32", "cpu1");
        ASSERT_TRUE(keyGpu && keyOne && find(keyStroke, workload, 3000, "bs32", "cpuN")) << workload;
        EXPECT_NEAR(figure["gpu_over_cpu1"].get<double>(),
                    (*keyGpu)["verts_per_s"].get<double>() / (*keyOne)["verts_per_s"].get<double>(), 1e-9);
        EXPECT_LE((*keyGpu)["max_err_vox"].get<double>(), 0.1) << workload;
    }

    std::string svg = test::readFile(chart);
    EXPECT_EQ(svg.find("<svg"), 0u) << svg.substr(0, 80);
    size_t polylines = 0;
    for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
    EXPECT_EQ(polylines, 3u); // gpu: the ball and both layouts
}

TEST(Bench, WithoutGpuAndRecordingTheCpuRecordsRemain) {
    test::ScratchDir dir;
    const std::filesystem::path out = dir / "bench.json";
    ASSERT_NO_THROW(runBench({"--no-gpu", "--no-chart", "--no-scaling", "--methods", "dp45", "--method-sizes", "300",
                              "--key-size", "300", "--probes", "16", "--key-stroke", (dir / "absent.bin").string(),
                              "--json", out.string()}));
    const Json doc = readJson(out);
    const Json& records = doc["records"];
    // dp45 cpu1 and cpuN; the key figure's bs32 cpu1 and cpuN on the sphere and on the ball
    ASSERT_EQ(records.size(), 6u) << records.dump(1);
    for (const Json& r : records) EXPECT_NE(r["backend"], "gpu");
    EXPECT_EQ(doc["summary"]["key"]["stroke"], "built-in (kelvinlet)");
    EXPECT_TRUE(doc["summary"]["key"]["gpu_over_cpu1"].is_null());
}

// Issue 47: a --chart the budget left no time for was skipped, and the run exited 0.
TEST(Bench, AChartTheBudgetLeftNoTimeForFailsTheRunAfterItsJson) {
    test::ScratchDir dir;
    const std::filesystem::path out = dir / "bench.json", chart = dir / "chart.svg";
    const auto [status, errors] =
        test::cliExitStatus({"bench", "--no-gpu", "--no-scaling", "--methods", "dp45", "--method-sizes", "300",
                             "--key-size", "300", "--probes", "16", "--key-stroke", (dir / "absent.bin").string(),
                             "--budget", "0.001", "--chart", chart.string(), "--json", out.string()});
    EXPECT_EQ(status, 1);
    EXPECT_NE(errors.find("--chart " + chart.string() + ": not written: the --budget of 0.001 s"), std::string::npos)
        << errors;
    EXPECT_FALSE(std::filesystem::exists(chart));
    EXPECT_TRUE(readJson(out).contains("records")); // what was measured is kept
}

} // namespace
} // namespace sculptflow
