// Strokes built in Python (Pose, Tool, Stroke.from_tools) and the seeded stroke
// generator that `sculptflow sweep` draws its cases from.
#include "bindings.hpp"

#include <array>
#include <cmath>

#include <pybind11/stl.h>

#include <sculptflow/error.hpp>
#include <sculptflow/mesh.hpp>
#include "stroke_generator.hpp"

namespace sculptflow::python {

namespace {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>; // w, x, y, z

template <typename T>
T parsedName(std::string_view name, std::optional<T> (*parse)(std::string_view), const char* what,
             std::string_view choices) {
    if (const std::optional<T> value = parse(name)) return *value;
    throw Error(std::string(what) + " '" + std::string(name) + "': expected " + std::string(choices));
}

Pose makePose(const Vec3& position, const Quat& orientation, double scale, double time) {
    Pose pose;
    pose.position = {position[0], position[1], position[2]};
    pose.orientation = glm::dquat(orientation[0], orientation[1], orientation[2], orientation[3]);
    pose.scale = scale;
    pose.time = time;
    return pose;
}

ToolStroke makeTool(const std::string& kind, double innerRadius, double outerRadius, const std::vector<Pose>& poses,
                    double stiffness, double compressibility, const std::string& profile,
                    const std::string& falloff) {
    ToolStroke tool;
    setToolKind(tool, parsedName(kind, &parseToolKind, "kind", kToolKindChoices));
    tool.innerRadius = innerRadius;
    tool.outerRadius = outerRadius;
    tool.poses = poses;
    tool.stiffness = stiffness;
    tool.compressibility = compressibility;
    tool.profile = parsedName(profile, &parseKelvinletProfile, "profile", kKelvinletProfileChoices);
    tool.falloff = parsedName(falloff, &parseFalloff, "falloff", kFalloffChoices);
    return tool;
}

// '' or 'none': no symmetry; else a subset of "xyz".
uint32_t symmetryAxes(const std::string& symmetry) {
    if (symmetry.empty() || symmetry == "none") return 0;
    const std::optional<uint32_t> axes = parseSymmetryAxes(symmetry);
    if (!axes) throw Error("symmetry '" + symmetry + "': expected 'none' (or '') or axes from 'xyz' (x, xz, xyz, ...)");
    return *axes;
}

Stroke strokeFromTools(const std::vector<ToolStroke>& tools, double voxelSize, const std::string& symmetry,
                       const Vec3& symmetryOrigin) {
    Stroke stroke;
    if (!(std::isfinite(voxelSize) && voxelSize > 0.0))
        throw Error("voxel_size " + std::to_string(voxelSize) + ": expected a finite size > 0");
    stroke.voxelSize = voxelSize;
    stroke.tools = tools;
    stroke.symmetry.axes = symmetryAxes(symmetry);
    stroke.symmetry.origin = {symmetryOrigin[0], symmetryOrigin[1], symmetryOrigin[2]};
    validateStroke(stroke, "stroke"); // as every reader does: ValueError naming the field
    return stroke;
}

} // namespace

Stroke strokeWithSymmetry(const Stroke& stroke, const std::optional<std::string>& symmetry,
                          const std::optional<Vec3>& origin) {
    if (!symmetry && !origin) return stroke;
    Stroke copy = stroke;
    if (symmetry) copy.symmetry.axes = symmetryAxes(*symmetry);
    if (origin) {
        if (!copy.symmetry.axes)
            throw Error("symmetry_origin: the stroke has no symmetry to place; give symmetry='x' (or 'xz', ...) too");
        copy.symmetry.origin = {(*origin)[0], (*origin)[1], (*origin)[2]};
    }
    validateStroke(copy, "stroke"); // a finite origin; mirrored copies within kMaxTools
    return copy;
}

namespace {

py::dict generatedCase(uint64_t seed) {
    cli::GeneratedCase c = cli::generateCase(seed);
    py::dict d;
    d["seed"] = c.seed;
    d["stroke"] = std::move(c.stroke);
    d["mesh"] = std::move(c.mesh);
    d["mode"] = std::string(moveModeName(c.mode));
    d["family"] = c.family;
    d["description"] = c.description;
    return d;
}

} // namespace

void registerStrokeBuilding(py::module_& m) {
    py::class_<Pose>(m, "Pose", "A tool pose in world units: position, unit quaternion (w, x, y, z), scale, time (s).")
        .def(py::init(&makePose), py::arg("position"), py::arg("orientation") = Quat{1.0, 0.0, 0.0, 0.0},
             py::arg("scale") = 1.0, py::arg("time") = 0.0)
        .def_property_readonly("position", [](const Pose& p) { return Vec3{p.position.x, p.position.y, p.position.z}; })
        .def_property_readonly("orientation", [](const Pose& p) {
            return Quat{p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z};
        })
        .def_readonly("scale", &Pose::scale)
        .def_readonly("time", &Pose::time)
        .def("__repr__", [](const Pose& p) {
            return "<sculptflow.Pose at (" + std::to_string(p.position.x) + ", " + std::to_string(p.position.y) +
                   ", " + std::to_string(p.position.z) + "), t " + std::to_string(p.time) + ">";
        });

    py::class_<ToolStroke>(m, "Tool",
                           "One tool (hand) over a stroke: its kind, radii (world units), material and poses.")
        .def(py::init(&makeTool), py::arg("kind"), py::arg("inner_radius"), py::arg("outer_radius"),
             py::arg("poses"), py::arg("stiffness") = 1.0, py::arg("compressibility") = 0.5,
             py::arg("profile") = "bi-scale", py::arg("falloff") = "smooth",
             "kind: 'kelvinlet', 'affine' or 'affine-flow'. profile (Kelvinlet only): 'bi-scale', 'tri-scale', "
             "'laplacian' or 'bi-laplacian'. falloff (affine kinds only): 'smooth', 'smoother', 'linear' or "
             "'sharp'. poses: at least two Pose, times strictly increasing. Checked by Stroke.from_tools.")
        .def_property_readonly("kind", [](const ToolStroke& t) { return std::string(toolKindName(t.kind)); })
        .def_property_readonly("profile",
                               [](const ToolStroke& t) { return std::string(kelvinletProfileName(t.profile)); })
        .def_property_readonly("falloff", [](const ToolStroke& t) { return std::string(falloffName(t.falloff)); })
        .def_readonly("inner_radius", &ToolStroke::innerRadius)
        .def_readonly("outer_radius", &ToolStroke::outerRadius)
        .def_readonly("stiffness", &ToolStroke::stiffness)
        .def_readonly("compressibility", &ToolStroke::compressibility)
        .def_readonly("poses", &ToolStroke::poses);

    py::reinterpret_borrow<py::class_<Stroke>>(m.attr("Stroke")) // registerStrokes made it
        .def_static("from_tools", &strokeFromTools, py::arg("tools"), py::kw_only(), py::arg("voxel_size"),
                    py::arg("symmetry") = "", py::arg("symmetry_origin") = Vec3{0.0, 0.0, 0.0},
                    "A stroke from Tool objects, in world units, with the voxel size (world units per voxel) and "
                    "mirror symmetry ('', 'x', 'xz', ...; origin a point on every mirror plane). Checked as the "
                    "readers check a file: ValueError naming the tool and field.")
        .def_property_readonly(
            "tools", [](const Stroke& s) { return s.tools; }, "Copies of the tools, as Tool objects.");

    m.def("generate_case", &generatedCase, py::arg("seed"),
          "The seeded stroke generator of `sculptflow sweep`: the case of `seed`, the same on every platform. "
          "Returns a dict: 'stroke' (a Stroke, voxel size 0.0013), 'mesh' (a Mesh in world units, with a mask "
          "where the case has one), 'mode' ('move' or 'continuous'), 'family' ('kelvinlet/tri-scale', ...), "
          "'description' and 'seed'.");
}

} // namespace sculptflow::python
