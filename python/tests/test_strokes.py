"""Strokes built in Python, the seeded generator, and meshes and strokes written
with the library's writers."""

import numpy as np
import pytest

import sculptflow

TOL = 0.1


def test_default_stroke_rebuilt_from_its_tools(sphere, stroke):
    rebuilt = sculptflow.Stroke.from_tools(stroke.tools, voxel_size=stroke.voxel_size, symmetry=stroke.symmetry)
    assert rebuilt.tool_count == stroke.tool_count and rebuilt.pose_counts == stroke.pose_counts
    np.testing.assert_array_equal(sculptflow.deform(sphere, rebuilt), sculptflow.deform(sphere, stroke))


def pull_along_x(kind, voxels, **tool_options):
    """One tool pulling `voxels` voxels along x with a quarter turn, voxel size 0.01."""
    v = 0.01
    turn = (np.cos(np.pi / 8), 0.0, 0.0, np.sin(np.pi / 8))
    poses = [sculptflow.Pose((0.0, 0.0, 0.0), time=0.0),
             sculptflow.Pose((voxels * v / 2, 0.0, 0.0), time=0.5),
             sculptflow.Pose((voxels * v, 0.0, 0.0), orientation=turn, time=1.0)]
    tool = sculptflow.Tool(kind, inner_radius=0.1, outer_radius=0.3, poses=poses, **tool_options)
    return sculptflow.Stroke.from_tools([tool], voxel_size=v)


@pytest.mark.parametrize("kind,options", [("kelvinlet", {"profile": "laplacian"}),
                                          ("affine", {"falloff": "smoother"}),
                                          ("affine-flow", {"falloff": "linear"})])
def test_built_stroke_solves_within_tolerance(kind, options):
    built = pull_along_x(kind, 20.0, **options)
    assert built.tools[0].kind == kind and built.pose_counts == [3]
    mesh = sculptflow.icosphere(3, (0.0, 0.0, 0.0), 0.2)
    start = built.to_voxels(mesh.positions)
    moved, stats = sculptflow.deform(start, built, tol=TOL, statistics=True)
    truth = sculptflow.ground_truth(start, built, details=True)
    c = sculptflow.compare((moved, stats), truth)
    assert np.linalg.norm(truth[0] - start, axis=1).max() > 10 * TOL  # a real move, not a no-op
    assert c["compared"] > len(start) // 2
    assert c["max_error"] <= TOL


BAD_TOOLS = [
    ("unknown kind", lambda: pull_along_x("blob", 5.0), "kind 'blob'"),
    ("unknown profile", lambda: pull_along_x("kelvinlet", 5.0, profile="cubic"), "profile"),
    ("falloff on a Kelvinlet", lambda: pull_along_x("kelvinlet", 5.0, falloff="sharp"), "falloff"),
    ("one pose", lambda: sculptflow.Stroke.from_tools(
        [sculptflow.Tool("kelvinlet", 0.1, 0.3, [sculptflow.Pose((0.0, 0.0, 0.0))])], voxel_size=0.01), "pose"),
    ("bad symmetry", lambda: sculptflow.Stroke.from_tools(pull_along_x("kelvinlet", 5.0).tools, voxel_size=0.01,
                                                          symmetry="w"), "symmetry"),
    ("voxel size zero", lambda: sculptflow.Stroke.from_tools(pull_along_x("kelvinlet", 5.0).tools,
                                                             voxel_size=0.0), "voxel_size"),
]


@pytest.mark.parametrize("name,make,words", BAD_TOOLS, ids=[b[0] for b in BAD_TOOLS])
def test_bad_strokes_raise_value_error(name, make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_symmetry_mirrors_the_tool():
    one = pull_along_x("affine", 20.0)  # an affine tool leaves all beyond its outer radius (0.3) unmoved
    mirrored = sculptflow.Stroke.from_tools(one.tools, voxel_size=0.01, symmetry="y", symmetry_origin=(0, 0.4, 0))
    assert mirrored.symmetry == "y"
    mesh = sculptflow.icosphere(2, (0.0, 0.8, 0.0), 0.1)  # around the tool's mirror image across y = 0.4
    start = one.to_voxels(mesh.positions)
    np.testing.assert_array_equal(sculptflow.deform(start, one), start)
    assert np.abs(sculptflow.deform(start, mirrored) - start).max() > 5.0


def test_generated_case_is_seeded(tmp_path):
    a, b = sculptflow.generate_case(1234), sculptflow.generate_case(1234)
    assert a["description"] == b["description"] and a["family"] == b["family"]
    assert sculptflow.generate_case(1235)["description"] != a["description"]
    assert a["mode"] in ("move", "continuous") and a["stroke"].voxel_size == 0.0013
    start = a["stroke"].to_voxels(a["mesh"].positions)
    np.testing.assert_array_equal(sculptflow.deform(start, a["stroke"]), sculptflow.deform(start, b["stroke"]))
    # Written and read back, it solves the same.
    path = tmp_path / "seed.json"
    a["stroke"].write_json(str(path))
    again = sculptflow.Stroke(str(path))
    np.testing.assert_array_equal(sculptflow.deform(start, again), sculptflow.deform(start, a["stroke"]))


@pytest.mark.parametrize("suffix", [".obj", ".ply", ".glb"])
def test_deformed_mesh_written_and_read_back(tmp_path, stroke, suffix):
    mesh = sculptflow.default_mesh(stroke)
    moved = sculptflow.deform(stroke.to_voxels(mesh.positions), stroke)
    world = (moved.astype(np.float64) * stroke.voxel_size).astype(np.float32)
    path = tmp_path / ("deformed" + suffix)
    mesh.with_positions(world).write(str(path))
    back = sculptflow.read_mesh(str(path))
    assert back.vertex_count == mesh.vertex_count
    np.testing.assert_allclose(back.positions, world, rtol=0, atol=1e-6)
    assert not np.allclose(back.positions, mesh.positions, atol=1e-3)  # the moved positions, not the input's


def test_with_positions_checks_its_input(stroke):
    mesh = sculptflow.default_mesh(stroke)
    with pytest.raises(ValueError, match="vertices"):
        mesh.with_positions(np.zeros((3, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="float32"):
        mesh.with_positions(np.zeros((mesh.vertex_count, 3)))
