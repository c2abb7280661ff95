"""Strokes built in Python, the seeded generator, and meshes and strokes written
with the library's writers."""

import json
import warnings

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


def test_what_the_reader_notices_is_a_user_warning(tmp_path):
    path = tmp_path / "noted.json"
    sculptflow.default_stroke().write_json(str(path))
    text = json.loads(path.read_text())
    del text["voxel_size"]
    text["tools"][0]["poses"][1]["orientation"] = [1.005, 0, 0, 0]
    path.write_text(json.dumps(text))
    with pytest.warns(UserWarning) as caught:
        stroke = sculptflow.Stroke(str(path))
    messages = [str(w.message) for w in caught]
    assert any("quaternion norm 1.005" in m and "normalised" in m for m in messages), messages
    assert any("no voxel_size" in m for m in messages), messages
    assert stroke.voxel_size == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # as the CLI's --strict
        with pytest.raises(UserWarning, match="no voxel_size|quaternion"):
            sculptflow.Stroke(str(path))


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


def test_symmetry_given_to_deform_and_ground_truth_replaces_the_strokes():
    one = pull_along_x("affine", 20.0)
    mirrored = sculptflow.Stroke.from_tools(one.tools, voxel_size=0.01, symmetry="y", symmetry_origin=(0, 0.4, 0))
    start = one.to_voxels(sculptflow.icosphere(2, (0.0, 0.8, 0.0), 0.1).positions)  # the mirror image's reach
    given = sculptflow.deform(start, one, symmetry="y", symmetry_origin=(0, 0.4, 0))
    assert np.abs(given - start).max() > 5.0
    np.testing.assert_array_equal(given, sculptflow.deform(start, mirrored))
    np.testing.assert_array_equal(sculptflow.deform(start, mirrored, symmetry="none"), start)
    np.testing.assert_array_equal(sculptflow.ground_truth(start, one, symmetry="y", symmetry_origin=(0, 0.4, 0)),
                                  sculptflow.ground_truth(start, mirrored))
    # Another origin moves the mirror image away: nothing there moves.
    np.testing.assert_array_equal(sculptflow.deform(start, mirrored, symmetry_origin=(0, -2.0, 0)), start)
    with pytest.raises(ValueError, match="symmetry_origin"):
        sculptflow.deform(start, one, symmetry_origin=(0, 0.4, 0))
    with pytest.raises(ValueError, match="symmetry 'w'"):
        sculptflow.deform(start, one, symmetry="w")
    with pytest.raises(ValueError, match="origin"):
        sculptflow.ground_truth(start, one, symmetry="y", symmetry_origin=(0, np.inf, 0))


def _same_at_float32(written, read):
    """read is written with every value rounded to float32 (orientations normalised again)."""
    f32 = lambda x: float(np.float32(x))
    assert read.tool_count == 1 and read.pose_counts == written.pose_counts
    a, b = written.tools[0], read.tools[0]
    assert b.kind == a.kind
    for field in ("inner_radius", "outer_radius", "stiffness", "compressibility"):
        assert getattr(b, field) == f32(getattr(a, field)), field
    for p, q in zip(a.poses, b.poses):
        assert list(q.position) == [f32(v) for v in p.position]
        assert (q.scale, q.time) == (f32(p.scale), f32(p.time))
        np.testing.assert_allclose(q.orientation, p.orientation, rtol=0, atol=2e-7)


def test_strokes_written_as_bin_read_back_equal(tmp_path):
    built = pull_along_x("kelvinlet", 20.0)
    path = tmp_path / "built.bin"
    built.write_bin(str(path))
    assert path.stat().st_size == 8 + 36 * 3 + 20  # spec section 5's layout
    back = sculptflow.Stroke(str(path), bin_voxel_size=built.voxel_size)
    assert back.voxel_size == built.voxel_size
    _same_at_float32(built, back)
    # Generated cases: those of one default-shaped tool are written; the rest refused, naming why.
    written = refused = 0
    for seed in range(40):
        stroke = sculptflow.generate_case(seed)["stroke"]
        target = tmp_path / f"seed{seed}.bin"
        try:
            stroke.write_bin(str(target))
        except ValueError as e:
            assert "cannot hold" in str(e) and not target.exists()
            refused += 1
            continue
        _same_at_float32(stroke, sculptflow.Stroke(str(target)))
        written += 1
    assert written > 0 and refused > 0, (written, refused)


def test_bin_refuses_what_it_cannot_hold_and_writes_nothing(tmp_path):
    one = pull_along_x("kelvinlet", 20.0)
    cases = [
        (sculptflow.Stroke.from_tools(one.tools * 2, voxel_size=0.01), "2 tools"),
        (sculptflow.Stroke.from_tools(one.tools, voxel_size=0.01, symmetry="x"), "symmetry 'x'"),
        (pull_along_x("affine-flow", 20.0), "affine-flow"),
        (pull_along_x("kelvinlet", 20.0, profile="tri-scale"), "profile"),
    ]
    for stroke, why in cases:
        path = tmp_path / "refused.bin"
        with pytest.raises(ValueError, match=why):
            stroke.write_bin(str(path))
        assert not path.exists()
