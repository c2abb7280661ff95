"""The Python module's solves: CPU against the ground truth, GPU against CPU,
bad input, a reused Context and two Contexts on two threads (fixtures: conftest.py).
"""

import threading

import numpy as np
import pytest

import sculptflow

TOL = 0.1


@pytest.fixture(scope="module")
def cpu_solution(sphere, stroke):
    return sculptflow.deform(sphere, stroke, tol=TOL, statistics=True)


def test_default_case_in_voxels(stroke, sphere):
    mesh = sculptflow.default_mesh(stroke)
    assert sphere.dtype == np.float32 and sphere.shape == (mesh.vertex_count, 3)
    assert mesh.face_sizes.sum() == mesh.face_indices.size
    np.testing.assert_allclose(sphere * stroke.voxel_size, mesh.positions, rtol=1e-6)


def test_cpu_matches_ground_truth(sphere, stroke, cpu_solution):
    moved, stats = cpu_solution
    assert moved.dtype == np.float32 and moved.shape == sphere.shape
    for key in ("flags", "accepted", "rejected", "evaluations"):
        assert stats[key].shape == (len(sphere),)
    assert stats["vertices"] == len(sphere)
    assert stats["total_evaluations"] == stats["evaluations"].sum()
    truth = sculptflow.ground_truth(sphere, stroke)
    assert truth.dtype == np.float64 and truth.shape == sphere.shape
    # The move is far larger than the tolerance, so a wrong solve cannot pass.
    assert np.linalg.norm(truth - sphere, axis=1).max() > 100 * TOL
    unflagged = (stats["flags"] & ~np.uint32(sculptflow.FLAG_CULLED)) == 0
    assert unflagged.sum() > len(sphere) // 2
    error = np.linalg.norm(moved.astype(np.float64) - truth, axis=1)
    assert error[unflagged].max() <= TOL


def test_ground_truth_details(sphere, stroke):
    part = np.ascontiguousarray(sphere[:64])
    truth, details = sculptflow.ground_truth(part, stroke, details=True)
    assert details["converged"].all()
    assert details["error_estimate"].max() <= 1e-3
    np.testing.assert_array_equal(truth, sculptflow.ground_truth(part, stroke))


def test_ground_truth_from_float64_starts_is_not_rounded_to_float(sphere, stroke):
    part = np.ascontiguousarray(sphere[:16])
    exact = part.astype(np.float64)
    np.testing.assert_array_equal(sculptflow.ground_truth(exact, stroke), sculptflow.ground_truth(part, stroke))
    # A start float cannot hold (1e-4 of its ulp off) must be solved from where it is, not from its float.
    nudged = exact + np.spacing(part).astype(np.float64) * 1e-4
    assert not np.array_equal(nudged.astype(np.float32), nudged)
    moved = sculptflow.ground_truth(nudged, stroke) - sculptflow.ground_truth(exact, stroke)
    assert 0.0 < np.abs(moved).max() < 1e-4


def test_mask_zero_freezes(sphere, stroke):
    mask = np.ones(len(sphere), dtype=np.float32)
    mask[::2] = 0.0
    moved = sculptflow.deform(sphere, stroke, mask=mask)
    np.testing.assert_array_equal(moved[::2], sphere[::2])
    assert np.abs(moved[1::2] - sphere[1::2]).max() > 100 * TOL


def test_voxel_size_override_scales_the_move(sphere, stroke):
    own = sculptflow.deform(sphere, stroke)
    same = sculptflow.deform(sphere, stroke, voxel_size=stroke.voxel_size)
    np.testing.assert_array_equal(own, same)
    coarser = sculptflow.deform(sphere, stroke, voxel_size=2 * stroke.voxel_size)
    assert not np.array_equal(own, coarser)


BAD_INPUT = [
    ("wrong shape", lambda p: (p.reshape(-1), {}), "shape"),
    ("four columns", lambda p: (np.ascontiguousarray(np.hstack([p, p[:, :1]])), {}), "shape"),
    ("float64", lambda p: (p.astype(np.float64), {}), "float32"),
    ("not contiguous", lambda p: (np.asfortranarray(p), {}), "contiguous"),
    ("a list", lambda p: (p.tolist(), {}), "NumPy"),
    ("tol zero", lambda p: (p, {"tol": 0.0}), "tol"),
    ("tol negative", lambda p: (p, {"tol": -1.0}), "tol"),
    ("unknown method", lambda p: (p, {"method": "euler"}), "euler"),
    ("unknown mode", lambda p: (p, {"mode": "drag"}), "drag"),
    ("unknown backend", lambda p: (p, {"backend": "tpu"}), "tpu"),
    ("mask out of range", lambda p: (p, {"mask": np.full(len(p), 2.0, dtype=np.float32)}), "mask"),
    ("mask too short", lambda p: (p, {"mask": np.ones(3, dtype=np.float32)}), "mask"),
    ("voxel size zero", lambda p: (p, {"voxel_size": 0.0}), "voxel_size"),
]


@pytest.mark.parametrize("name,make,words", BAD_INPUT, ids=[b[0] for b in BAD_INPUT])
def test_bad_input_raises_value_error(sphere, stroke, name, make, words):
    positions = sphere.copy()
    arg, kwargs = make(positions)
    before = np.array(arg, copy=True)
    with pytest.raises(ValueError, match=words):
        sculptflow.deform(arg, stroke, **kwargs)
    np.testing.assert_array_equal(np.asarray(arg), before)
    np.testing.assert_array_equal(positions, sphere)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_raises_value_error(sphere, stroke, value):
    positions = sphere.copy()
    positions[7, 1] = value
    before = positions.copy()
    with pytest.raises(ValueError, match="vertex 7"):
        sculptflow.deform(positions, stroke)
    with pytest.raises(ValueError, match="vertex 7"):
        sculptflow.ground_truth(positions, stroke)
    np.testing.assert_array_equal(positions, before)


def test_bad_files_raise_value_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    with pytest.raises(ValueError, match="broken.json"):
        sculptflow.Stroke(str(broken))
    with pytest.raises(ValueError, match="missing.obj"):
        sculptflow.read_mesh(str(tmp_path / "missing.obj"))


def test_stroke_and_mesh_files_round_trip(tmp_path, stroke, sphere):
    path = tmp_path / "stroke.json"
    stroke.write_json(str(path))
    again = sculptflow.Stroke(str(path))
    assert again.voxel_size == stroke.voxel_size and again.tool_count == stroke.tool_count
    np.testing.assert_array_equal(sculptflow.deform(sphere, again), sculptflow.deform(sphere, stroke))
    obj = tmp_path / "tri.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    mesh = sculptflow.read_mesh(str(obj))
    assert mesh.positions.shape == (3, 3) and list(mesh.face_indices) == [0, 1, 2]


def gpu_vs_cpu(gpu, cpu):
    """The share of vertices whose GPU and CPU results part by at most 0.01 voxel."""
    distance = np.linalg.norm(gpu.astype(np.float64) - cpu.astype(np.float64), axis=1)
    return np.percentile(distance, 99), distance.max()


def test_gpu_matches_cpu(sphere, stroke, cpu_solution, context, no_validation_messages):
    moved, stats = sculptflow.deform(sphere, stroke, tol=TOL, backend="gpu", context=context, statistics=True)
    no_validation_messages(context)
    cpu, cpu_stats = cpu_solution
    p99, largest = gpu_vs_cpu(moved, cpu)
    assert p99 <= 0.01
    assert largest <= TOL
    assert np.abs(moved - sphere).max() > 100 * TOL  # it moved
    assert stats["flags"].shape == (len(sphere),) and stats["backend"] == "gpu"


def test_context_reused(sphere, stroke, context, no_validation_messages):
    part = np.ascontiguousarray(sphere[:2048])
    first = sculptflow.deform(part, stroke, backend="gpu", context=context)
    for tol in (0.05, 0.2):
        other = sculptflow.deform(part, stroke, tol=tol, backend="gpu", context=context)
        assert other.shape == part.shape
    again = sculptflow.deform(part, stroke, backend="gpu", context=context)
    np.testing.assert_array_equal(first, again)
    no_validation_messages(context)


def test_no_vertices(stroke, context):
    empty = np.zeros((0, 3), dtype=np.float32)
    for backend, ctx in (("cpu", None), ("gpu", context)):
        moved = sculptflow.deform(empty, stroke, backend=backend, context=ctx)
        assert moved.shape == (0, 3) and moved.dtype == np.float32


def test_gpu_bad_input_raises_value_error(sphere, stroke, context):
    positions = sphere.copy()
    with pytest.raises(ValueError, match="tol"):
        sculptflow.deform(positions, stroke, tol=0.0, backend="gpu", context=context)
    np.testing.assert_array_equal(positions, sphere)


def test_two_contexts_on_two_threads(sphere, stroke, context, make_context, no_validation_messages):
    part = np.ascontiguousarray(sphere[:4096])
    alone = sculptflow.deform(part, stroke, backend="gpu", context=context)
    contexts = [context, make_context()]
    results = [None, None]
    errors = []

    def solve(i):
        try:
            results[i] = sculptflow.deform(part, stroke, backend="gpu", context=contexts[i])
        except Exception as e:  # reported below, on the test's thread
            errors.append(e)

    threads = [threading.Thread(target=solve, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for r in results:
        np.testing.assert_array_equal(r, alone)
    for c in contexts:
        no_validation_messages(c)


def test_docstrings():
    for name in ("deform", "ground_truth", "read_mesh", "default_stroke", "default_mesh", "Context", "Stroke",
                 "devices", "Device"):
        doc = getattr(sculptflow, name).__doc__
        assert doc and len(doc) > 40, name
    assert "voxels" in sculptflow.deform.__doc__.lower()
    assert "symmetry" in sculptflow.deform.__doc__ and "symmetry" in sculptflow.ground_truth.__doc__
    assert "bin_voxel_size" in sculptflow.Stroke.write_bin.__doc__
    if hasattr(sculptflow, "ShaderReloader"):
        for member in (sculptflow.ShaderReloader, sculptflow.ShaderReloader.poll, sculptflow.ShaderReloader.reload,
                       sculptflow.ShaderError, sculptflow.shader_sources):
            assert member.__doc__ and len(member.__doc__) > 40, member


def test_solves_release_the_gil(sphere, stroke, make_context):
    """This thread runs Python while a solve is in progress on another: it sees the solve's
    mesh in the Context's device memory, which exists only inside deform(). A solve that held
    the GIL would allocate and free that mesh while this thread stood still, never seen. No
    clock or sleep decides the result."""
    ctx = make_context()
    solve = lambda: sculptflow.deform(sphere, stroke, backend="gpu", context=ctx)
    solve()  # the pipelines and the solver's own buffers exist from here on
    idle = ctx.allocated_memory
    done = threading.Event()
    worker = threading.Thread(target=lambda: (solve(), done.set()))
    seen = 0
    worker.start()
    while not done.is_set():
        seen += ctx.allocated_memory > idle
    worker.join()
    assert ctx.allocated_memory == idle  # the mesh is freed when deform() returns
    assert seen > 0


def test_continuous_statistics_are_per_vertex_over_the_whole_run(sphere, stroke):
    """The max beside the whole-run mean is the whole run's too, not one segment's."""
    few = np.ascontiguousarray(sphere[::50])
    _, stats = sculptflow.deform(few, stroke, tol=TOL, mode="continuous", statistics=True)
    assert stats["max_evaluations"] == int(stats["evaluations"].max())
    assert stats["mean_evaluations"] <= stats["max_evaluations"]
    assert stats["mean_evaluations"] == pytest.approx(float(stats["evaluations"].mean()), rel=1e-6)
