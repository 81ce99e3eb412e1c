"""set_context(backend=...): which installed backend serves the device target (the key a
second CPU backend, such as the numba plugin, is chosen by)."""
import pytest

from sporeling.core import ContextError, get_context, set_context
from sporeling.runtime import NumpyBackend, get_backend

from runtime_helpers import fake_plugin


class SecondCpu(NumpyBackend):
    name, device_target, priority = "second_cpu", "CPU", -1


@pytest.fixture
def two_cpu_backends(host_with):
    host_with(("second", fake_plugin("second", sporeling_add_backends=lambda backends:
                                     backends.add("second_cpu", SecondCpu))))


def test_the_backend_key_picks_among_the_backends_of_the_device_target(two_cpu_backends):
    assert get_context("backend") is None
    assert get_backend().name == "numpy" and get_backend("CPU").name == "numpy"
    set_context(device_target="CPU", backend="second_cpu")
    assert get_backend().name == "second_cpu"
    assert get_backend("cpu").name == "second_cpu"      # what the interpreters ask for
    assert get_backend("numpy").name == "numpy"         # by name: that one
    set_context(backend=None)
    assert get_backend().name == "numpy"


def test_an_unknown_backend_is_refused_listing_the_installed(two_cpu_backends):
    with pytest.raises(ContextError) as info:
        set_context(backend="cuda_magic")
    message = str(info.value)
    assert "backend" in message and "'cuda_magic'" in message
    assert "numpy" in message and "second_cpu" in message
    assert get_context("backend") is None
