// Stroke validation and the readers' quaternion normalising (stroke_checks.hpp).
#include "stroke_checks.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include "finite.hpp"
#include "kind_table.hpp"

namespace sculptflow::detail {

[[noreturn]] void strokeError(const std::string& source, const std::string& what) {
    throw Error(source + ": " + what);
}

std::string formatNumber(double value) {
    std::array<char, 32> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    (void)ec; // 32 characters always suffice for a double
    return std::string(buf.data(), end);
}

namespace {

constexpr double kMaxCompressibility = 0.5;

void checkPose(const Pose& pose, const std::string& where, const std::string& source, double quaternionTolerance) {
    if (!isFinite(pose.position)) strokeError(source, where + ".position: non-finite value");
    if (!isFinite(pose.orientation)) strokeError(source, where + ".orientation: non-finite value");
    const double norm = std::sqrt(glm::dot(pose.orientation, pose.orientation));
    if (!(std::abs(norm - 1.0) <= quaternionTolerance)) {
        strokeError(source, where + ".orientation: quaternion norm " + formatNumber(norm) + " is not within " +
                         formatNumber(quaternionTolerance) + " of 1");
    }
    if (!std::isfinite(pose.scale) || pose.scale <= 0.0) {
        strokeError(source, where + ".scale: must be finite and > 0, is " + formatNumber(pose.scale));
    }
    if (!std::isfinite(pose.time)) strokeError(source, where + ".time: non-finite value");
}

void checkTool(const ToolStroke& tool, const std::string& prefix, const std::string& source,
               const FieldNaming& naming) {
    const double quaternionTolerance = naming.quaternionTolerance;
    const auto require = [&](bool ok, const char* field, const char* rule, double value) {
        if (!ok) strokeError(source, prefix + field + ": must be " + rule + ", is " + formatNumber(value));
    };
    const double rIn = tool.innerRadius;
    const double rOut = tool.outerRadius;
    const double nu = tool.compressibility;
    require(std::isfinite(rIn) && rIn >= 0.0, "inner_radius", "finite and >= 0", rIn);
    require(std::isfinite(rOut) && rOut > 0.0, "outer_radius", "finite and > 0", rOut);
    // The solver would clamp r_in below r_out (spec §3.1), but a stroke that says so
    // is a mistake (swapped fields, other units), not a request.
    if (naming.innerWithinOuter && rIn > rOut)
        strokeError(source, prefix + "inner_radius: " + formatNumber(rIn) + " is larger than outer_radius " +
                         formatNumber(rOut) + " (the inner radius is where an affine tool's full motion ends "
                                              "and its falloff begins; a kelvinlet ignores it)");
    if (kindTraits(tool.kind).needsShell && !(rIn < rOut))
        strokeError(source, prefix + "inner_radius: " + formatNumber(rIn) + " is not below outer_radius " +
                         formatNumber(rOut) + " (an " + std::string(toolKindName(tool.kind)) +
                         " tool's field must be Lipschitz, spec §3.6: with no falloff shell it jumps at the "
                         "outer radius; an affine tool takes a hard edge)");
    require(std::isfinite(tool.stiffness) && tool.stiffness > 0.0, "stiffness", "finite and > 0",
            tool.stiffness);
    require(std::isfinite(nu) && nu >= 0.0 && nu <= kMaxCompressibility, "compressibility", "in [0, 0.5]",
            nu);
    const bool profiled = kindTraits(tool.kind).profiled;
    if (!profiled && tool.profile != KelvinletProfile::BiScale)
        strokeError(source, prefix + "profile: \"" + std::string(kelvinletProfileName(tool.profile)) +
                         "\" is for a kelvinlet, not an " + std::string(toolKindName(tool.kind)) + " tool");
    if (profiled && tool.falloff != Falloff::Smooth)
        strokeError(source, prefix + "falloff: \"" + std::string(falloffName(tool.falloff)) +
                         "\" is for an affine or affine-flow tool, not a kelvinlet");
    if (tool.poses.size() < 2) {
        strokeError(source, prefix + "poses: at least 2 poses needed, found " + std::to_string(tool.poses.size()));
    }
    for (size_t i = 0; i < tool.poses.size(); ++i) {
        const std::string where = prefix + "poses[" + std::to_string(i) + "]";
        checkPose(tool.poses[i], where, source, quaternionTolerance);
        if (i > 0 && !(tool.poses[i].time > tool.poses[i - 1].time)) {
            strokeError(source, where + ".time: times must increase strictly (" + formatNumber(tool.poses[i].time) +
                             " after " + formatNumber(tool.poses[i - 1].time) + ")");
        }
    }
}

} // namespace

void checkStroke(const Stroke& stroke, const std::string& source, const FieldNaming& naming) {
    if (!std::isfinite(stroke.voxelSize) || stroke.voxelSize <= 0.0) {
        strokeError(source, naming.voxelSize + ": must be finite and > 0, is " + formatNumber(stroke.voxelSize));
    }
    if (stroke.tools.empty()) strokeError(source, "tools: at least one tool needed");
    const uint32_t axes = stroke.symmetry.axes;
    if (axes & ~uint32_t(kSymmetryX | kSymmetryY | kSymmetryZ))
        strokeError(source, "symmetry.axes: bits other than x, y and z (" + std::to_string(axes) + ")");
    if (!isFinite(stroke.symmetry.origin)) strokeError(source, "symmetry.origin: non-finite value");
    if (mirroredToolCount(stroke.tools.size(), axes) > kMaxTools) {
        strokeError(source, "tools: at most " + std::to_string(kMaxTools) + " tools supported with the mirrored copies, found " +
                         std::to_string(stroke.tools.size()) +
                         (axes ? " × " + std::to_string(mirroredToolCount(1, axes)) + " copies" : ""));
    }
    for (size_t t = 0; t < stroke.tools.size(); ++t) {
        const std::string prefix = naming.indexTools ? "tools[" + std::to_string(t) + "]." : "";
        checkTool(stroke.tools[t], prefix, source, naming);
    }
}

void normaliseOrientations(Stroke& stroke, const std::string& source, bool indexTools, StrokeReadNotes* notes) {
    constexpr double kUnitSlack = 8 * std::numeric_limits<double>::epsilon();
    size_t offUnit = 0;
    std::string first;
    for (size_t t = 0; t < stroke.tools.size(); ++t) {
        for (size_t i = 0; i < stroke.tools[t].poses.size(); ++i) {
            Pose& pose = stroke.tools[t].poses[i];
            const double norm2 = glm::dot(pose.orientation, pose.orientation);
            if (std::abs(std::sqrt(norm2) - 1.0) > kQuaternionNormTolerance && offUnit++ == 0)
                first = (indexTools ? "tools[" + std::to_string(t) + "]." : std::string()) + "poses[" +
                        std::to_string(i) + "].orientation: quaternion norm " + formatNumber(std::sqrt(norm2));
            if (std::abs(norm2 - 1.0) > kUnitSlack) pose.orientation = pose.orientation / std::sqrt(norm2);
        }
    }
    if (offUnit > 0 && notes)
        notes->warnings.push_back(source + ": " + first + ", off unit length by over " +
                                  formatNumber(kQuaternionNormTolerance) + ", normalised" +
                                  (offUnit > 1 ? " (and " + std::to_string(offUnit - 1) + " more poses likewise)"
                                               : std::string()));
}

} // namespace sculptflow::detail
