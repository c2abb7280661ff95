// Writing the recorded .bin format (spec §5), the inverse of parseStrokeBin
// (stroke_io.cpp): one tool, its values as f32, little-endian.
#include <sculptflow/stroke.hpp>

#include <bit>
#include <cstdint>
#include <string>

#include <sculptflow/error.hpp>
#include "file_io.hpp"

namespace sculptflow {
namespace {

void appendU32(std::string& out, uint32_t value) {
    for (unsigned k = 0; k < 4; ++k) out += static_cast<char>((value >> (8 * k)) & 0xffu);
}

void appendF32(std::string& out, double value) { appendU32(out, std::bit_cast<uint32_t>(static_cast<float>(value))); }

// The format has no field for what is refused here: writing it would lose it.
void checkRepresentable(const Stroke& stroke, const std::string& source) {
    const auto refuse = [&](const std::string& what) {
        throw Error(source + ": " + what + "; the .bin format cannot hold it (write JSON instead)");
    };
    if (stroke.tools.size() != 1)
        refuse("the stroke has " + std::to_string(stroke.tools.size()) +
               " tools, a .bin file one (write each tool to its own file)");
    if (stroke.symmetry.axes) refuse("the stroke has symmetry '" + symmetryAxesName(stroke.symmetry.axes) + "'");
    const ToolStroke& tool = stroke.tools[0];
    if (tool.kind != ToolKind::Kelvinlet && tool.kind != ToolKind::Affine)
        refuse("tool kind '" + std::string(toolKindName(tool.kind)) + "' (the elastic flag is kelvinlet or affine)");
    if (tool.profile != KelvinletProfile::BiScale)
        refuse("profile '" + std::string(kelvinletProfileName(tool.profile)) + "'");
    if (tool.falloff != Falloff::Smooth) refuse("falloff '" + std::string(falloffName(tool.falloff)) + "'");
}

std::string encodeBin(const ToolStroke& tool) {
    std::string out;
    appendU32(out, 0); // version
    appendU32(out, static_cast<uint32_t>(tool.poses.size()));
    for (const Pose& pose : tool.poses) {
        for (int k = 0; k < 3; ++k) appendF32(out, pose.position[k]);
        for (double q : {pose.orientation.w, pose.orientation.x, pose.orientation.y, pose.orientation.z})
            appendF32(out, q); // stored w, x, y, z
        appendF32(out, pose.scale);
        appendF32(out, pose.time);
    }
    appendF32(out, tool.innerRadius);
    appendF32(out, tool.outerRadius);
    appendU32(out, tool.kind == ToolKind::Kelvinlet ? 1u : 0u); // elastic
    appendF32(out, tool.stiffness);
    appendF32(out, tool.compressibility);
    return out;
}

} // namespace

void writeStrokeBin(const Stroke& stroke, const std::filesystem::path& path) {
    const std::string source = path.string();
    validateStroke(stroke, source);
    checkRepresentable(stroke, source);
    const std::string bytes = encodeBin(stroke.tools[0]);
    // Never write a file the reader would refuse (a value beyond f32's range).
    try {
        parseStrokeBin(bytes, path, StrokeReadOptions{.binVoxelSize = stroke.voxelSize});
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " once rounded to float32, as the .bin format stores it");
    }
    detail::writeFileAtomically(path, bytes);
}

} // namespace sculptflow
