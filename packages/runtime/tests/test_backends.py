"""Backends and kernels contributed through sporeling_add_backends / sporeling_add_kernels."""
import numpy as np
import pytest

from sporeling.core import PluginError, context, get_plugin_host
from sporeling.runtime import (Backend, BackendNotFoundError, KernelNotFoundError,
                               NumpyBackend, get_backend, get_backends, get_kernels)

from runtime_helpers import fake_plugin


class ToyBackend(Backend):
    name, device_target = "toy", "TOY"

    def allocate(self, shape, dtype=np.float32, persistent=False):
        return np.empty(shape, dtype)

    def from_numpy(self, array, persistent=False):
        return np.array(array)

    def to_numpy(self, buffer):
        return np.array(buffer)


def test_the_numpy_backend_is_found_by_name_target_and_context():
    cpu = get_backend()
    assert isinstance(cpu, NumpyBackend) and cpu.device_target == "CPU"
    assert get_backend("numpy") is cpu and get_backend("cpu") is cpu
    assert get_backends().source_of("numpy") == "runtime"
    assert "add" in get_kernels().primitives("numpy")


def test_unknown_target_lists_the_available_ones():
    with context(device_target="Ascend"):
        with pytest.raises(BackendNotFoundError) as info:
            get_backend()
    message = str(info.value)
    assert "'ASCEND'" in message and "CPU" in message and "numpy" in message
    assert "set_context" in message and isinstance(info.value, LookupError)


def test_a_plugin_adds_a_backend_and_its_kernels(host_with):
    def sporeling_add_backends(backends):
        backends.add("toy", ToyBackend)

    def sporeling_add_kernels(kernels):
        kernels.add_kernel("toy", "add", lambda backend, a, b, out=None: np.add(a, b) * 10)

    host_with(("toyplug", fake_plugin("toyplug", sporeling_add_backends=sporeling_add_backends,
                                      sporeling_add_kernels=sporeling_add_kernels)))
    toy = get_backend("TOY")
    assert isinstance(toy, ToyBackend) and get_backends().source_of("toy") == "toyplug"
    assert toy.run("add", np.ones(2), np.ones(2)).tolist() == [20.0, 20.0]
    assert get_kernels().source_of("toy.add") == "toyplug"
    assert get_backend("CPU").name == "numpy"


def test_the_same_backend_name_from_two_plugins_names_both(host_with):
    def sporeling_add_backends(backends):
        backends.add("numpy", ToyBackend)

    host_with(("fastcpu", fake_plugin("fastcpu", sporeling_add_backends=sporeling_add_backends)))
    with pytest.raises(PluginError) as info:
        get_backends()
    assert "'runtime'" in str(info.value) and "'fastcpu'" in str(info.value)


def test_the_same_kernel_from_two_plugins_names_both_unless_replacing(host_with):
    def clash(kernels):
        kernels.add_kernel("numpy", "add", lambda backend, a, b, out=None: None)

    host_with(("fastadd", fake_plugin("fastadd", sporeling_add_kernels=clash)))
    with pytest.raises(PluginError, match="'runtime' and 'fastadd'"):
        get_kernels()

    def replace(kernels):
        kernels.add_kernel("numpy", "add", lambda backend, a, b, out=None: "fast", replace=True)

    host_with(("fastadd", fake_plugin("fastadd", sporeling_add_kernels=replace)))
    assert get_backend("numpy").run("add", 1, 2) == "fast"


def test_registries_are_rebuilt_for_a_new_host(host_with):
    before = get_kernels()
    host_with()
    assert get_kernels() is not before and get_kernels() is get_kernels()


def test_higher_priority_backend_wins_a_target(host_with):
    class FastCPU(ToyBackend):
        name, device_target, priority = "fastcpu", "CPU", 10

    def sporeling_add_backends(backends):
        backends.add("fastcpu", FastCPU)

    host_with(("fastcpu", fake_plugin("fastcpu", sporeling_add_backends=sporeling_add_backends)))
    assert get_backend().name == "fastcpu" and get_backend("numpy").name == "numpy"


def test_bad_contributions_are_plugin_errors(host_with):
    def not_a_factory(backends):
        backends.add("broken", 42)

    host_with(("bad", fake_plugin("bad", sporeling_add_backends=not_a_factory)))
    with pytest.raises(PluginError, match="'bad'"):
        get_backends()

    def wrong_object(backends):
        backends.add("wrong", lambda: "not a backend")

    host_with(("bad", fake_plugin("bad", sporeling_add_backends=wrong_object)))
    with pytest.raises(PluginError, match="Backend instance"):
        get_backends().instance("wrong")

    def bad_kernel(kernels):
        kernels.add_kernel("numpy", "", print)

    host_with(("bad", fake_plugin("bad", sporeling_add_kernels=bad_kernel)))
    with pytest.raises(PluginError, match="primitive name"):
        get_kernels()


def test_missing_kernel_names_primitive_backend_and_close_names():
    cpu = get_backend("numpy")
    with pytest.raises(KernelNotFoundError) as info:
        cpu.kernel("mull")
    message = str(info.value)
    assert "'mull'" in message and "'numpy'" in message and "'mul'" in message
    assert isinstance(info.value, LookupError)
    with pytest.raises(KernelNotFoundError, match="sporeling_add_kernels"):
        cpu.run("fast_fourier_transform", np.ones(3))
    assert cpu.has_kernel("add") and not cpu.has_kernel("mull")


def test_runtime_declares_its_hookspecs():
    specs = get_plugin_host().hookspecs()
    for name in ("sporeling_add_backends", "sporeling_add_kernels"):
        assert specs[name].__doc__.strip()
