// The bench's work–precision sweep, its SVG chart and a throughput smoke run.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include "src/demo_fixtures.hpp"
#include "svg_chart.hpp"
#include "test_support.hpp"
#include "throughput.hpp"
#include "tip_cases.hpp"
#include "work_precision.hpp"

namespace sculptflow {
namespace {

using cli::ChartSeries;
using cli::LogLogChart;
using cli::PrecisionPoint;
using cli::WorkPrecision;

// 324 vertices on two shells around the built-in tool's tip: near the tip, where
// paths twist most, and at 0.75 radii.
// One sweep shared by the tests (the ground truth is the slow part).
const WorkPrecision& smallSweep() {
    static const WorkPrecision sweep = [] {
        const Move move = moveToolMotion(defaultStroke());
        cli::WorkPrecisionOptions options;
        options.tolerances = {0.3, 0.1, 0.03, 0.01};
        options.fixedSteps = {8, 16};
        return cli::sweepWorkPrecision(move, test::spheresAroundTip(move.tools.front(), {0.3f, 0.75f}, 2), options);
    }();
    return sweep;
}

std::vector<PrecisionPoint> pointsOf(const WorkPrecision& sweep, Method method) {
    std::vector<PrecisionPoint> out;
    std::copy_if(sweep.points.begin(), sweep.points.end(), std::back_inserter(out),
                 [&](const PrecisionPoint& p) { return p.method == method; });
    return out;
}

TEST(WorkPrecision, AdaptiveErrorStaysWithinToleranceAndWorkRisesAsItFalls) {
    const WorkPrecision& sweep = smallSweep();
    EXPECT_EQ(sweep.vertices, 324u);
    EXPECT_EQ(sweep.truthUnconverged, 0u);
    for (Method method : {Method::Bs32, Method::Dp45}) {
        const std::vector<PrecisionPoint> points = pointsOf(sweep, method);
        ASSERT_EQ(points.size(), 4u) << methodName(method);
        for (size_t i = 0; i < points.size(); ++i) {
            std::printf("  %-5s tol %-5g max error %.5f voxel, %.1f evaluations\n",
                        std::string(methodName(method)).c_str(), points[i].tolerance, points[i].maxError,
                        points[i].meanEvaluations);
            // At most 1% flagged (left out): the error bound flags what it cannot certify.
            EXPECT_GE(100 * points[i].compared, 99 * sweep.vertices) << methodName(method) << " tol " << points[i].tolerance;
            EXPECT_GT(points[i].maxError, 0.0);
            EXPECT_LE(points[i].maxError, points[i].tolerance) << methodName(method) << " tol " << points[i].tolerance;
            if (i == 0) continue;
            EXPECT_GT(points[i].meanEvaluations, points[i - 1].meanEvaluations)
                << methodName(method) << " tol " << points[i].tolerance;
        }
        EXPECT_LT(points.back().maxError, points.front().maxError / 4.0) << methodName(method);
    }
}

TEST(WorkPrecision, FixedStepRk4IsFourthOrder) {
    const std::vector<PrecisionPoint> points = pointsOf(smallSweep(), Method::Rk4);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].fixedSteps, 8);
    EXPECT_EQ(points[1].fixedSteps, 16);
    EXPECT_DOUBLE_EQ(points[1].meanEvaluations, 2.0 * points[0].meanEvaluations);
    const double order = std::log2(points[0].maxError / points[1].maxError);
    std::printf("  rk4 max error %.5f (8 steps), %.5f (16 steps): order %.2f\n", points[0].maxError,
                points[1].maxError, order);
    EXPECT_NEAR(order, 4.0, 0.7);
}

TEST(WorkPrecision, ChartHasOnePolylineAndLegendEntryPerSeries) {
    const WorkPrecision& sweep = smallSweep();
    const LogLogChart chart = cli::workPrecisionChart(sweep, "built-in stroke");
    ASSERT_EQ(chart.series.size(), allMethods().size());
    test::ScratchDir dir;
    cli::writeSvg(chart, dir / "chart.svg");
    std::string svg = test::readFile(dir / "chart.svg");
    const size_t first = svg.find_first_not_of(" \t\r\n");
    const size_t last = svg.find_last_not_of(" \t\r\n");
    ASSERT_NE(first, std::string::npos);
    svg = svg.substr(first, last - first + 1);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_TRUE(svg.ends_with("</svg>"));

    size_t polylines = 0;
    for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1))
        ++polylines;
    EXPECT_EQ(polylines, chart.series.size());
    for (const char* name : {"rk4", "rk4dbl", "bs32", "dp45", "tsit5"})
        EXPECT_NE(svg.find(std::string(">") + name + "</text>"), std::string::npos) << name;
    EXPECT_NE(svg.find("0.1 voxel"), std::string::npos);
    EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
    EXPECT_NE(svg.find("built-in stroke"), std::string::npos);
}

TEST(WorkPrecision, SvgRefusesNonPositiveValuesOnLogAxes) {
    auto chartWith = [](double x, double y) {
        LogLogChart chart;
        chart.title = "t";
        chart.series.push_back(ChartSeries{"dp45", {{1.0, 1.0}, {x, y}}});
        return chart;
    };
    EXPECT_NO_THROW(cli::renderSvg(chartWith(10.0, 0.01)));
    EXPECT_TRUE(test::failsWith([&] { cli::renderSvg(chartWith(10.0, 0.0)); }, {"y", "dp45", "log axis"}));
    EXPECT_TRUE(test::failsWith([&] { cli::renderSvg(chartWith(-2.0, 1.0)); }, {"x", "dp45", "log axis"}));
    EXPECT_TRUE(test::failsWith([&] { cli::renderSvg(chartWith(NAN, 1.0)); }, {"x", "log axis"}));
    LogLogChart reference = chartWith(10.0, 0.01);
    reference.references.push_back({-0.1, "below zero"});
    EXPECT_TRUE(test::failsWith([&] { cli::renderSvg(reference); }, {"below zero", "log axis"}));
    EXPECT_TRUE(test::failsWith([] { cli::renderSvg(LogLogChart{}); }, {"no series"}));
}

TEST(WorkPrecision, SvgEscapesText) {
    LogLogChart chart;
    chart.title = "stroke <a & b>";
    chart.series.push_back(ChartSeries{"x\"y", {{1.0, 2.0}}});
    const std::string svg = cli::renderSvg(chart);
    EXPECT_NE(svg.find("stroke &lt;a &amp; b&gt;"), std::string::npos);
    EXPECT_NE(svg.find("x&quot;y"), std::string::npos);
}

TEST(WorkPrecision, ChartReadsTheBenchRecords) {
    // The chart drawn from the sweep and from its JSON records (as `bench --json` writes them) is the same.
    const WorkPrecision& sweep = smallSweep();
    const Move move = moveToolMotion(defaultStroke());
    nlohmann::json records = nlohmann::json::array();
    for (const cli::BenchRecord& r : cli::workPrecisionRecords(sweep, move, "cpu", "built-in"))
        records.push_back(cli::recordJson(r));
    ASSERT_EQ(records.size(), sweep.points.size());
    for (const nlohmann::json& r : records) {
        EXPECT_EQ(r["suite"], "work_precision");
        EXPECT_EQ(r["backend"], "cpuN");
        EXPECT_EQ(r["vertices"], sweep.vertices);
        EXPECT_TRUE(r["verts_per_s"].is_number());
    }
    EXPECT_EQ(cli::renderSvg(cli::workPrecisionChart(records, "t")), cli::renderSvg(cli::workPrecisionChart(sweep, "t")));
}

TEST(WorkPrecision, BallAroundTipIsInsideTwoRadiiAndPrefixStable) {
    const Move move = moveToolMotion(defaultStroke());
    const ToolMotion& tool = move.tools.front();
    const std::vector<glm::vec3> small = ballAroundTip(tool, 100);
    const std::vector<glm::vec3> large = ballAroundTip(tool, 1000);
    ASSERT_EQ(small.size(), 100u);
    EXPECT_TRUE(std::equal(small.begin(), small.end(), large.begin()));
    for (const glm::vec3& p : large)
        EXPECT_LE(glm::length(glm::dvec3(p) - tool.origin), 2.0 * tool.outerRadius * (1 + 1e-5));
}

} // namespace
} // namespace sculptflow
