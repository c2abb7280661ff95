// The viewer's default mirror origin and the tools' mirrored poses (spec §3.4).
#include "viewer_symmetry.hpp"

#include <cmath>
#include <filesystem>
#include <limits>

namespace sculptflow::viewer {
namespace {

// Whether the stroke file names a symmetry of its own (the built-in stroke and
// the recorded .bin strokes never do).
bool strokeCarriesSymmetry(const cli::MoveInputs& inputs, const cli::MoveInputArgs& args) {
    if (args.strokePath.empty()) return false;
    if (!args.symmetryAxes) return inputs.stroke.symmetry.axes != 0; // as read
    // --symmetry replaced the axes: only the file can say whether it had any.
    return std::filesystem::path(args.strokePath).extension() == ".json" &&
           readStrokeJson(args.strokePath).symmetry.axes != 0;
}

} // namespace

glm::dvec3 boxCentre(std::span<const glm::vec3> points) {
    glm::dvec3 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    for (const glm::vec3& p : points)
        if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
            lo = glm::min(lo, glm::dvec3(p));
            hi = glm::max(hi, glm::dvec3(p));
        }
    return lo.x <= hi.x ? 0.5 * (lo + hi) : glm::dvec3(0.0);
}

Symmetry viewerSymmetry(const cli::MoveInputs& inputs, const cli::MoveInputArgs& args) {
    Symmetry symmetry = inputs.stroke.symmetry; // with --symmetry and --symmetry-origin applied
    if (!args.symmetryOrigin && !strokeCarriesSymmetry(inputs, args))
        symmetry.origin = boxCentre(inputs.mesh.positions); // the mesh is in world units
    return symmetry;
}

std::vector<ToolCopy> toolCopies(std::span<const Pose> poses, const Symmetry& symmetry) {
    std::vector<ToolCopy> copies;
    for (const Pose& pose : poses) copies.push_back({pose.position, glm::mat3_cast(pose.orientation), false});
    for (uint32_t subset = 1; subset <= symmetry.axes; ++subset) {
        if (subset & ~symmetry.axes) continue; // not a subset of the axes
        // M is diagonal: the reflections I − 2 e_a e_aᵀ over the subset's axes.
        const glm::dvec3 m((subset & kSymmetryX) ? -1.0 : 1.0, (subset & kSymmetryY) ? -1.0 : 1.0,
                           (subset & kSymmetryZ) ? -1.0 : 1.0);
        for (const Pose& pose : poses) {
            const glm::dmat3 q = glm::mat3_cast(pose.orientation);
            glm::dmat3 mirrored;
            for (int column = 0; column < 3; ++column) mirrored[column] = m * q[column] * m[column]; // M Q M
            copies.push_back({symmetry.origin + m * (pose.position - symmetry.origin), mirrored, true});
        }
    }
    return copies;
}

} // namespace sculptflow::viewer
