// Unit sanity for a command's inputs.
#include "unit_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <sculptflow/error.hpp>
#include "src/chunk_reach.hpp"
#include "src/kernel_tools.hpp"

namespace sculptflow::cli {
namespace {

std::string threeDigits(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// The largest outer radius any pose of any tool reaches, world units.
double toolReach(const Stroke& stroke) {
    double reach = 0.0;
    for (const ToolStroke& tool : stroke.tools)
        for (const Pose& pose : tool.poses) reach = std::max(reach, tool.outerRadius * pose.scale);
    return reach;
}

double meshExtent(const Mesh& mesh) {
    if (mesh.positions.empty()) return 0.0;
    glm::dvec3 lo(mesh.positions.front()), hi = lo;
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    return glm::length(hi - lo);
}

// Conservative, as the solver's own culling: false only when every vertex would be
// culled in every segment. Vertices go in blocks, each tested by its bounds.
bool meshInReach(const MoveInputs& in) {
    constexpr size_t kBlock = 64;
    const SolverOptions options; // the cull bound scales with the tolerance; the default's is close enough
    std::vector<Bounds> blocks;
    for (size_t first = 0; first < in.voxels.size(); first += kBlock) {
        Bounds b{in.voxels[first], in.voxels[first]};
        for (size_t i = first; i < std::min(first + kBlock, in.voxels.size()); ++i) {
            b.min = glm::min(b.min, in.voxels[i]);
            b.max = glm::max(b.max, in.voxels[i]);
        }
        blocks.push_back(b);
    }
    for (const Move& move : in.segments) {
        kernel::Kernel kernel = makeKernel(move, options);
        for (const Bounds& b : blocks)
            if (boxInReach(kernel, b)) return true;
    }
    return blocks.empty();
}

} // namespace

std::vector<UnitWarning> unitWarnings(const MoveInputs& in, bool voxelSizeOption) {
    std::vector<UnitWarning> warnings;
    if (in.strokeNotes.voxelSizeDefaulted && !voxelSizeOption)
        warnings.push_back({"no_voxel_size",
                            "the stroke gives no voxel_size, so 1 world unit per voxel is assumed and --tol " +
                                std::string("counts world units; give voxel_size in the stroke or --voxel-size")});

    const double reach = toolReach(in.stroke), extent = meshExtent(in.mesh);
    if (reach > 0.0 && extent > 0.0) {
        const double ratio = extent / reach;
        if (ratio > kScaleMismatchFactor || ratio < 1.0 / kScaleMismatchFactor)
            warnings.push_back({"scale_mismatch", "the mesh spans " + threeDigits(extent) +
                                                      " world units and the tool's outer radius is " +
                                                      threeDigits(reach) + ", a factor of " + threeDigits(ratio) +
                                                      ": are the mesh and the stroke in the same units?"});
    }
    const double radiusVoxels = reach / in.stroke.voxelSize;
    if (reach > 0.0 && (radiusVoxels < kMinRadiusVoxels || radiusVoxels > kMaxRadiusVoxels))
        warnings.push_back({"voxel_scale", "the tool's outer radius is " + threeDigits(radiusVoxels) +
                                               " voxels at voxel size " + threeDigits(in.stroke.voxelSize) +
                                               ": is the voxel size in the stroke's units (world units per "
                                               "voxel)?"});
    if (!meshInReach(in))
        warnings.push_back({"out_of_reach", "the tool never reaches the mesh: every one of its " +
                                                std::to_string(in.voxels.size()) +
                                                " vertices is out of reach and would be left as it is; are the "
                                                "mesh and the stroke in the same units and place?"});
    return warnings;
}

size_t integratedVertices(std::span<const VertexStatistics> statistics) {
    return size_t(std::count_if(statistics.begin(), statistics.end(),
                                [](const VertexStatistics& s) { return s.evaluations > 0; })); // culled: 0
}

void warnIfAllCulled(MoveInputs& in, size_t integrated, bool strict) {
    if (in.voxels.empty() || integrated > 0) return;
    const bool known = std::any_of(in.warnings.begin(), in.warnings.end(),
                                   [](const UnitWarning& w) { return w.code == "out_of_reach"; });
    if (known) return;
    UnitWarning warning{"out_of_reach", "the tool never reached the mesh: all " + std::to_string(in.voxels.size()) +
                                            " vertices were culled (left as they are); are the mesh and the "
                                            "stroke in the same units and place?"};
    in.warnings.push_back(warning);
    reportUnitWarnings({warning}, strict);
}

void reportUnitWarnings(const std::vector<UnitWarning>& warnings, bool strict) {
    if (strict && !warnings.empty())
        throw Error(warnings.front().message + " (" + warnings.front().code + "; an error under --strict)");
    for (const UnitWarning& w : warnings) std::fprintf(stderr, "sculptflow: warning: %s\n", w.message.c_str());
}

nlohmann::json warningsJson(const std::vector<UnitWarning>& warnings) {
    nlohmann::json out = nlohmann::json::array();
    for (const UnitWarning& w : warnings) out.push_back({{"code", w.code}, {"message", w.message}});
    return out;
}

} // namespace sculptflow::cli
