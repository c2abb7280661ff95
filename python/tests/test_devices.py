"""sculptflow.devices() and Context(device=...): the list the library picks from, a choice
from it, and a choice that names nothing (ValueError with the library's message)."""

import os

import numpy as np
import pytest

import sculptflow


@pytest.fixture(scope="module")
def usable(make_context):
    make_context()  # skips where there is no Vulkan device
    listed = sculptflow.devices()
    assert all(isinstance(d, sculptflow.Device) for d in listed)
    assert [d.index for d in listed] == list(range(len(listed)))
    found = [d for d in listed if d.usable]
    assert found, listed
    return found


@pytest.mark.skipif(bool(os.environ.get("SCULPTFLOW_DEVICE")), reason="SCULPTFLOW_DEVICE overrides device=")
def test_each_listed_device_can_be_chosen_by_index_and_name(usable, sphere, stroke, context, no_validation_messages):
    part = np.ascontiguousarray(sphere[:2048])
    reference = sculptflow.deform(part, stroke, backend="gpu", context=context)
    for device in usable:
        assert device.type in ("discrete", "integrated", "virtual", "cpu", "other")
        assert tuple(map(int, device.api_version.split("."))) >= (1, 2)
        for choice in (str(device.index), device.name):
            ctx = sculptflow.Context(validation=context.validation_enabled, device=choice)
            assert ctx.device_name == device.name
            moved = sculptflow.deform(part, stroke, backend="gpu", context=ctx)
            if device.name == context.device_name:
                np.testing.assert_array_equal(moved, reference)
            no_validation_messages(ctx)


@pytest.mark.skipif(bool(os.environ.get("SCULPTFLOW_DEVICE")), reason="SCULPTFLOW_DEVICE overrides device=")
def test_a_device_that_is_not_there_raises_value_error(usable):
    listed = sculptflow.devices()
    past_the_end = len(listed)
    while any(str(past_the_end) in d.name for d in listed):  # a name's substring chooses it too
        past_the_end += 1
    for choice in ("no such device", str(past_the_end)):
        with pytest.raises(ValueError, match="no Vulkan 1.2 compute device matches") as raised:
            sculptflow.Context(device=choice)
        assert choice in str(raised.value)
        assert usable[0].name in str(raised.value)  # the message lists what there is
