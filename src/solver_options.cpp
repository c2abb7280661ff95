// Validation and names for the solver's options.
#include "solver_options.hpp"

#include <cmath>
#include <string>

#include "error.hpp"

namespace sculptflow {
namespace {

// Takes C strings: the message is built only on failure, so that validating
// allocates nothing (LiveMove::update and record call it every frame).
void require(bool ok, const char* parameter, const char* what) {
    if (!ok) throw Error(std::string("solver option ") + parameter + ": " + what);
}

bool positiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

} // namespace

SolverOptions segmentOptions(const SolverOptions& options, size_t segments) {
    SolverOptions segment = options;
    segment.tolerance = options.tolerance / double(std::max<size_t>(segments, 1));
    return segment;
}

void validateSolverOptions(const SolverOptions& o) {
    require(positiveFinite(o.tolerance), "tolerance", "must be positive and finite (voxels)");
    require(positiveFinite(o.hMin) && o.hMin <= 1.0, "hMin", "must be in (0, 1]");
    require(positiveFinite(o.hMax) && o.hMax >= o.hMin, "hMax", "must be finite and ≥ hMin");
    require(positiveFinite(o.h0), "h0", "must be positive and finite");
    require(positiveFinite(o.safety) && o.safety <= 1.0, "safety", "must be in (0, 1]");
    require(positiveFinite(o.shrinkMin) && o.shrinkMin < 1.0, "shrinkMin", "must be in (0, 1)");
    require(std::isfinite(o.growMax) && o.growMax > 1.0, "growMax", "must be finite and > 1");
    require(o.maxToolMotionPerStep > 0.0 && !std::isnan(o.maxToolMotionPerStep),
            "maxToolMotionPerStep", "must be positive (infinity disables the limit)");
    require(o.maxIterations >= 1 && o.maxIterations <= 1 << 16, "maxIterations",
            "must be in [1, 65536]");
    require(o.fixedSteps >= 1 && o.fixedSteps <= 1 << 16, "fixedSteps", "must be in [1, 65536]");
}

std::string_view methodName(Method method) {
    switch (method) {
    case Method::Rk4: return "rk4";
    case Method::Rk4Double: return "rk4dbl";
    case Method::Bs32: return "bs32";
    case Method::Dp45: return "dp45";
    }
    return "unknown";
}

std::optional<Method> parseMethod(std::string_view name) {
    for (Method m : {Method::Rk4, Method::Rk4Double, Method::Bs32, Method::Dp45})
        if (methodName(m) == name) return m;
    return std::nullopt;
}

long worstCaseEvaluations(const SolverOptions& options, int segments) {
    int stages = 4;
    if (options.method == Method::Rk4Double) stages = 11;
    if (options.method == Method::Bs32) stages = 3;
    if (options.method == Method::Dp45) stages = 6;
    return long(options.maxIterations) * stages + 4L * segments;
}

} // namespace sculptflow
