"""sculptflow.compare: the validate comparison, checked against NumPy's own
reckoning and against `sculptflow validate`'s JSON on the same case."""

import json
import math
import os
import subprocess

import numpy as np
import pytest

import sculptflow

TOL = 0.1
PROBLEM = ~np.uint32(sculptflow.FLAG_CULLED)


@pytest.fixture(scope="module")
def cpu_result(sphere, stroke):
    return sculptflow.deform(sphere, stroke, tol=TOL, statistics=True)


@pytest.fixture(scope="module")
def truth(sphere, stroke):
    return sculptflow.ground_truth(sphere, stroke, details=True)


def nearest_rank_p99(values):
    ordered = np.sort(values)
    return ordered[max(math.ceil(0.99 * len(ordered)), 1) - 1]


def test_truth_comparison_as_numpy_reckons_it(sphere, cpu_result, truth):
    moved, stats = cpu_result
    exact, details = truth
    c = sculptflow.compare(cpu_result, truth)
    problem = (stats["flags"] & PROBLEM) != 0
    kept = ~problem & details["converged"]
    error = np.linalg.norm(moved.astype(np.float64) - exact, axis=1)[kept]
    assert c["compared"] == kept.sum() > len(sphere) // 2
    assert c["max_error"] == pytest.approx(error.max(), rel=1e-12)
    assert c["mean_error"] == pytest.approx(error.mean(), rel=1e-9)
    assert 0 < c["max_error"] <= TOL  # the solver holds its tolerance in voxels
    in_reach = (stats["evaluations"] > 0).sum()
    assert c["in_reach"] == in_reach and c["flagged"] == problem.sum()
    assert c["flagged_share"] == pytest.approx(problem.sum() / max(in_reach, problem.sum()))


def test_a_wrong_result_fails_the_comparison(sphere, cpu_result, truth):
    """Moving one unflagged vertex by a voxel shows as a 1-voxel max error."""
    moved, stats = cpu_result
    wrong = moved.copy()
    i = int(np.flatnonzero((stats["flags"] & PROBLEM) == 0)[0])
    wrong[i, 0] += 1.0
    c = sculptflow.compare((wrong, stats), truth)
    assert c["max_error"] > 0.9


def test_reference_p99_as_numpy_reckons_it(sphere, stroke, cpu_result, truth):
    other = sculptflow.deform(sphere, stroke, tol=TOL / 4, statistics=True)
    c = sculptflow.compare(other, truth, reference=cpu_result)
    both = ((other[1]["flags"] | cpu_result[1]["flags"]) & PROBLEM) == 0
    difference = np.linalg.norm(other[0].astype(np.float64) - cpu_result[0], axis=1)[both]
    assert c["reference_compared"] == both.sum()
    assert c["reference_p99_difference"] == pytest.approx(nearest_rank_p99(difference), rel=1e-12)
    assert c["reference_max_difference"] == pytest.approx(difference.max(), rel=1e-12)
    assert c["reference_max_difference"] > 0  # two tolerances: not the same result
    same = sculptflow.compare(cpu_result, truth, reference=cpu_result)
    assert same["reference_max_difference"] == 0.0 and same["flag_agreement"] == 1.0


def test_positions_alone_compare_every_vertex(sphere, cpu_result, truth):
    c = sculptflow.compare(cpu_result[0], truth[0])
    assert c["compared"] == len(sphere) and c["flagged"] == 0


COMPARE_BAD_INPUT = [
    ("truth float32", lambda r, t: (r, t[0].astype(np.float32)), "float64"),
    ("truth too short", lambda r, t: (r, np.ascontiguousarray(t[0][:10])), "vertices"),
    ("result float64", lambda r, t: (r[0].astype(np.float64), t), "float32"),
    ("statistics lack flags", lambda r, t: ((r[0], {"evaluations": r[1]["evaluations"]}), t), "flags"),
    ("flags of the wrong dtype", lambda r, t: ((r[0], dict(r[1], flags=r[1]["flags"].astype(np.int64))), t),
     "uint32"),
]


@pytest.mark.parametrize("name,make,words", COMPARE_BAD_INPUT, ids=[b[0] for b in COMPARE_BAD_INPUT])
def test_compare_bad_input_raises_value_error(cpu_result, truth, name, make, words):
    before = (cpu_result[0].copy(), truth[0].copy())
    result, exact = make(cpu_result, truth)
    with pytest.raises(ValueError, match=words):
        sculptflow.compare(result, exact)
    np.testing.assert_array_equal(cpu_result[0], before[0])
    np.testing.assert_array_equal(truth[0], before[1])


def test_compare_matches_the_cli_validate(tmp_path, sphere, stroke, cpu_result, truth, context):
    """The same case through `sculptflow validate` and through Python gives the same figures."""
    cli = os.environ.get("SCULPTFLOW_CLI")
    if not cli:
        pytest.skip("SCULPTFLOW_CLI (the sculptflow executable) is not set; CTest sets it")
    out = tmp_path / "validate.json"
    run = subprocess.run([cli, "validate", "--method", "bs32", "--tol", str(TOL),  # the built-in sphere
                          "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert out.exists(), run.stdout + run.stderr
    report = json.loads(out.read_text())
    gpu = sculptflow.deform(sphere, stroke, tol=TOL, backend="gpu", context=context, statistics=True)
    c = sculptflow.compare(gpu, truth, reference=cpu_result)
    gpu_truth, gpu_cpu = report["gpu_vs_truth"], report["gpu_vs_cpu"]
    assert report["input"]["vertices"] == len(sphere)
    # The same solves and the same double truth: equal up to the truth's last bits.
    assert c["max_error"] == pytest.approx(gpu_truth["max_error_voxels"], abs=1e-9)
    assert c["compared"] == gpu_truth["compared_vertices"]
    assert c["flagged"] == gpu_truth["flagged_vertices"] and c["in_reach"] == gpu_truth["in_reach_vertices"]
    assert c["reference_p99_difference"] == pytest.approx(gpu_cpu["p99_difference_voxels"], abs=1e-9)
    assert c["reference_compared"] == gpu_cpu["compared_vertices"]
    flagged_share = next(k["value"] for k in report["checks"] if k["name"] == "flagged_share")
    assert c["flagged_share"] == pytest.approx(flagged_share, abs=1e-12)
