"""A Context reused for many solves builds each pipeline once, as its solver
counts them. (Two Contexts on two threads: test_sculptflow.py.)"""

import numpy as np

import sculptflow


def test_hundred_solves_build_each_pipeline_once(sphere, stroke, make_context, no_validation_messages):
    ctx = make_context()
    assert ctx.pipelines_built == 0
    part = np.ascontiguousarray(sphere[:256])
    # A tolerance sweep, each at its planned attempt budget: neither is a pipeline constant.
    _, planned = sculptflow.deform(part, stroke, tol=0.02, statistics=True)
    budget = planned["max_attempts"]
    first = sculptflow.deform(part, stroke, tol=0.02, max_attempts=budget, backend="gpu", context=ctx)
    built = ctx.pipelines_built
    assert built > 0
    for tol in np.geomspace(0.02, 0.5, 99):
        sculptflow.deform(part, stroke, tol=float(tol), backend="gpu", context=ctx)
    assert ctx.pipelines_built == built
    again = sculptflow.deform(part, stroke, tol=0.02, max_attempts=budget, backend="gpu", context=ctx)
    np.testing.assert_array_equal(again, first)
    # The counter counts: another method is another solve pipeline.
    sculptflow.deform(part, stroke, method="dp45", max_attempts=budget, backend="gpu", context=ctx)
    assert ctx.pipelines_built == built + 1
    no_validation_messages(ctx)

