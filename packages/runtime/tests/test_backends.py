"""Backends and kernels contributed through sporeling_add_backends / sporeling_add_kernels."""
import numpy as np
import pytest

from sporeling.core import (ContextError, PluginError, PluginWarning, get_context,
                            get_plugin_host, set_context)
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


def test_the_numpy_backend_is_found_by_name_target_and_context(host_with):
    host_with()  # only core and runtime: no plugin backend above NumPy's priority
    cpu = get_backend()
    assert isinstance(cpu, NumpyBackend) and cpu.device_target == "CPU"
    assert get_backend("numpy") is cpu and get_backend("cpu") is cpu
    assert get_backends().source_of("numpy") == "runtime"
    assert "add" in get_kernels().primitives("numpy")


def test_unknown_target_lists_the_available_ones():
    with pytest.raises(BackendNotFoundError) as info:
        get_backend("Ascend")
    message = str(info.value)
    assert "'Ascend'" in message and "CPU" in message and "numpy" in message
    assert isinstance(info.value, LookupError)


def test_set_context_refuses_a_device_target_with_no_backend_listing_the_installed():
    with pytest.raises(ContextError) as info:
        set_context(device_target="GPU")
    message = str(info.value)
    # (CPU (numpy) alone, or with other installed CPU backends: "CPU (numba, numpy)")
    assert "device_target" in message and "'GPU'" in message and "CPU (" in message
    assert "numpy" in message
    assert get_context("device_target") == "CPU"
    set_context(device_target="cpu")                 # case-insensitive, as before
    assert get_context("device_target") == "CPU"


def test_a_device_target_from_a_plugin_is_accepted(host_with):
    host_with(("toyplug", fake_plugin("toyplug", sporeling_add_backends=lambda backends:
                                      backends.add("toy", ToyBackend))))
    set_context(device_target="toy")
    assert isinstance(get_backend(), ToyBackend)


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


def _failure(name):
    return {f.name: f for f in get_plugin_host().failed}[name].error


def test_the_same_backend_name_from_a_second_plugin_drops_it_naming_both(host_with):
    def sporeling_add_backends(backends):
        backends.add("numpy", ToyBackend)

    host_with(("fastcpu", fake_plugin("fastcpu", sporeling_add_backends=sporeling_add_backends)))
    with pytest.warns(PluginWarning, match="'fastcpu'"):
        assert isinstance(get_backend("numpy"), NumpyBackend)    # runtime's, still working
    error = _failure("fastcpu")
    assert "backend 'numpy'" in error and "'runtime' (sporeling-runtime)" in error
    assert "'fastcpu' (fastcpu-dist)" in error


def test_a_kernel_clash_drops_the_plugin_and_all_it_added_unless_replacing(host_with):
    def backends(backends):
        backends.add("toy", ToyBackend)

    def clash(kernels):
        kernels.add_kernel("numpy", "fancy", lambda backend, a, out=None: "fancy")
        kernels.add_kernel("numpy", "add", lambda backend, a, b, out=None: None)

    host_with(("fastadd", fake_plugin("fastadd", sporeling_add_kernels=clash,
                                      sporeling_add_backends=backends)))
    assert "toy" in get_backends()                   # collected before the clash shows
    with pytest.warns(PluginWarning, match="'fastadd'"):
        cpu = get_backend("numpy")
        x = cpu.from_numpy(np.ones(2, np.float32))
        assert cpu.to_numpy(cpu.run("add", x, x)).tolist() == [2.0, 2.0]   # every op works
    assert not cpu.has_kernel("fancy") and "toy" not in get_backends()     # all taken back
    assert "kernel 'numpy.add'" in _failure("fastadd")

    def replace(kernels):
        kernels.add_kernel("numpy", "add", lambda backend, a, b, out=None: "fast", replace=True)

    host_with(("fastadd", fake_plugin("fastadd", sporeling_add_kernels=replace)))
    assert get_backend("numpy").run("add", 1, 2) == "fast"

    def replace_then_crash(kernels):
        kernels.add_kernel("numpy", "add", lambda backend, a, b, out=None: "fast", replace=True)
        raise RuntimeError("half-installed")

    host_with(("fastadd", fake_plugin("fastadd", sporeling_add_kernels=replace_then_crash)))
    with pytest.warns(PluginWarning, match="half-installed"):
        assert get_backend("numpy").run("add", 1, 2) == 3        # runtime's kernel is back
    assert get_kernels().source_of("numpy.add") == "runtime"


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


def test_bad_contributions_drop_their_plugin_or_fail_where_used(host_with):
    def not_a_factory(backends):
        backends.add("broken", 42)

    host_with(("bad", fake_plugin("bad", sporeling_add_backends=not_a_factory)))
    with pytest.warns(PluginWarning, match="'bad'"):
        assert "broken" not in get_backends() and "numpy" in get_backends()
    assert "not a factory" in _failure("bad")

    def wrong_object(backends):
        backends.add("wrong", lambda: "not a backend")

    host_with(("bad", fake_plugin("bad", sporeling_add_backends=wrong_object)))
    with pytest.raises(PluginError, match="Backend instance"):
        get_backends().instance("wrong")

    def bad_kernel(kernels):
        kernels.add_kernel("numpy", "", print)

    host_with(("bad", fake_plugin("bad", sporeling_add_kernels=bad_kernel)))
    with pytest.warns(PluginWarning, match="primitive name"):
        assert get_kernels().primitives("numpy")


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
