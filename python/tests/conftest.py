"""Fixtures the test files share: the built-in case in voxels and GPU contexts.

CTest (python.pytest) runs the suite with PYTHONPATH at the built module and
SCULPTFLOW_VALIDATION=1, so every GPU solve runs under the validation layer.
"""

import os

import pytest

import sculptflow


@pytest.fixture(scope="session")
def stroke():
    return sculptflow.default_stroke()


@pytest.fixture(scope="session")
def sphere(stroke):
    """The built-in 10,242-vertex sphere, in voxels."""
    return stroke.to_voxels(sculptflow.default_mesh(stroke).positions)


def _new_context():
    try:
        return sculptflow.Context()
    except RuntimeError as e:
        pytest.skip(f"no usable Vulkan context: {e}")


@pytest.fixture(scope="session")
def make_context():
    """A function that makes a Context, or skips cleanly where this machine has no
    Vulkan device (or, under SCULPTFLOW_VALIDATION=1, no validation layer)."""
    return _new_context


def _check_no_validation_messages(ctx):
    if os.environ.get("SCULPTFLOW_VALIDATION") == "1":
        assert ctx.validation_enabled, "SCULPTFLOW_VALIDATION=1 but the context runs without validation"
    ctx.check_validation()  # raises RuntimeError listing the messages


@pytest.fixture(scope="session")
def no_validation_messages():
    """A function that fails on anything the validation layer reported (when it is on)."""
    return _check_no_validation_messages


@pytest.fixture(scope="session")
def context():
    ctx = _new_context()
    yield ctx
    ctx.check_validation()
