"""ShaderReloader: the built-in GLSL written out, edited and loaded into a Context. A solve
runs the edit; an edit that does not compile raises ShaderError and the last good shader
keeps running. Each test has a Context of its own, as a reload changes it for good."""

import numpy as np
import pytest

import sculptflow

pytestmark = pytest.mark.skipif(not hasattr(sculptflow, "ShaderReloader"),
                                reason="the library was built without hot reload (SCULPTFLOW_HOT_RELOAD=OFF)")

# deform.comp's writePosition stores each solved vertex's x here; the edit adds one voxel.
STORE_X = "outputPositions[out0] = position.x;"
SHIFTED_X = "outputPositions[out0] = position.x + 1.0;"
BROKEN_X = "outputPositions[out0] = position.x + ;"


def _write_shader_sources(directory):
    for relative, text in sculptflow.shader_sources().items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    entry = directory / "deform.comp"
    assert entry.read_text().count(STORE_X) == 1, "deform.comp changed: update STORE_X"
    return entry


def _edit(entry, old, new):
    text = entry.read_text()
    entry.write_text(text.replace(old, new))
    return text[:text.index(old)].count("\n") + 1  # the edited line, 1-based


def test_edited_shader_runs_and_a_broken_edit_keeps_the_last_good(
        tmp_path, sphere, stroke, make_context, no_validation_messages):
    entry = _write_shader_sources(tmp_path)
    ctx = make_context()
    built_in = sculptflow.deform(sphere, stroke, backend="gpu", context=ctx)
    moved = np.any(built_in != sphere, axis=1)
    assert moved.sum() > 100

    reloader = sculptflow.ShaderReloader(ctx, tmp_path)
    assert reloader.generation == 1 and reloader.context is ctx
    assert any(source.endswith("deform.comp") for source in map(str, reloader.sources))
    # The same source compiled at run time: the same solve, to far below the tolerance.
    same = sculptflow.deform(sphere, stroke, backend="gpu", context=ctx)
    np.testing.assert_allclose(same, built_in, rtol=0, atol=1e-4)

    _edit(entry, STORE_X, SHIFTED_X)
    assert reloader.poll() is True
    assert reloader.generation == 2
    assert reloader.poll() is False  # nothing changed since
    shifted = sculptflow.deform(sphere, stroke, backend="gpu", context=ctx)
    # Every moved vertex lands one voxel further in x (float32 rounding at |x| < 200 voxels).
    np.testing.assert_allclose(shifted[moved, 0] - same[moved, 0], 1.0, rtol=0, atol=1e-4)
    np.testing.assert_array_equal(shifted[:, 1:], same[:, 1:])

    line = _edit(entry, SHIFTED_X, BROKEN_X)
    with pytest.raises(sculptflow.ShaderError) as raised:
        reloader.poll()
    assert isinstance(raised.value, ValueError)
    assert "deform.comp" in str(raised.value)
    assert any(file.endswith("deform.comp") and at == line for file, at, _ in raised.value.diagnostics), \
        raised.value.diagnostics
    assert reloader.generation == 2
    kept = sculptflow.deform(sphere, stroke, backend="gpu", context=ctx)
    np.testing.assert_array_equal(kept, shifted)  # the last good build, not the built-in one

    _edit(entry, BROKEN_X, STORE_X)  # the next good save recovers
    assert reloader.reload() is True and reloader.generation == 3
    np.testing.assert_array_equal(sculptflow.deform(sphere, stroke, backend="gpu", context=ctx), same)
    no_validation_messages(ctx)


def test_a_shader_that_does_not_compile_leaves_the_built_in_one(
        tmp_path, sphere, stroke, context, make_context, no_validation_messages):
    entry = _write_shader_sources(tmp_path)
    _edit(entry, STORE_X, BROKEN_X)
    ctx = make_context()
    with pytest.raises(sculptflow.ShaderError, match="deform.comp"):
        sculptflow.ShaderReloader(ctx, tmp_path)
    with pytest.raises(ValueError, match="absent"):
        sculptflow.ShaderReloader(ctx, tmp_path / "absent")
    # The session's Context never had a reloader: its result is the built-in shader's.
    np.testing.assert_array_equal(sculptflow.deform(sphere, stroke, backend="gpu", context=ctx),
                                  sculptflow.deform(sphere, stroke, backend="gpu", context=context))
    no_validation_messages(ctx)
