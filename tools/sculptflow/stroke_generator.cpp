// The accuracy sweep's stroke generator: every draw from one 64-bit generator
// with hand-written distributions, so a seed means the same case everywhere.
#include "stroke_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include "src/kind_table.hpp"

namespace sculptflow::cli {
namespace {

constexpr double kVoxelSize = 0.0013; // metres, as the recordings
constexpr double kPi = std::numbers::pi;

// Uniform draws from std::mt19937_64, whose output the standard fixes.
class Draw {
public:
    explicit Draw(uint64_t seed) : engine_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
    double uniform() { return double(engine_() >> 11) * 0x1.0p-53; } // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
    bool chance(double p) { return uniform() < p; }
    int integer(int lo, int hi) { return lo + int(uniform() * double(hi - lo + 1)); } // [lo, hi]
    glm::dvec3 direction() {
        const double z = uniform(-1.0, 1.0), phi = uniform(0.0, 2.0 * kPi), r = std::sqrt(1.0 - z * z);
        return {r * std::cos(phi), r * std::sin(phi), z};
    }
    glm::dquat orientation() { return glm::angleAxis(uniform(0.0, 2.0 * kPi), direction()); }

private:
    std::mt19937_64 engine_;
};

constexpr KelvinletProfile kProfiles[] = {KelvinletProfile::BiScale, KelvinletProfile::TriScale,
                                          KelvinletProfile::Laplacian, KelvinletProfile::BiLaplacian};
constexpr Falloff kFalloffs[] = {Falloff::Smooth, Falloff::Smoother, Falloff::Linear, Falloff::Sharp};

// Family f: the kind table's row f / kShapesPerKind, with its profile or falloff f % kShapesPerKind.
void setFamily(ToolStroke& tool, int family) {
    const ToolKind kind = ToolKind(family / kShapesPerKind);
    setToolKind(tool, kind);
    if (kindTraits(kind).profiled) tool.profile = kProfiles[family % kShapesPerKind];
    else tool.falloff = kFalloffs[family % kShapesPerKind];
}

std::string shapeName(const ToolStroke& tool) {
    return std::string(kindTraits(tool.kind).profiled ? kelvinletProfileName(tool.profile) : falloffName(tool.falloff));
}

std::string familyName(int family) {
    ToolStroke tool;
    setFamily(tool, family);
    return std::string(toolKindName(tool.kind)) + "/" + shapeName(tool);
}

// One hand's motion, in voxels: a pull along a bent path, a turn and a scale change.
struct HandPlan {
    glm::dvec3 start{0.0};
    glm::dvec3 pull{0.0};   // start → end
    glm::dvec3 bend{0.0};   // the path's sideways bow at its middle
    glm::dvec3 axis{0.0, 0.0, 1.0};
    double turn = 0.0;      // radians
    double scaleRatio = 1.0;
    glm::dquat startOrientation{1.0, 0.0, 0.0, 0.0};
};

// Radii from 10 voxels (13 mm at the recordings' voxel size, a fine brush) to 200
// (26 cm). Below about 10 a pull of 250 voxels drags a vertex by 25 radii or more,
// where the flow amplifies a float rounding of its start past the tolerance: no float
// solver can keep the contract there (docs/accuracy-sweep.md).
constexpr double kSmallestRadius = 10.0;
constexpr double kLargestRadius = 200.0;

double drawRadius(Draw& draw) {
    if (draw.chance(0.08)) return kSmallestRadius;
    if (draw.chance(0.08)) return kLargestRadius;
    return draw.logUniform(kSmallestRadius, kLargestRadius);
}

// r_in/r_out from 0 to 0.95 (and above 1, clamped below r_out, spec §3.1) in move
// mode. In continuous mode r_in ≥ r_out would make a truncated affine tool's end a
// step in the segment's start position: the chained end map is then discontinuous,
// and any rounding of an earlier segment's output may move a vertex by the whole pull.
// A kind whose falloff is in the field needs a shell (kinds.glsl, needsShell).
double drawInnerRatio(Draw& draw, MoveMode mode, ToolKind kind) {
    const double u = draw.uniform();
    if (u < 0.12) return 0.0;
    if (u < 0.22) return 0.95;
    if (u < 0.27) return mode == MoveMode::Move && !kindTraits(kind).needsShell ? 1.25 : 0.95;
    return draw.uniform(0.0, 0.95);
}

HandPlan drawHand(Draw& draw, const glm::dvec3& start) {
    HandPlan h;
    h.start = start;
    const double length = draw.chance(0.2) ? draw.uniform(0.0, 20.0) : draw.uniform(20.0, 250.0);
    h.pull = length * draw.direction();
    h.bend = draw.uniform(0.0, 0.35) * length * draw.direction();
    h.axis = draw.direction();
    const double u = draw.uniform();
    h.turn = u < 0.15 ? 0.0 : u < 0.3 ? draw.uniform(0.95, 0.9995) * kPi : draw.uniform(0.0, kPi);
    h.scaleRatio = draw.chance(0.35) ? 1.0 : draw.logUniform(0.55, 1.8);
    h.startOrientation = draw.orientation();
    return h;
}

// Pose k of a hand at path parameter t ∈ [0, 1]: a quadratic bow, the turn and the
// scale proportional to t. Times far from 0, as the recordings' (spec §1).
Pose poseAt(const HandPlan& h, double t, double time) {
    Pose p;
    const glm::dvec3 voxels = h.start + t * h.pull + 4.0 * t * (1.0 - t) * h.bend;
    p.position = voxels * kVoxelSize;
    p.orientation = glm::normalize(glm::angleAxis(t * h.turn, h.axis) * h.startOrientation);
    p.scale = std::pow(h.scaleRatio, t);
    p.time = time;
    return p;
}

// Uneven path parameters 0 = t0 < … < t_{n−1} = 1: some segments fast, some slow.
std::vector<double> drawPathParameters(Draw& draw, int poses) {
    std::vector<double> gaps;
    for (int k = 0; k + 1 < poses; ++k) gaps.push_back(draw.logUniform(0.1, 3.0));
    double sum = 0.0;
    for (double g : gaps) sum += g;
    std::vector<double> t{0.0};
    double acc = 0.0;
    for (size_t k = 0; k + 1 < gaps.size(); ++k) t.push_back((acc += gaps[k]) / sum);
    t.push_back(1.0);
    return t;
}

ToolStroke makeTool(Draw& draw, const HandPlan& h, const std::vector<double>& t, double radius, int family,
                    MoveMode mode) {
    ToolStroke tool;
    setFamily(tool, family);
    tool.outerRadius = radius * kVoxelSize;
    tool.innerRadius = drawInnerRatio(draw, mode, tool.kind) * tool.outerRadius;
    const double u = draw.uniform();
    tool.stiffness = u < 0.6 ? 1.0 : u < 0.7 ? 0.5 : u < 0.8 ? 2.0 : draw.logUniform(0.5, 2.0);
    const double v = draw.uniform();
    tool.compressibility = v < 0.2 ? 0.0 : v < 0.5 ? 0.5 : draw.uniform(0.0, 0.5);
    double time = draw.uniform(70.0, 330.0);
    for (size_t k = 0; k < t.size(); ++k) {
        if (k > 0) time += draw.uniform(0.005, 0.05);
        tool.poses.push_back(poseAt(h, t[k], time));
    }
    return tool;
}

// Spheres of vertices: around each tip, across the first hand's path, and one
// wide sphere that cuts through the reach (level 2: 162 vertices each).
Mesh makeMesh(Draw& draw, const std::vector<HandPlan>& hands, const std::vector<double>& radii) {
    Mesh mesh;
    auto add = [&](const glm::dvec3& centerVoxels, double radiusVoxels) {
        Mesh sphere = icosphere(2, glm::vec3(centerVoxels * kVoxelSize), float(radiusVoxels * kVoxelSize));
        const auto offset = uint32_t(mesh.positions.size());
        mesh.positions.insert(mesh.positions.end(), sphere.positions.begin(), sphere.positions.end());
        mesh.faceSizes.insert(mesh.faceSizes.end(), sphere.faceSizes.begin(), sphere.faceSizes.end());
        for (uint32_t index : sphere.faceIndices) mesh.faceIndices.push_back(index + offset);
    };
    for (size_t i = 0; i < hands.size(); ++i) {
        add(hands[i].start, draw.uniform(0.05, 0.4) * radii[i]);
        add(hands[i].start, draw.uniform(0.4, 1.6) * radii[i]);
    }
    const HandPlan& h = hands.front();
    add(h.start + draw.uniform(0.2, 0.8) * h.pull + 0.5 * h.bend + draw.uniform(0.0, 0.5) * radii[0] * draw.direction(),
        draw.uniform(0.2, 1.0) * radii[0]);
    add(h.start + draw.uniform(0.5, 1.5) * radii[0] * draw.direction(), draw.uniform(1.0, 2.0) * radii[0]);
    return mesh;
}

// A smooth mask with frozen (0), free (1) and partial regions (spec §3.5).
std::vector<float> makeMask(Draw& draw, const Mesh& mesh, double radius) {
    const glm::dvec3 wave = draw.direction() * (draw.uniform(1.0, 4.0) / (radius * kVoxelSize));
    const double phase = draw.uniform(0.0, 2.0 * kPi);
    std::vector<float> mask;
    for (const glm::vec3& p : mesh.positions)
        mask.push_back(float(std::clamp(0.5 + 0.8 * std::sin(glm::dot(glm::dvec3(p), wave) + phase), 0.0, 1.0)));
    return mask;
}

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0, double d = 0.0) {
    char text[160];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}

std::string describeHand(const ToolStroke& tool, const HandPlan& h) {
    return std::string(toolKindName(tool.kind)) + "/" + shapeName(tool) +
           format(" eps %.1f r_in %.2f eps", tool.outerRadius / kVoxelSize, tool.innerRadius / tool.outerRadius) +
           format(" pull %.0f turn %.0f deg scale %.2f", glm::length(h.pull), h.turn * 180.0 / kPi, h.scaleRatio) +
           format(" mu %.2f nu %.2f", tool.stiffness, tool.compressibility);
}

} // namespace

std::string strokeFamily(uint64_t seed) { return familyName(int(seed % kStrokeFamilies)); }

GeneratedCase generateCase(uint64_t seed) {
    Draw draw(seed);
    GeneratedCase c;
    c.seed = seed;
    const int family = int(seed % kStrokeFamilies);
    c.family = familyName(family);
    c.mode = (seed / kStrokeFamilies) % 2 ? MoveMode::Continuous : MoveMode::Move;
    c.stroke.voxelSize = kVoxelSize;

    const int hands = draw.chance(0.4) ? 2 : 1;
    const int poses = c.mode == MoveMode::Continuous ? draw.integer(2, 7) : draw.integer(2, 4);
    const std::vector<double> t = drawPathParameters(draw, poses);
    const glm::dvec3 origin = draw.uniform(0.0, 250.0) * draw.direction();

    std::vector<HandPlan> plans;
    std::vector<double> radii;
    std::string description;
    bool meeting = false;
    for (int i = 0; i < hands; ++i) {
        const double radius = drawRadius(draw);
        glm::dvec3 start = origin;
        if (i == 1) {
            // Meeting: starts within about two radii and pulls towards the first hand's end.
            meeting = draw.chance(0.6);
            const double apart = meeting ? draw.uniform(0.3, 2.0) : draw.uniform(3.0, 6.0);
            start = origin + apart * 0.5 * (radii[0] + radius) * draw.direction();
        }
        HandPlan plan = drawHand(draw, start);
        if (i == 1 && meeting) {
            const glm::dvec3 target = plans[0].start + plans[0].pull - start;
            plan.pull = glm::length(plan.pull) * (glm::length(target) > 0.0 ? glm::normalize(target) : plan.pull);
        }
        int toolFamily = family;
        if (i == 1) {
            if (draw.chance(0.15)) toolFamily = draw.integer(0, kStrokeFamilies - 1); // any kind
            else if (draw.chance(0.7)) // same kind, own shape
                toolFamily = family / kShapesPerKind * kShapesPerKind + draw.integer(0, kShapesPerKind - 1);
        }
        ToolStroke tool = makeTool(draw, plan, t, radius, toolFamily, c.mode);
        description += (i ? "; hand 2 " + std::string(meeting ? "meeting: " : "apart: ") : "") + describeHand(tool, plan);
        c.stroke.tools.push_back(tool);
        plans.push_back(plan);
        radii.push_back(radius);
    }

    if (draw.chance(0.2)) {
        // One or two axes (at most 8 tools with two hands), through a point near the tip or far away.
        const char* choices[] = {"x", "y", "z", "xy", "xz", "yz", "xyz"};
        const int pick = draw.integer(0, hands == 2 ? 5 : 6);
        c.stroke.symmetry.axes = *parseSymmetryAxes(choices[pick]);
        const double offset = draw.chance(0.5) ? draw.uniform(0.0, 1.0) * radii[0] : draw.uniform(2.0, 5.0) * radii[0];
        c.stroke.symmetry.origin = (origin + offset * draw.direction()) * kVoxelSize;
        description += "; mirror " + std::string(choices[pick]) + format(" at %.1f eps", offset / radii[0]);
    }

    c.mesh = makeMesh(draw, plans, radii);
    if (draw.chance(0.25)) {
        c.mesh.mask = makeMask(draw, c.mesh, radii[0]);
        description += "; mask";
    }
    c.description = std::string(moveModeName(c.mode)) + ", " + std::to_string(poses) + " poses: " + description;
    validateStroke(c.stroke, "generated seed " + std::to_string(seed));
    return c;
}

std::filesystem::path writeCase(const GeneratedCase& generated, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const std::string stem = "seed-" + std::to_string(generated.seed);
    // Some cases draw r_in over r_out to exercise the solver's clamp; a stroke file
    // saying so is refused as a mistake, so the file holds the clamped radius,
    // which solves the same (motion.cpp clamps r_in to r_out).
    Stroke stroke = generated.stroke;
    for (ToolStroke& tool : stroke.tools) tool.innerRadius = std::min(tool.innerRadius, tool.outerRadius);
    writeStrokeJson(stroke, dir / (stem + ".json"));
    writeMesh(generated.mesh, dir / (stem + ".ply"), MeshFormat::PlyBinary);
    return dir / (stem + ".json");
}

std::string validateCommand(const GeneratedCase& generated, const std::filesystem::path& dir,
                            std::string_view method, double tolerance, bool verify) {
    const std::string stem = (dir / ("seed-" + std::to_string(generated.seed))).string();
    return "sculptflow validate --stroke " + stem + ".json --mesh " + stem + ".ply --mode " +
           std::string(moveModeName(generated.mode)) + " --method " + std::string(method) +
           format(" --tol %g", tolerance) + (verify ? " --verify" : "");
}

} // namespace sculptflow::cli
