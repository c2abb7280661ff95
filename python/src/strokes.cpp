// Strokes and meshes: the library's readers and the built-in default case.
#include "bindings.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <optional>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/mesh.hpp>

namespace sculptflow::python {

namespace {

// What the reader noticed becomes a UserWarning each (an error under
// warnings.simplefilter("error"), as --strict makes them in the CLI).
Stroke readStrokeFile(const std::filesystem::path& path, std::optional<double> binVoxelSize) {
    StrokeReadNotes notes;
    StrokeReadOptions options{.notes = &notes};
    if (binVoxelSize) options.binVoxelSize = *binVoxelSize;
    Stroke stroke = readStroke(path, options);
    if (notes.voxelSizeDefaulted)
        notes.warnings.push_back(path.string() + ": no voxel_size, so 1 world unit per voxel is assumed unless "
                                 "you give voxel_size to the call that solves");
    for (const std::string& warning : notes.warnings)
        if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
    return stroke;
}

// World units to voxels as the CLI converts them: in double, then rounded to float.
py::array_t<float> toVoxels(const Stroke& stroke, const py::handle& positions) {
    const BorrowedPositions world = borrowPositions(positions, "positions");
    const double scale = 1.0 / stroke.voxelSize;
    std::vector<glm::vec3> p(world.positions.size());
    for (size_t i = 0; i < p.size(); ++i) p[i] = glm::vec3(glm::dvec3(world.positions[i]) * scale);
    return arrayFromPositions(std::move(p));
}

} // namespace

Stroke strokeWithVoxelSize(const Stroke& stroke, const std::optional<double>& voxelSize) {
    Stroke copy = stroke;
    if (voxelSize) {
        if (!(std::isfinite(*voxelSize) && *voxelSize > 0.0))
            throw Error("voxel_size " + std::to_string(*voxelSize) + ": expected a finite size > 0");
        copy.voxelSize = *voxelSize;
    }
    return copy;
}

void registerStrokes(py::module_& m) {
    py::class_<Stroke>(m, "Stroke",
                       "A recorded or scripted stroke: the poses of one or more tools, in world units, "
                       "with the voxel size that converts them to the solver's voxels.")
        .def(py::init(&readStrokeFile), py::arg("path"), py::arg("bin_voxel_size") = py::none(),
             "Reads a stroke file: the spec's JSON (.json) or the recorded binary format (.bin), chosen "
             "by extension. A .bin carries no voxel size: bin_voxel_size gives it (default 0.0013). "
             "Raises ValueError naming the file and the problem. What it fixes rather than refuses (a quaternion "
             "slightly off unit length) and a missing voxel_size are each a UserWarning.")
        .def_readwrite("voxel_size", &Stroke::voxelSize, "World units per voxel.")
        .def_property_readonly(
            "tool_count", [](const Stroke& s) { return s.tools.size(); }, "Tools (hands) in the stroke.")
        .def_property_readonly(
            "pose_counts", [](const Stroke& s) {
                std::vector<size_t> counts;
                for (const ToolStroke& t : s.tools) counts.push_back(t.poses.size());
                return counts;
            },
            "Poses of each tool.")
        .def_property_readonly(
            "symmetry", [](const Stroke& s) { return symmetryAxesName(s.symmetry.axes); },
            "Mirror symmetry axes, e.g. 'x' or 'xz'; '' for none.")
        .def("to_voxels", &toVoxels, py::arg("positions"),
             "World-unit positions (float32 (N, 3)) to voxels (divided by voxel_size in double), as a "
             "new float32 (N, 3) array.")
        .def("write_json", [](const Stroke& s, const std::filesystem::path& path) { writeStrokeJson(s, path); },
             py::arg("path"), "Writes the stroke in the spec's JSON form.")
        .def("write_bin", [](const Stroke& s, const std::filesystem::path& path) { writeStrokeBin(s, path); },
             py::arg("path"),
             "Writes the stroke as a recorded .bin (spec section 5): one tool, its values as float32 (read back "
             "equal to float32 rounding). The file holds no voxel size: read it back with "
             "Stroke(path, bin_voxel_size=...). Raises ValueError, writing nothing, for what the format cannot "
             "hold (several tools, symmetry, kind 'affine-flow', a profile or falloff other than the default).")
        .def("__repr__", [](const Stroke& s) {
            return "<sculptflow.Stroke: " + std::to_string(s.tools.size()) + " tool(s), voxel_size " +
                   std::string(py::str(py::float_(s.voxelSize))) + ">";
        });
    m.def("default_stroke", &defaultStroke,
          "The built-in stroke: a scripted Kelvinlet pull of about 430 voxels with a 110 degree twist, "
          "in metres, voxel size 0.0013.");

    py::class_<Mesh>(m, "Mesh", "A polygon mesh: positions in the units of its file, and faces.")
        // Views of the Mesh's own vectors, read-only so that the Mesh stays as read.
        .def_property_readonly(
            "positions",
            [](const py::object& self) { return viewOfPositions(self.cast<const Mesh&>().positions, self); },
            "A read-only float32 (N, 3) view of the positions, in the file's units (no copy).")
        .def_property_readonly(
            "face_sizes", [](const py::object& self) { return viewOfVector(self.cast<const Mesh&>().faceSizes, self); },
            "A read-only uint32 view: vertices in each face (3 for a triangle).")
        .def_property_readonly(
            "face_indices",
            [](const py::object& self) { return viewOfVector(self.cast<const Mesh&>().faceIndices, self); },
            "A read-only uint32 view: the faces' zero-based vertex indices, concatenated.")
        .def_property_readonly(
            "mask", [](const py::object& self) -> py::object {
                const Mesh& mesh = self.cast<const Mesh&>();
                if (mesh.mask.empty()) return py::none();
                return viewOfVector(mesh.mask, self);
            },
            "A PLY file's per-vertex float32 mask as a read-only view, or None.")
        .def_property_readonly(
            "vertex_count", [](const Mesh& mesh) { return mesh.positions.size(); }, "Vertices.")
        .def(
            "with_positions",
            [](const Mesh& mesh, const py::handle& positions) {
                const BorrowedPositions moved = borrowPositions(positions, "positions");
                if (moved.positions.size() != mesh.positions.size())
                    throw Error("positions: " + std::to_string(moved.positions.size()) + " vertices; the mesh has " +
                                std::to_string(mesh.positions.size()));
                Mesh copy = mesh;
                copy.positions.assign(moved.positions.begin(), moved.positions.end());
                return copy;
            },
            py::arg("positions"),
            "A copy with other positions: a float32 (N, 3) array in the mesh's units (deform()'s voxels times "
            "the stroke's voxel_size), the faces and what the file held kept.")
        .def(
            "write", [](const Mesh& mesh, const std::filesystem::path& path) { writeMesh(mesh, path); },
            py::arg("path"),
            "Writes the mesh by extension with the library's writers: .obj, .ply (binary), .gltf or .glb. "
            "Raises ValueError naming the file when it cannot be written.")
        .def("__repr__", [](const Mesh& mesh) {
            return "<sculptflow.Mesh: " + std::to_string(mesh.positions.size()) + " vertices, " +
                   std::to_string(mesh.faceSizes.size()) + " faces>";
        });
    m.def("read_mesh", [](const std::filesystem::path& path) { return readMesh(path); }, py::arg("path"),
          "Reads an .obj, .ply (ASCII or binary), .gltf or .glb mesh, chosen by extension (a glTF's "
          "triangles in world space). Raises ValueError naming the file and the problem.");
    m.def("default_mesh", &defaultMesh, py::arg("stroke"),
          "The built-in sphere for a stroke: a 10,242-vertex icosphere around the first tool's tip at "
          "its first pose, in world units (Stroke.to_voxels converts them).");
    m.def(
        "icosphere",
        [](int subdivisions, const std::array<float, 3>& center, float radius) {
            if (subdivisions < 0 || subdivisions > 8)
                throw Error("subdivisions " + std::to_string(subdivisions) + ": expected 0 to 8");
            return icosphere(subdivisions, glm::vec3(center[0], center[1], center[2]), radius);
        },
        py::arg("subdivisions"), py::arg("center"), py::arg("radius"),
        "A geodesic sphere: an icosahedron subdivided `subdivisions` times (10*4**n + 2 vertices).");
}

} // namespace sculptflow::python
