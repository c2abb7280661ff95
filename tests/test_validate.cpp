// `sculptflow validate`: its checks, its JSON and exit status, and its progress ticker.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sculptflow/default_case.hpp>
#include "src/kernel.hpp"
#include "host/context_impl.hpp"
#include "cli_runner.hpp"
#include "commands.hpp"
#include "move_inputs.hpp"
#include "progress_bar.hpp"
#include "test_support.hpp"
#include "validation.hpp"

namespace sculptflow {
namespace {

using namespace std::chrono_literals;

// One validated context per test, gone before the next: volk's device table is
// global, so two contexts must never be alive at once (the CLI makes its own).
struct ValidatedGpu {
    Context context{ContextOptions{.validation = test::validate()}};
    GpuSolver solver{context};
};

// The built-in sphere with fewer vertices (10·4^n + 2), where defaultMesh puts it, in voxels.
std::vector<glm::vec3> smallerSphere(const Stroke& stroke, int subdivisions) {
    const ToolStroke& tool = stroke.tools.front();
    Mesh mesh = icosphere(subdivisions, glm::vec3(tool.poses.front().position), float(0.3 * tool.outerRadius));
    std::vector<glm::vec3> voxels;
    for (const glm::vec3& p : mesh.positions) voxels.push_back(glm::vec3(glm::dvec3(p) / stroke.voxelSize));
    return voxels;
}

cli::ValidationReport validateInputs(const cli::MoveInputArgs& args, Method method, double tolerance,
                                     const cli::ValidationThresholds& thresholds, int subdivisions) {
    const int lateBefore = lateValidationMessages();
    cli::MoveInputs in = cli::loadMoveInputs(args);
    in.voxels = smallerSphere(in.stroke, subdivisions);
    SolverOptions options;
    options.method = method;
    options.tolerance = tolerance;
    cli::ValidationReport report;
    {
        ValidatedGpu gpu;
        report = cli::validateMove(gpu.solver, in.move, in.voxels, options, 0, thresholds);
        EXPECT_NO_THROW(gpu.context.throwOnValidationMessages());
    }
    EXPECT_EQ(lateValidationMessages(), lateBefore);
    std::printf("  %-28s %-5s tol %-4g p99 %.5f max %.5f voxel vs CPU, flags differ %zu; "
                "truth max %.4f mean %.5f voxel, flagged %zu\n",
                args.strokePath.empty() ? "built-in" : args.strokePath.c_str(), report.method.c_str(), tolerance,
                report.reference.p99Difference, report.reference.maxDifference, report.reference.flagMismatches,
                report.truth.maxError, report.truth.meanError, report.truth.flagged);
    return report;
}

// Runs `sculptflow <args>` in-process.
void runCli(const std::vector<std::string>& args) { test::runCli(&cli::addValidateCommand, args); }

using test::readJson;

// A 642-vertex sphere where the built-in mesh sits, for command-line runs that need no more.
std::filesystem::path writeSmallSphere(const test::ScratchDir& dir) {
    const Stroke stroke = defaultStroke();
    const ToolStroke& tool = stroke.tools.front();
    std::filesystem::path path = dir / "sphere.ply";
    writeMesh(icosphere(3, glm::vec3(tool.poses.front().position), float(0.3 * tool.outerRadius)), path);
    return path;
}

TEST(Validate, ReferenceCheckUsesThe99thPercentileAndFlagAgreement) {
    const size_t n = 1000;
    std::vector<glm::vec3> gpu(n, glm::vec3(1.0f, 2.0f, 3.0f)), cpu = gpu;
    std::vector<VertexStatistics> gpuStats(n), cpuStats(n);
    const cli::ValidationThresholds thresholds; // 0.01 voxel, 99.9 %
    cli::TruthComparison covered; // the value checks count only over compared vertices
    covered.compared = covered.integrated = covered.inReach = n;

    // Ten vertices (1 %) half a voxel apart: the max sees them, the 99th percentile does not.
    for (size_t i = 0; i < 10; ++i) gpu[i].x += 0.5f;
    cli::ReferenceComparison r = cli::compareWithReference(gpu, gpuStats, cpu, cpuStats);
    EXPECT_EQ(r.compared, n);
    EXPECT_NEAR(r.maxDifference, 0.5, 1e-6);
    EXPECT_EQ(r.p99Difference, 0.0);
    EXPECT_TRUE(cli::evaluateChecks(r, covered, thresholds)[0].passed);

    // Eleven are more than 1 %: the percentile reaches them and the check fails.
    gpu[10].x += 0.5f;
    r = cli::compareWithReference(gpu, gpuStats, cpu, cpuStats);
    EXPECT_NEAR(r.p99Difference, 0.5, 1e-6);
    EXPECT_FALSE(cli::evaluateChecks(r, covered, thresholds)[0].passed);

    // One flag in a thousand differs: 99.9 % agree, which passes; two fail. Flagged
    // vertices are left out of the position comparison.
    gpu = cpu;
    gpuStats[500].flags = kernel::kFlagIterationCap;
    gpu[500].x += 7.0f;
    r = cli::compareWithReference(gpu, gpuStats, cpu, cpuStats);
    EXPECT_EQ(r.compared, n - 1);
    EXPECT_EQ(r.maxDifference, 0.0);
    EXPECT_EQ(r.flagMismatches, 1u);
    EXPECT_TRUE(cli::evaluateChecks(r, covered, thresholds)[1].passed);
    cpuStats[501].flags = kernel::kFlagMinStepClamped;
    r = cli::compareWithReference(gpu, gpuStats, cpu, cpuStats);
    EXPECT_EQ(r.flagMismatches, 2u);
    EXPECT_FALSE(cli::evaluateChecks(r, covered, thresholds)[1].passed);

    // Culled on both is compared; a non-finite result on an unflagged vertex fails.
    gpuStats.assign(n, {kernel::kFlagCulled, 0, 0, 0});
    cpuStats = gpuStats;
    gpu = cpu;
    gpu[3].y = std::numeric_limits<float>::quiet_NaN();
    r = cli::compareWithReference(gpu, gpuStats, cpu, cpuStats);
    EXPECT_EQ(r.compared, n);
    EXPECT_EQ(r.maxDifference, std::numeric_limits<double>::infinity());
}

TEST(Validate, TruthCheckLeavesOutFlaggedAndUnconvergedVertices) {
    std::vector<glm::vec3> gpu = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
    std::vector<glm::dvec3> truth = {{0, 0, 0.05}, {1, 0, 0.15}, {2, 0, 5.0}, {3, 0, 9.0}};
    std::vector<VertexStatistics> stats(4);
    stats[2].flags = kernel::kFlagMinStepClamped;
    for (VertexStatistics& s : stats) s.evaluations = 10; // all in reach
    std::vector<bool> converged = {true, true, true, false};
    cli::TruthComparison t = cli::compareWithTruth(gpu, stats, truth, converged);
    EXPECT_EQ(t.compared, 2u);
    EXPECT_EQ(t.integrated, 2u);
    EXPECT_EQ(t.inReach, 4u);
    EXPECT_EQ(t.flagged, 1u);
    EXPECT_EQ(t.notConverged, 1u);
    EXPECT_NEAR(t.maxError, 0.15, 1e-12);
    EXPECT_NEAR(t.meanError, 0.10, 1e-12);
    cli::ValidationThresholds thresholds;
    thresholds.truth = 0.1;
    EXPECT_FALSE(cli::evaluateChecks({}, t, thresholds)[2].passed);
    thresholds.truth = 0.15;
    EXPECT_TRUE(cli::evaluateChecks({}, t, thresholds)[2].passed);
}

TEST(Validate, TooFewComparedVerticesIsNotCheckedWhateverTheValues) {
    // Four vertices, all flagged: every error is 0, and that proves nothing.
    std::vector<glm::vec3> gpu(4, glm::vec3(1.0f));
    std::vector<glm::dvec3> truth(4, glm::dvec3(1.0));
    std::vector<VertexStatistics> stats(4, {kernel::kFlagIterationCap, 0, 0, 64});
    cli::TruthComparison t = cli::compareWithTruth(gpu, stats, truth, std::vector<bool>(4, true));
    EXPECT_EQ(t.integrated, 0u);
    EXPECT_EQ(t.flagged, 4u);
    cli::ValidationReport report;
    report.truth = t;
    report.checks = cli::evaluateChecks(cli::compareWithReference(gpu, stats, gpu, stats), t, {});
    EXPECT_FALSE(report.passed());
    EXPECT_FALSE(report.checked());
    EXPECT_STREQ(report.verdict(), "NOT CHECKED");
    for (const cli::ValidationCheck& c : report.checks) EXPECT_FALSE(c.passed) << c.name;

    // All culled (never integrated): compared, unmoved, and still nothing in reach.
    stats.assign(4, {kernel::kFlagCulled, 0, 0, 0});
    t = cli::compareWithTruth(gpu, stats, truth, std::vector<bool>(4, true));
    EXPECT_EQ(t.compared, 4u);
    EXPECT_EQ(t.integrated, 0u);
    report.checks = cli::evaluateChecks(cli::compareWithReference(gpu, stats, gpu, stats), t, {});
    EXPECT_STREQ(report.verdict(), "NOT CHECKED");

    // One in reach and unflagged: checked, and it passes.
    stats[0] = {0, 1, 0, 7};
    t = cli::compareWithTruth(gpu, stats, truth, std::vector<bool>(4, true));
    EXPECT_EQ(t.integrated, 1u);
    report.checks = cli::evaluateChecks(cli::compareWithReference(gpu, stats, gpu, stats), t, {});
    EXPECT_STREQ(report.verdict(), "PASS");
}

TEST(Validate, FlaggedShareAboveTheThresholdFailsItsOwnCheck) {
    std::vector<glm::vec3> gpu(100, glm::vec3(1.0f));
    std::vector<glm::dvec3> truth(100, glm::dvec3(1.0));
    std::vector<VertexStatistics> stats(100, {0, 1, 0, 7});
    for (size_t i = 0; i < 6; ++i) stats[i].flags = kernel::kFlagMinStepClamped; // 6 % of those in reach
    const cli::TruthComparison t = cli::compareWithTruth(gpu, stats, truth, std::vector<bool>(100, true));
    EXPECT_NEAR(t.flaggedShare(), 0.06, 1e-12);
    cli::ValidationThresholds thresholds; // 5 %
    auto share = [&] {
        for (const cli::ValidationCheck& c : cli::evaluateChecks({}, t, thresholds))
            if (c.name == "flagged_share") return c;
        ADD_FAILURE() << "no flagged_share check";
        return cli::ValidationCheck{};
    };
    EXPECT_FALSE(share().passed);
    thresholds.flaggedShare = 0.1;
    EXPECT_TRUE(share().passed);
}

// --voxel-size 1e-9 makes the tool enormous in voxels: every vertex hits the
// iteration cap, no vertex is compared, and that must not read as a PASS.
TEST(Validate, AllCappedExitsNonZeroAndSaysNothingWasChecked) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto mesh = writeSmallSphere(dir);
    const auto json = dir / "validate.json";
    testing::internal::CaptureStdout();
    const auto [status, errors] = test::cliExitStatus(
        {"validate", "--mesh", mesh.string(), "--voxel-size", "1e-9", "--json", json.string()});
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(status, 1) << errors;
    EXPECT_NE(out.find("NOT CHECKED: 0 vertices were compared"), std::string::npos) << out;
    EXPECT_EQ(out.find("PASS:"), std::string::npos) << out;
    nlohmann::json j = readJson(json);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["passed"], false);
    EXPECT_EQ(j["verdict"], "NOT CHECKED");
    EXPECT_EQ(j["compared_vertices"], 0);
    EXPECT_GT(j["flags"]["gpu"]["iteration_cap"].get<int>(), 0);
    for (const auto& check : j["checks"]) EXPECT_EQ(check["passed"], false) << check.dump();
}

class ValidateRecording : public testing::TestWithParam<const char*> {};

// On the built-in sphere with 2,562 vertices instead of 10,242, to stay fast; the
// full-size sphere runs through the command line below.
TEST_P(ValidateRecording, KelvinletPassesWithDefaultThresholds) {
    SF_REQUIRE_VULKAN();
    SF_REQUIRE_RECORDING(path, GetParam());
    cli::MoveInputArgs args;
    args.strokePath = path.string();
    args.kind = "kelvinlet";
    for (Method method : {Method::Bs32, Method::Dp45}) {
        cli::ValidationThresholds thresholds;
        thresholds.truth = 0.1; // = the tolerance, as the command's default
        cli::ValidationReport report = validateInputs(args, method, 0.1, thresholds, 4);
        EXPECT_TRUE(report.passed()) << methodName(method) << ": " << validationJson(report).dump(2);
        EXPECT_EQ(report.vertices, 2562u);
        EXPECT_GT(report.truth.compared, report.vertices / 2) << methodName(method);
        EXPECT_GT(report.gpu.meanEvaluations(), 0.0);
        EXPECT_LE(long(report.gpu.maxEvaluations), report.worstCaseEvaluations);
    }
}

INSTANTIATE_TEST_SUITE_P(Validate, ValidateRecording,
                         testing::Values("test0_righthandstroke.bin", "test1_lefthandstroke.bin",
                                         "test1_righthandstroke.bin"),
                         [](const testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             return name.substr(0, name.find('.'));
                         });

TEST(Validate, LooseToleranceFailsTheTruthCheck) {
    SF_REQUIRE_VULKAN();
    cli::ValidationThresholds thresholds;
    thresholds.truth = 0.1;
    cli::ValidationReport report = validateInputs({}, Method::Bs32, 3.0, thresholds, 4);
    EXPECT_FALSE(report.passed());
    EXPECT_GT(report.truth.maxError, 0.1);
    std::vector<std::string> failed = report.failedChecks();
    EXPECT_NE(std::find(failed.begin(), failed.end(), "truth_max_error"), failed.end());
}

TEST(Validate, BuiltInCasePassesThroughTheCliAndWritesJson) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto json = dir / "validate.json";
    ASSERT_NO_THROW(runCli({"validate", "--json", json.string()}));
    nlohmann::json j = readJson(json);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["passed"], true);
    EXPECT_TRUE(j["failed_checks"].empty());
    ASSERT_EQ(j["checks"].size(), 5u); // the three value checks, compared_vertices and flagged_share
    EXPECT_EQ(j["verdict"], "PASS");
    EXPECT_GT(j["compared_vertices"].get<int>(), 1000);
    for (const auto& check : j["checks"]) EXPECT_EQ(check["passed"], true) << check.dump();
    EXPECT_EQ(j["input"]["vertices"], 10242);
    EXPECT_EQ(j["input"]["method"], "bs32");
    EXPECT_EQ(j["input"]["tolerance_voxels"], 0.1);
    EXPECT_FALSE(j["device"].get<std::string>().empty());

    const auto& reference = j["gpu_vs_cpu"];
    EXPECT_LE(reference["max_difference_voxels"].get<double>(), 0.1);
    EXPECT_LE(reference["p99_difference_voxels"].get<double>(), 0.01);
    EXPECT_LE(reference["p99_difference_voxels"].get<double>(), reference["max_difference_voxels"].get<double>());
    EXPECT_EQ(reference["flag_mismatches"], 0);
    EXPECT_EQ(reference["flag_mismatch_rate"], 0.0);
    const auto& truth = j["gpu_vs_truth"];
    EXPECT_LE(truth["max_error_voxels"].get<double>(), 0.1);
    EXPECT_GT(truth["mean_error_voxels"].get<double>(), 0.0);
    EXPECT_EQ(truth["compared_vertices"], 10242);
    for (const char* flag : {"min_step_clamped", "iteration_cap", "non_finite", "culled"})
        EXPECT_TRUE(j["flags"]["gpu"][flag].is_number()) << flag;
    EXPECT_GT(j["evaluations_per_vertex"]["gpu"]["mean"].get<double>(), 0.0);
    EXPECT_GT(j["evaluations_per_vertex"]["gpu"]["max"].get<int>(), 0);
    EXPECT_TRUE(j["time_ms"]["gpu_timestamps"].is_number() || j["time_ms"]["gpu_timestamps"].is_null());
    EXPECT_GT(j["time_ms"]["cpu_reference_wall"].get<double>(), 0.0);
    EXPECT_GT(j["time_ms"]["ground_truth_wall"].get<double>(), 0.0);
}

TEST(Validate, LooseToleranceExitsWithStatus1AndTheJsonNamesTheCheck) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto mesh = writeSmallSphere(dir);
    const auto json = dir / "validate.json";
    try {
        runCli({"validate", "--mesh", mesh.string(), "--tol", "3", "--truth-threshold", "0.1", "--json",
                json.string()});
        ADD_FAILURE() << "validate passed at tol 3 against a 0.1 voxel truth threshold";
    } catch (const CLI::RuntimeError& e) {
        EXPECT_EQ(e.get_exit_code(), 1);
    }
    nlohmann::json j = readJson(json);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["passed"], false);
    EXPECT_NE(std::find(j["failed_checks"].begin(), j["failed_checks"].end(), "truth_max_error"),
              j["failed_checks"].end());
    for (const auto& check : j["checks"])
        if (check["name"] == "truth_max_error") {
            EXPECT_EQ(check["passed"], false);
            EXPECT_EQ(check["threshold"], 0.1);
            EXPECT_GT(check["value"].get<double>(), 0.1);
        }
    EXPECT_EQ(j["input"]["vertices"], 642);
    EXPECT_EQ(j["input"]["tolerance_voxels"], 3.0);
}

// The ticker's output, read back from a temporary file standing in for stderr.
std::string tickerOutput(bool enabled, std::chrono::milliseconds delay, std::chrono::milliseconds work) {
    std::FILE* file = std::tmpfile();
    EXPECT_NE(file, nullptr);
    if (!file) return {};
    EXPECT_FALSE(cli::ProgressTicker::isTerminal(file));
    {
        cli::ProgressTicker ticker(file, enabled, delay);
        ticker.stage("ground truth");
        std::this_thread::sleep_for(work);
    }
    std::string text;
    std::rewind(file);
    for (int c; (c = std::fgetc(file)) != EOF;) text += char(c);
    std::fclose(file);
    return text;
}

TEST(Validate, ProgressTickerIsSilentWhenDisabledOrTheWorkIsShort) {
    EXPECT_EQ(tickerOutput(false, 0ms, 300ms), "");
    EXPECT_EQ(tickerOutput(true, 10s, 300ms), "");
}

TEST(Validate, ProgressTickerShowsTheStageThenErasesItsLine) {
    std::string text = tickerOutput(true, 0ms, 400ms);
    EXPECT_NE(text.find("ground truth"), std::string::npos) << text;
    EXPECT_NE(text.find(" s"), std::string::npos) << text;
    // Ends by overwriting the line with spaces and returning to its start.
    ASSERT_GE(text.size(), 2u);
    EXPECT_EQ(text.back(), '\r');
    size_t lastLine = text.rfind('\r', text.size() - 2);
    ASSERT_NE(lastLine, std::string::npos);
    std::string erased = text.substr(lastLine + 1, text.size() - lastLine - 2);
    EXPECT_FALSE(erased.empty());
    EXPECT_EQ(erased.find_first_not_of(' '), std::string::npos) << text;
}

} // namespace
} // namespace sculptflow
