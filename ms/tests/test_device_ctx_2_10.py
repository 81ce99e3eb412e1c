"""``DeviceCtx`` (2.10): the current device inside, the previous one restored after."""
import pytest

import sporeling.ms as ms
from sporeling.core.errors import ContextError


@pytest.fixture(autouse=True)
def _device_back():
    before = ms.get_current_device()
    yield
    ms.set_device(before.device_target, before.device_id)


def test_nested_contexts_set_and_restore_the_device():
    ms.set_device("CPU", 0)
    with ms.DeviceCtx("CPU", 3) as ctx:
        assert ms.get_current_device() == ("CPU", 3) and ctx.device_id == 3
        with ms.DeviceCtx("CPU") as inner:
            assert ms.get_current_device() == ("CPU", 0) and inner.device_id == 0
        assert ms.get_current_device() == ("CPU", 3)
    assert ms.get_current_device() == ("CPU", 0)


def test_restored_after_an_error_inside():
    ms.set_device("CPU", 1)
    with pytest.raises(KeyError):
        with ms.DeviceCtx("CPU", 2):
            raise KeyError("inside")
    assert ms.get_current_device() == ("CPU", 1)


def test_bad_names_and_unserved_devices_change_nothing():
    ms.set_device("CPU", 0)
    with pytest.raises(ValueError, match="must be one of"):
        with ms.DeviceCtx("TPU"):
            pass
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        with ms.DeviceCtx("CPU", -1):
            pass
    with pytest.raises(ContextError, match="device_target"):
        with ms.DeviceCtx("Ascend"):
            pass
    assert ms.get_current_device() == ("CPU", 0)
