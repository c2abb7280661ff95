// Pose pairs to tool motion, in double (spec §2).
#include <sculptflow/motion.hpp>

#include <bit>
#include <cmath>
#include <string>

#include <sculptflow/error.hpp>

namespace sculptflow {

glm::dvec3 rotationVector(const glm::dquat& qA, const glm::dquat& qB) {
    glm::dquat delta = glm::normalize(qB) * glm::conjugate(glm::normalize(qA));
    if (delta.w < 0.0) delta = -delta; // q and −q are the same rotation: take the short arc
    glm::dvec3 axis(delta.x, delta.y, delta.z);
    double sinHalf = glm::length(axis);
    if (sinHalf == 0.0) return glm::dvec3(0.0);
    // atan2 keeps full accuracy both for tiny angles and for angles near π.
    double angle = 2.0 * std::atan2(sinHalf, delta.w);
    return axis * (angle / sinHalf);
}

ToolMotion toolMotion(const ToolStroke& tool, const Pose& poseA, const Pose& poseB, double voxelSize) {
    if (!(voxelSize > 0.0) || !std::isfinite(voxelSize))
        throw Error("toolMotion: voxel size must be positive and finite");
    auto require = [](bool ok, const char* what) {
        if (!ok) throw Error(std::string("toolMotion: ") + what);
    };
    require(poseB.time > poseA.time, "time must increase (τB ≤ τA)");
    for (const Pose* pose : {&poseA, &poseB}) {
        double norm = glm::length(pose->orientation);
        require(std::isfinite(norm) && norm > 1e-6, "orientation is not a rotation (zero quaternion)");
        require(std::isfinite(pose->scale) && pose->scale > 0.0, "scale must be positive");
    }
    ToolMotion m;
    m.kind = tool.kind;
    m.origin = poseA.position / voxelSize;
    m.translation = (poseB.position - poseA.position) / voxelSize;
    m.rotation = rotationVector(poseA.orientation, poseB.orientation);
    m.logScale = std::log(poseB.scale / poseA.scale);
    m.duration = poseB.time - poseA.time; // both in double: the time origin cancels exactly
    m.outerRadius = tool.outerRadius / voxelSize;
    m.innerRadius = std::min(tool.innerRadius / voxelSize, m.outerRadius);
    m.stiffness = tool.stiffness;
    m.compressibility = tool.compressibility;
    m.profile = tool.profile;
    m.falloff = tool.falloff;
    return m;
}

ToolMotion toolMotion(const ToolStroke& tool, size_t a, size_t b, double voxelSize) {
    if (a >= tool.poses.size() || b >= tool.poses.size())
        throw Error("toolMotion: pose index out of range");
    try {
        return toolMotion(tool, tool.poses[a], tool.poses[b], voxelSize);
    } catch (const Error& e) {
        std::string what = e.what();
        const std::string prefix = "toolMotion: ";
        if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
        throw Error(prefix + "poses " + std::to_string(a) + " → " + std::to_string(b) + ": " + what);
    }
}

size_t mirroredToolCount(size_t tools, uint32_t axes) {
    return tools << std::popcount(axes & (kSymmetryX | kSymmetryY | kSymmetryZ));
}

void addMirroredTools(Move& move, const Symmetry& symmetry, double voxelSize) {
    if (symmetry.axes & ~uint32_t(kSymmetryX | kSymmetryY | kSymmetryZ))
        throw Error("symmetry.axes: bits other than x, y and z");
    if (!std::isfinite(symmetry.origin.x) || !std::isfinite(symmetry.origin.y) || !std::isfinite(symmetry.origin.z))
        throw Error("symmetry.origin: not three finite numbers");
    const size_t hands = move.tools.size();
    if (mirroredToolCount(hands, symmetry.axes) > kMaxTools)
        throw Error("symmetry: " + std::to_string(hands) + " tools with axes \"" + symmetryAxesName(symmetry.axes) +
                    "\" make " + std::to_string(mirroredToolCount(hands, symmetry.axes)) + "; at most " +
                    std::to_string(kMaxTools) + " are supported");
    const glm::dvec3 centre = symmetry.origin / voxelSize;
    for (uint32_t subset = 1; subset < 8; ++subset) {
        if ((subset & symmetry.axes) != subset) continue;
        // M = Π (I − 2 e_a e_aᵀ) is diagonal: −1 on the subset's axes.
        const glm::dvec3 m(subset & kSymmetryX ? -1.0 : 1.0, subset & kSymmetryY ? -1.0 : 1.0,
                           subset & kSymmetryZ ? -1.0 : 1.0);
        const double det = m.x * m.y * m.z;
        for (size_t i = 0; i < hands; ++i) {
            ToolMotion copy = move.tools[i];
            copy.origin = centre + m * (copy.origin - centre);
            copy.translation = m * copy.translation;
            copy.rotation = det * m * copy.rotation; // a reflection flips the sense of a turn
            move.tools.push_back(copy);
        }
    }
}

std::string_view moveModeName(MoveMode mode) { return mode == MoveMode::Continuous ? "continuous" : "move"; }

std::optional<MoveMode> parseMoveMode(std::string_view name) {
    if (name == "move") return MoveMode::Move;
    if (name == "continuous") return MoveMode::Continuous;
    return std::nullopt;
}

Move moveToolMotion(const Stroke& stroke) {
    Move move;
    for (const ToolStroke& tool : stroke.tools) {
        if (tool.poses.size() < 2) throw Error("moveToolMotion: a tool needs at least two poses");
        move.tools.push_back(toolMotion(tool, 0, tool.poses.size() - 1, stroke.voxelSize));
    }
    addMirroredTools(move, stroke.symmetry, stroke.voxelSize);
    return move;
}

std::vector<Move> continuousMotions(const Stroke& stroke) {
    if (stroke.tools.empty()) throw Error("continuousMotions: the stroke has no tools");
    size_t poseCount = stroke.tools.front().poses.size();
    for (const ToolStroke& tool : stroke.tools)
        if (tool.poses.size() != poseCount)
            throw Error("continuousMotions: every tool needs the same number of poses (" +
                        std::to_string(poseCount) + " and " + std::to_string(tool.poses.size()) + ")");
    if (poseCount < 2)
        throw Error("continuousMotions: " + std::to_string(poseCount) + " poses; continuous mode needs at least 2");
    std::vector<Move> moves;
    for (size_t i = 0; i + 1 < poseCount; ++i) {
        Move move;
        for (const ToolStroke& tool : stroke.tools)
            move.tools.push_back(toolMotion(tool, i, i + 1, stroke.voxelSize));
        addMirroredTools(move, stroke.symmetry, stroke.voxelSize);
        moves.push_back(std::move(move));
    }
    return moves;
}

} // namespace sculptflow
