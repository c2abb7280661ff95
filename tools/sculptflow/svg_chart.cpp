// A small hand-written SVG line chart on log–log axes (decade ticks, legend, title).
#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include <sculptflow/error.hpp>

namespace sculptflow::cli {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
constexpr double kLeft = 84.0, kTop = 48.0, kBottom = 62.0, kLegendWidth = 150.0;

std::string coordinate(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", v);
    return buffer;
}

std::string escapeXml(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// "0.001" … "100000" as plain numbers, "1e-6" and "1e6" beyond.
std::string decadeLabel(int exponent) {
    if (exponent >= 0 && exponent <= 5) return std::to_string(static_cast<long>(std::pow(10.0, exponent)));
    if (exponent < 0 && exponent >= -4) return "0." + std::string(size_t(-exponent - 1), '0') + "1";
    return "1e" + std::to_string(exponent);
}

void requireLogValue(double v, const std::string& what) {
    if (!(std::isfinite(v) && v > 0.0)) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%g", v);
        throw Error("svg chart: " + what + " is " + buffer + "; a log axis needs positive, finite values");
    }
}

// A log axis over whole decades [lo, hi] mapped onto [from, to] pixels.
struct LogAxis {
    int lo = 0;
    int hi = 1;
    double from = 0.0;
    double to = 1.0;
    double operator()(double v) const { return from + (std::log10(v) - lo) / double(hi - lo) * (to - from); }
};

LogAxis decadesAround(double minimum, double maximum, double from, double to) {
    LogAxis axis;
    axis.lo = int(std::floor(std::log10(minimum)));
    axis.hi = int(std::ceil(std::log10(maximum)));
    if (axis.hi <= axis.lo) axis.hi = axis.lo + 1;
    axis.from = from;
    axis.to = to;
    return axis;
}

std::string text(double x, double y, const std::string& content, const std::string& attributes) {
    return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" " + attributes + ">" + escapeXml(content) +
           "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes) {
    return "<line x1=\"" + coordinate(x1) + "\" y1=\"" + coordinate(y1) + "\" x2=\"" + coordinate(x2) + "\" y2=\"" +
           coordinate(y2) + "\" " + attributes + "/>\n";
}

// Grid lines and labels at decades, short ticks at 2…9 × each decade.
std::string axes(const LogAxis& x, const LogAxis& y) {
    std::string svg;
    const double left = x.from, right = x.to, bottom = y.from, top = y.to;
    for (int e = x.lo; e <= x.hi; ++e) {
        const double px = x(std::pow(10.0, e));
        svg += line(px, top, px, bottom, "stroke=\"#dddddd\"");
        svg += line(px, bottom, px, bottom + 6, "stroke=\"black\"");
        svg += text(px, bottom + 20, decadeLabel(e), "text-anchor=\"middle\"");
        for (int m = 2; m <= 9 && e < x.hi; ++m) {
            const double pm = x(m * std::pow(10.0, e));
            svg += line(pm, bottom, pm, bottom + 3, "stroke=\"black\"");
        }
    }
    for (int e = y.lo; e <= y.hi; ++e) {
        const double py = y(std::pow(10.0, e));
        svg += line(left, py, right, py, "stroke=\"#dddddd\"");
        svg += line(left - 6, py, left, py, "stroke=\"black\"");
        svg += text(left - 9, py + 4, decadeLabel(e), "text-anchor=\"end\"");
        for (int m = 2; m <= 9 && e < y.hi; ++m) {
            const double pm = y(m * std::pow(10.0, e));
            svg += line(left - 3, pm, left, pm, "stroke=\"black\"");
        }
    }
    svg += "<rect x=\"" + coordinate(left) + "\" y=\"" + coordinate(top) + "\" width=\"" + coordinate(right - left) +
           "\" height=\"" + coordinate(bottom - top) + "\" fill=\"none\" stroke=\"black\"/>\n";
    return svg;
}

} // namespace

std::string renderSvg(const LogLogChart& chart) {
    if (chart.series.empty()) throw Error("svg chart: no series to draw");
    double xMin = std::numeric_limits<double>::infinity(), xMax = 0.0;
    double yMin = std::numeric_limits<double>::infinity(), yMax = 0.0;
    for (const ChartSeries& s : chart.series) {
        if (s.points.empty()) throw Error("svg chart: series '" + s.name + "' has no points");
        for (const ChartPoint& p : s.points) {
            requireLogValue(p.x, "x of series '" + s.name + "'");
            requireLogValue(p.y, "y of series '" + s.name + "'");
            xMin = std::min(xMin, p.x), xMax = std::max(xMax, p.x);
            yMin = std::min(yMin, p.y), yMax = std::max(yMax, p.y);
        }
    }
    for (const ReferenceLine& r : chart.references) {
        requireLogValue(r.y, "reference line '" + r.label + "'");
        yMin = std::min(yMin, r.y), yMax = std::max(yMax, r.y);
    }

    const double width = chart.width, height = chart.height;
    const double plotRight = width - kLegendWidth, plotBottom = height - kBottom;
    const LogAxis x = decadesAround(xMin, xMax, kLeft, plotRight);
    const LogAxis y = decadesAround(yMin, yMax, plotBottom, kTop); // pixels grow downwards

    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coordinate(width) + "\" height=\"" +
                      coordinate(height) + "\" viewBox=\"0 0 " + coordinate(width) + " " + coordinate(height) +
                      "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    svg += text(width / 2, 26, chart.title, "text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"");
    svg += axes(x, y);
    svg += text((kLeft + plotRight) / 2, height - 18, chart.xLabel, "text-anchor=\"middle\" font-size=\"13\"");
    const double yLabelX = 24, yLabelY = (kTop + plotBottom) / 2;
    svg += text(yLabelX, yLabelY, chart.yLabel,
                "text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 " + coordinate(yLabelX) + " " +
                    coordinate(yLabelY) + ")\"");

    for (const ReferenceLine& r : chart.references) {
        const double py = y(r.y);
        svg += line(kLeft, py, plotRight, py, "stroke=\"#555555\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"");
        svg += text(plotRight - 6, py - 5, r.label, "text-anchor=\"end\" fill=\"#555555\"");
    }

    // Series drawn over the grid; clipped to the plot's rectangle.
    svg += "<clipPath id=\"plot\"><rect x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(kTop) + "\" width=\"" +
           coordinate(plotRight - kLeft) + "\" height=\"" + coordinate(plotBottom - kTop) + "\"/></clipPath>\n";
    svg += "<g clip-path=\"url(#plot)\">\n";
    for (size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& s = chart.series[i];
        const std::string color = kPalette[i % std::size(kPalette)];
        std::string points;
        for (const ChartPoint& p : s.points) points += coordinate(x(p.x)) + "," + coordinate(y(p.y)) + " ";
        points.pop_back();
        svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
        for (const ChartPoint& p : s.points) {
            svg += "<circle cx=\"" + coordinate(x(p.x)) + "\" cy=\"" + coordinate(y(p.y)) + "\" r=\"3.5\" fill=\"" +
                   color + "\"/>\n";
            // Alternate series label above and below their points, so neighbours overlap less.
            if (!p.label.empty())
                svg += text(x(p.x) + 6, y(p.y) + (i % 2 ? 13 : -5), p.label, "font-size=\"9\" fill=\"" + color + "\"");
        }
    }
    svg += "</g>\n";

    const double legendX = plotRight + 16;
    for (size_t i = 0; i < chart.series.size(); ++i) {
        const std::string color = kPalette[i % std::size(kPalette)];
        const double py = kTop + 14 + 22.0 * double(i);
        svg += line(legendX, py, legendX + 28, py, "stroke=\"" + color + "\" stroke-width=\"2\"");
        svg += "<circle cx=\"" + coordinate(legendX + 14) + "\" cy=\"" + coordinate(py) + "\" r=\"3.5\" fill=\"" + color +
               "\"/>\n";
        svg += text(legendX + 36, py + 4, chart.series[i].name, "");
    }
    svg += "</svg>\n";
    return svg;
}

void writeSvg(const LogLogChart& chart, const std::filesystem::path& path) {
    const std::string svg = renderSvg(chart);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << svg;
    out.close();
    if (!out) throw Error(path.string() + ": could not write the chart");
}

} // namespace sculptflow::cli
