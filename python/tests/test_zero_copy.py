"""Arrays cross without copies where docs/python.md promises it: results own the
solver's buffer through a capsule, inputs are read in place, meshes are views.
Checked by address."""

import ctypes

import numpy as np
import pytest

import sculptflow

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def address_of(array):
    return array.__array_interface__["data"][0]


def assert_owns_solver_buffer(array):
    """The array reads the buffer its capsule holds: the C++ vector, not a copy."""
    assert not array.flags.owndata
    assert type(array.base).__name__ == "PyCapsule"
    assert _get_pointer(array.base, b"sculptflow.buffer") == address_of(array)


def test_deform_results_own_the_solver_buffer(sphere, stroke):
    moved, stats = sculptflow.deform(sphere, stroke, statistics=True)
    assert moved.dtype == np.float32 and moved.shape == sphere.shape and moved.flags.c_contiguous
    assert_owns_solver_buffer(moved)
    assert not np.shares_memory(moved, sphere)
    # The four statistics arrays are strided views of one buffer of 16-byte records.
    flags = stats["flags"]
    assert _get_pointer(flags.base, b"sculptflow.buffer") == address_of(flags)
    for offset, key in enumerate(("flags", "accepted", "rejected", "evaluations")):
        view = stats[key]
        assert view.base is flags.base and view.strides == (16,)
        assert address_of(view) == address_of(flags) + 4 * offset
    assert stats["total_evaluations"] == stats["evaluations"].sum()


def test_results_outlive_their_siblings(sphere, stroke):
    """The capsule frees the buffer with its last array, not before."""
    _, stats = sculptflow.deform(sphere[:512].copy(), stroke, statistics=True)
    evaluations = stats["evaluations"]
    expected = evaluations.copy()
    del stats
    import gc

    gc.collect()
    np.testing.assert_array_equal(evaluations, expected)
    assert expected.max() > 0


def test_gpu_result_owns_the_solver_buffer(sphere, stroke, context):
    part = np.ascontiguousarray(sphere[:1024])
    moved = sculptflow.deform(part, stroke, backend="gpu", context=context)
    assert_owns_solver_buffer(moved)


def test_ground_truth_and_to_voxels_own_their_buffers(sphere, stroke):
    part = np.ascontiguousarray(sphere[:32])
    truth, details = sculptflow.ground_truth(part, stroke, details=True)
    assert truth.dtype == np.float64 and truth.shape == (32, 3)
    assert_owns_solver_buffer(truth)
    assert_owns_solver_buffer(details["error_estimate"])
    world = sculptflow.default_mesh(stroke).positions
    assert_owns_solver_buffer(stroke.to_voxels(world))


def test_inputs_are_read_in_place(sphere):
    assert sculptflow._borrowed_address(sphere) == address_of(sphere)
    # A contiguous slice is read where it lies, too; a read-only array is fine.
    part = sphere[100:200]
    assert sculptflow._borrowed_address(part) == address_of(part)
    frozen = sphere.copy()
    frozen.setflags(write=False)
    assert sculptflow._borrowed_address(frozen) == address_of(frozen)


def test_strided_input_is_refused_not_copied(sphere, stroke):
    with pytest.raises(ValueError, match="contiguous"):
        sculptflow._borrowed_address(sphere[::2])
    with pytest.raises(ValueError, match="contiguous"):
        sculptflow.deform(sphere[::2], stroke)


def test_read_only_input_solves(sphere, stroke):
    frozen = sphere.copy()
    frozen.setflags(write=False)
    np.testing.assert_array_equal(sculptflow.deform(frozen, stroke), sculptflow.deform(sphere, stroke))


def test_mesh_arrays_are_read_only_views(stroke):
    mesh = sculptflow.default_mesh(stroke)
    positions = mesh.positions
    assert address_of(positions) == address_of(mesh.positions)  # no copy per access
    assert positions.base is mesh and not positions.flags.writeable
    assert address_of(mesh.face_indices) == address_of(mesh.face_indices)
    with pytest.raises(ValueError):
        positions[0, 0] = 1.0
    del mesh  # the view keeps the mesh alive
    assert np.isfinite(positions).all() and positions.shape == (10242, 3)


GROUND_TRUTH_BAD_INPUT = [
    ("int32", lambda p: p.astype(np.int32), "float32 or float64"),
    ("float64 of the wrong shape", lambda p: p.astype(np.float64).reshape(-1), "shape"),
    ("wrong shape", lambda p: p.reshape(-1), "shape"),
    ("not contiguous", lambda p: np.asfortranarray(p), "contiguous"),
]


@pytest.mark.parametrize("name,make,words", GROUND_TRUTH_BAD_INPUT, ids=[b[0] for b in GROUND_TRUTH_BAD_INPUT])
def test_ground_truth_bad_input_raises_value_error(sphere, stroke, name, make, words):
    arg = make(np.ascontiguousarray(sphere[:16]))
    before = np.array(arg, copy=True)
    with pytest.raises(ValueError, match=words):
        sculptflow.ground_truth(arg, stroke)
    np.testing.assert_array_equal(arg, before)
