// `sculptflow sphere`: writes an icosphere, optionally with a half-space mask, as
// an input for the other commands (the README's pictures are made from these).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/file_io.hpp"
#include "src/text_scan.hpp"
#include "commands.hpp"
#include "number_checks.hpp"
#include "output_paths.hpp"
#include "vector_option.hpp"

namespace sculptflow::cli {
namespace {

struct SphereArgs {
    std::string center = "0,0,0";
    double radius = 0.1;
    int subdivisions = 5;
    std::string freeze; // "", or a half: -x, +x, -y, +y, -z, +z
    double feather = 0.0;
    std::string outPath;
    std::string maskOutPath;
};

// The frozen half: the axis, and the sign of the side whose mask is 0.
struct FrozenHalf {
    int axis = 0;
    double side = -1.0;
};

FrozenHalf parseFrozenHalf(const std::string& text) {
    if (text.size() != 2 || (text[0] != '-' && text[0] != '+') || text[1] < 'x' || text[1] > 'z')
        throw Error("--freeze '" + text + "': expected -x, +x, -y, +y, -z or +z");
    return {text[1] - 'x', text[0] == '-' ? -1.0 : 1.0};
}

// 0 on the frozen side of the plane through the centre, 1 on the other, and a
// smooth step across a band `feather` wide, so the grab does not tear the surface.
float maskValue(double signedDistance, double feather) {
    if (feather <= 0.0) return signedDistance > 0.0 ? 0.0f : 1.0f;
    const double t = std::clamp(0.5 - signedDistance / feather, 0.0, 1.0);
    return float(t * t * (3.0 - 2.0 * t));
}

void writeMaskText(const std::vector<float>& mask, const std::string& path) {
    std::string text;
    for (float m : mask) {
        detail::appendFloat(text, m);
        text += '\n';
    }
    detail::writeFileAtomically(path, text);
}

void runSphere(const SphereArgs& args) {
    const glm::dvec3 center = parseVector3("--center", args.center);
    if (!args.maskOutPath.empty() && args.freeze.empty()) throw Error("--mask-out needs --freeze");
    checkOutputPath("--out", args.outPath);
    checkOutputPath("--mask-out", args.maskOutPath);
    Mesh mesh = icosphere(args.subdivisions, glm::vec3(center), float(args.radius));
    if (!args.freeze.empty()) {
        const FrozenHalf half = parseFrozenHalf(args.freeze);
        for (const glm::vec3& p : mesh.positions)
            mesh.mask.push_back(maskValue(half.side * (double(p[half.axis]) - center[half.axis]), args.feather));
    }
    // Only a PLY has a place for the mask (not an OBJ or a glTF): else it goes only to --mask-out.
    const bool maskOut = detail::lowerExtension(args.outPath) == ".ply";
    const std::vector<float> mask = mesh.mask;
    if (!maskOut) mesh.mask.clear();
    writeMesh(mesh, args.outPath);
    std::printf("wrote %s (%zu vertices%s)\n", args.outPath.c_str(), mesh.positions.size(),
                mesh.mask.empty() ? "" : ", with a vertex property mask");
    if (!args.maskOutPath.empty()) {
        writeMaskText(mask, args.maskOutPath);
        std::printf("wrote %s (%zu mask values)\n", args.maskOutPath.c_str(), mask.size());
    }
}

} // namespace

void addSphereCommand(CLI::App& app) {
    auto args = std::make_shared<SphereArgs>();
    CLI::App* cmd = app.add_subcommand(
        "sphere", "Write an icosphere mesh, optionally with a mask that freezes one half of it (an input for "
                  "deform, validate and render)");
    cmd->add_option("--center", args->center, "Centre X,Y,Z, world units")->capture_default_str();
    cmd->add_option("--radius", args->radius, "Radius, world units")
        ->check(positiveNumber())
        ->capture_default_str();
    cmd->add_option("--subdivisions", args->subdivisions, "Icosahedron subdivisions: 10*4^n+2 vertices")
        ->check(CLI::Range(0, 8))
        ->capture_default_str();
    cmd->add_option("--freeze", args->freeze,
                    "Mask 0 on this half (-x, +x, -y, +y, -z or +z of the centre) and 1 on the other; a .ply "
                    "--out carries it as the vertex property mask");
    cmd->add_option("--feather", args->feather, "Width of the mask's smooth 0-to-1 band, world units")
        ->check(nonNegativeNumber())
        ->capture_default_str();
    cmd->add_option("--out", args->outPath, "The mesh (.ply or .obj)")->required();
    cmd->add_option("--mask-out", args->maskOutPath, "Also write the mask as text, one value a line (--mask FILE)");
    cmd->callback([args] { runSphere(*args); });
}

} // namespace sculptflow::cli
