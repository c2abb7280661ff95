// A small hand-written SVG line chart on log–log axes (decade ticks, legend, title).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sculptflow::cli {

struct ChartPoint {
    double x = 0.0;
    double y = 0.0;
    std::string label; // small text beside the marker; may be empty
};

// One polyline with a marker at each point, and a legend entry.
struct ChartSeries {
    std::string name;
    std::vector<ChartPoint> points;
};

// A dashed horizontal line across the plot, labelled at its right end.
struct ReferenceLine {
    double y = 0.0;
    std::string label;
};

struct LogLogChart {
    std::string title;
    std::string xLabel;
    std::string yLabel;
    std::vector<ChartSeries> series;
    std::vector<ReferenceLine> references;
    int width = 780;
    int height = 520;
};

// The chart as an SVG document. Both axes span whole decades around the data.
// Throws sculptflow::Error for a value that is not positive and finite (a log
// axis cannot show it), a series without points, or a chart without series.
std::string renderSvg(const LogLogChart& chart);

// renderSvg, written to `path`; throws sculptflow::Error when it cannot be written.
void writeSvg(const LogLogChart& chart, const std::filesystem::path& path);

} // namespace sculptflow::cli
