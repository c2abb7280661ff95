// Pose pairs to tool motion in normalised time, in double.
#pragma once

#include "export.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "stroke.hpp"

namespace sculptflow {

// One tool's move from pose A to pose B. Voxel units, per unit of normalised time
// s = (τ − τA)/(τB − τA) ∈ [0, 1].
struct ToolMotion {
    ToolKind kind = ToolKind::Kelvinlet;
    glm::dvec3 origin{0.0};      // p_A
    glm::dvec3 translation{0.0}; // d = p_B − p_A
    glm::dvec3 rotation{0.0};    // r = axis·angle of q_B·q_A⁻¹, angle ∈ [0, π]
    double logScale = 0.0;       // λ = ln(σ_B/σ_A)
    double duration = 1.0;       // τB − τA in seconds, computed in double
    double innerRadius = 0.0;    // voxels; below outerRadius for an affine flow (spec §3.6)
    double outerRadius = 0.0;    // voxels; ε for a Kelvinlet
    double stiffness = 1.0;      // μ
    double compressibility = 0.5;// ν
    KelvinletProfile profile = KelvinletProfile::BiScale; // Kelvinlet
    Falloff falloff = Falloff::Smooth;                    // Affine and AffineFlow

    // Tool-tip path o(s) = p_A + s·d.
    glm::dvec3 tipAt(double s) const { return origin + s * translation; }
};

// All tools of one move; s runs over [0, 1] for each of them.
struct Move {
    std::vector<ToolMotion> tools;
};

// Rotation vector of qB·qA⁻¹ on the short arc (the double cover is fixed by the
// sign of dot(qA, qB)). Accurate for angles near 0 and near π.
SCULPTFLOW_API glm::dvec3 rotationVector(const glm::dquat& qA, const glm::dquat& qB);

// The motion of `tool` from pose `a` to pose `b` (indices), scaled to voxels.
SCULPTFLOW_API ToolMotion toolMotion(const ToolStroke& tool, size_t a, size_t b, double voxelSize);
// The same between two given poses; tool.poses is not read. Allocates nothing
// unless it throws (the renderer's per-frame path calls it).
SCULPTFLOW_API ToolMotion toolMotion(const ToolStroke& tool, const Pose& a, const Pose& b, double voxelSize);

// Appends the mirrored copies of move's tools for each non-empty
// subset of symmetry.axes: p' = c + M(p − c), d' = M d, r' = det(M)·M r, λ' = λ,
// with c = symmetry.origin / voxelSize. Allocates nothing when move.tools has the
// capacity (LiveMove's per-frame path). Throws sculptflow::Error for axes outside
// xyz, a non-finite origin or more than kMaxTools tools in all.
SCULPTFLOW_API void addMirroredTools(Move& move, const Symmetry& symmetry, double voxelSize);

// Tools a move of `tools` hands holds under these axes: tools × 2^|axes|.
SCULPTFLOW_API size_t mirroredToolCount(size_t tools, uint32_t axes);

// How a stroke's poses are applied.
enum class MoveMode {
    Move,       // the first pose to the last, from the undeformed mesh
    Continuous, // each consecutive pair in turn, each from the last one's output
};
SCULPTFLOW_API std::string_view moveModeName(MoveMode mode); // "move", "continuous"
SCULPTFLOW_API std::optional<MoveMode> parseMoveMode(std::string_view name);

// Move-tool mode: each tool's first pose to its last, with the stroke's mirrored copies.
SCULPTFLOW_API Move moveToolMotion(const Stroke& stroke);

// Continuous mode: one move per consecutive pair of poses (every tool needs the
// same number, at least two), each with the stroke's mirrored copies.
SCULPTFLOW_API std::vector<Move> continuousMotions(const Stroke& stroke);

} // namespace sculptflow
