// Move (double) → shared kernel parameters (float), including the Kelvinlet
// load calibration of spec §3.2, computed once on the host in double.
#include "kernel_tools.hpp"

#include <numbers>
#include <string>

#include "error.hpp"

namespace sculptflow {
namespace {

int kernelMethod(Method method) {
    switch (method) {
    case Method::Rk4: return kernel::kMethodRk4;
    case Method::Rk4Double: return kernel::kMethodRk4Double;
    case Method::Bs32: return kernel::kMethodBs32;
    case Method::Dp45: return kernel::kMethodDp45;
    }
    throw Error("unknown method");
}

glm::vec3 toFloat(const glm::dvec3& v) { return glm::vec3(v); }

} // namespace

kernel::Tool makeKernelTool(const ToolMotion& m) {
    kernel::Tool t{};
    t.origin = toFloat(m.origin);
    t.translation = toFloat(m.translation);
    t.rotation = toFloat(m.rotation);
    t.logScale = float(m.logScale);
    t.innerRadius = float(std::min(m.innerRadius, m.outerRadius));
    t.outerRadius = float(m.outerRadius);
    t.kind = m.kind == ToolKind::Affine ? kernel::kToolAffine : kernel::kToolKelvinlet;
    if (m.kind == ToolKind::Kelvinlet) {
        // Loads calibrated at μ = 1 so that the tip follows the tool; the field is
        // then evaluated with the material's μ, so a stiffer material moves less.
        const double a1 = 1.0 / (4.0 * std::numbers::pi);
        const double b1 = a1 / (4.0 * (1.0 - m.compressibility));
        const double b01 = a1 / 4.0;
        const double eps = m.outerRadius;
        const double eps1 = double(kernel::kKelvinletSecondRadius) * eps;
        const double invDiff1 = 1.0 / eps - 1.0 / eps1;
        const double invDiff3 = 1.0 / (eps * eps * eps) - 1.0 / (eps1 * eps1 * eps1);
        t.grabLoad = toFloat(m.translation * (2.0 / (3.0 * a1 - 2.0 * b1) / invDiff1));
        t.twistLoad = toFloat(m.rotation * (-2.0 / (5.0 * a1) / invDiff3));
        t.scaleLoad = float(m.logScale * 2.0 / (5.0 * (2.0 * b01 - a1)) / invDiff3);

        const double a = a1 / m.stiffness;
        const double b = a / (4.0 * (1.0 - m.compressibility));
        t.kelvinA = float(a);
        t.kelvinB = float(b);
        t.kelvinScale = float(2.0 * (a / 4.0) - a); // 2b₀ − a, b₀ = b at ν = 0
    }
    return t;
}

kernel::Kernel makeKernel(const Move& move, const SolverOptions& options) {
    validateSolverOptions(options);
    if (move.tools.empty()) throw Error("move: no tools");
    if (move.tools.size() > SF_MAX_TOOLS)
        throw Error("move: " + std::to_string(move.tools.size()) + " tools, at most " +
                    std::to_string(SF_MAX_TOOLS) + " are supported");
    kernel::Kernel k;
    for (size_t i = 0; i < move.tools.size(); ++i) k.tools[i] = makeKernelTool(move.tools[i]);
    k.toolCount = int(move.tools.size());
    k.settings.tolerance = float(options.tolerance);
    k.settings.h0 = float(options.h0);
    k.settings.hMin = float(options.hMin);
    k.settings.hMax = float(options.hMax);
    k.settings.safety = float(options.safety);
    k.settings.shrinkMin = float(options.shrinkMin);
    k.settings.growMax = float(options.growMax);
    k.settings.fixedSteps = options.fixedSteps;
    k.solverMethod = kernelMethod(options.method);
    k.solverMaxIterations = options.maxIterations;
    return k;
}

} // namespace sculptflow
