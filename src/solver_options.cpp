// Validation and names for the solver's options.
#include <sculptflow/solver_options.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include "kernel_tools.hpp"
#include "method_table.hpp"

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
    segment.tolerance = segmentTolerance(options.tolerance, segments);
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
    // A fixed-step method's checking pass would take the same steps and agree with it.
    require(!o.verify || isAdaptive(o.method), "verify", "needs an adaptive method (rk4's fixed steps have no tolerance to check)");
}

kernel::MethodTraits methodTraits(Method method) {
    const int row = int(method);
    if (row < 0 || row >= kernel::kMethodCount) throw Error("unknown method " + std::to_string(row));
    return kernel::methodTraits(row);
}

std::string_view methodName(Method method) {
    const int row = int(method);
    return row >= 0 && row < kernel::kMethodCount ? kernel::methodTraits(row).name : "unknown";
}

std::optional<Method> parseMethod(std::string_view name) {
    for (Method m : allMethods())
        if (methodName(m) == name) return m;
    return std::nullopt;
}

std::vector<Method> allMethods(bool adaptiveOnly) {
    std::vector<Method> methods;
    for (int row = 0; row < kernel::kMethodCount; ++row)
        if (!adaptiveOnly || kernel::methodTraits(row).adaptive) methods.push_back(Method(row));
    return methods;
}

bool isAdaptive(Method method) { return methodTraits(method).adaptive; }

std::string methodNameList(bool adaptiveOnly) {
    const std::vector<Method> methods = allMethods(adaptiveOnly);
    std::string list;
    for (size_t i = 0; i < methods.size(); ++i) {
        if (i > 0) list += i + 1 == methods.size() ? " or " : ", ";
        list += methodName(methods[i]);
    }
    return list;
}

namespace {
constexpr double kDefaultTolerance = SolverOptions{}.tolerance;
} // namespace

int plannedAttempts(Method method, double tolerance, int atDefault) {
    const kernel::MethodTraits traits = methodTraits(method);
    if (!traits.adaptive || !(tolerance > 0.0) || tolerance >= kDefaultTolerance) return atDefault;
    const double order = kernel::stepRuleOrder(traits, kernel::acceptsOnOwnError(traits));
    const double growth = std::pow(kDefaultTolerance / tolerance, 1.0 / order);
    return int(std::min(double(1 << 16), std::ceil(atDefault * growth)));
}

int plannedAttempts(const SolverOptions& options, std::span<const Move> moves) {
    // verify's default path works to a share of tol (firstPass in controller.glsl).
    const double share = options.verify ? double(kernel::kVerifyBoundShare) : 1.0;
    const int attempts = plannedAttempts(options.method, options.tolerance * share);
    if (!isAdaptive(options.method)) return attempts;
    double limitSteps = 0.0; // the most any of the moves' limits asks
    for (const Move& move : moves) {
        const double step = std::clamp(toolStepLimit(move, options), options.hMin, std::max(options.hMax, options.hMin));
        if (step < 1.0) limitSteps = std::max(limitSteps, std::ceil(1.0 / step));
    }
    return int(std::min(double(1 << 16), attempts + limitSteps));
}

// An attempt costs its evaluations, one more for the next k1 unless it is FSAL, and
// where the pass carries the error bound its check's (the Simpson midpoint, counted
// as if every attempt passed). A method with a bound takes a second pass of twice
// the attempts where it is over tol, and verify a checking pass of twice the
// attempts without the bound (integrate.glsl).
long worstCaseEvaluations(const SolverOptions& options, int segments) {
    const kernel::MethodTraits traits = methodTraits(options.method);
    const int plain = traits.evaluations + (traits.fsal ? 0 : 1);
    const int bounded = plain + (traits.errorBound ? traits.boundEvaluations : 0);
    const long first = long(options.maxIterations) * bounded + 4L * segments;
    const long second = 2L * options.maxIterations * bounded + 4L * segments;
    const long checking = 2L * options.maxIterations * plain + 4L * segments;
    const long solve = traits.errorBound ? first + second : first;
    return options.verify ? solve + checking : solve;
}

} // namespace sculptflow
