"""Lowering plans memory from what each backend's kernels declare in the kernel registry,
not from NumPy's facts by primitive name."""
import types

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower
from sporeling.core import PluginHost, impl, set_plugin_host
from sporeling.runtime import KernelMemory, NumpyBackend, get_backend
from sporeling.runtime.kernels import NUMPY_KERNELS


class MemToyBackend(NumpyBackend):
    name, device_target = "memtoy", "MEMTOY"


def _plugin(memory: dict):
    module = types.ModuleType("memtoy")

    def sporeling_add_backends(backends):
        backends.add("memtoy", MemToyBackend)

    def sporeling_add_kernels(kernels):
        for name, declared in memory.items():
            kernels.add_kernel("memtoy", name, NUMPY_KERNELS[name], memory=declared)

    for fn in (sporeling_add_backends, sporeling_add_kernels):
        setattr(module, fn.__name__, impl(fn))
    return module


@pytest.fixture
def memtoy():
    def install(memory):
        host = PluginHost()
        host.add_plugins([("memtoy", "memtoy-dist", "1.0", _plugin(memory))])
        set_plugin_host(host)
        return get_backend("memtoy")
    old = set_plugin_host(None)
    yield install
    set_plugin_host(old)


def _graph():
    x = np.ones((4, 8), np.float32)
    return make_graph(lambda x: ops.sum(ops.exp(ops.mul(x, 2.0)), axis=1), x), x


def _outs(lowered):
    return {ins.name: ins.out is not None for ins in lowered.program.instructions}


def test_numpy_kernels_declare_their_memory_and_lowering_plans_from_it():
    g, x = _graph()
    lp = lower(g, backend=get_backend("numpy"))
    assert _outs(lp) == {"mul": True, "exp": True, "sum": False}  # sum: the output
    assert lp.plan.in_place == [(1, 2, 3)]
    assert get_backend("numpy").kernel_memory("exp") == KernelMemory.writes_out((0,))


def test_an_undeclared_kernel_on_another_backend_is_not_planned(memtoy):
    backend = memtoy({"mul": KernelMemory.writes_out(), "exp": None,
                      "sum": KernelMemory.writes_out()})
    g, x = _graph()
    lp = lower(g, backend=backend)
    # NumPy's exp writes into out=, but memtoy's exp declared nothing: it allocates (and an
    # opaque output may alias its input, so nothing after mul could reuse mul's buffer)
    assert _outs(lp) == {"mul": True, "exp": False, "sum": False}
    assert lp.plan.in_place == []                       # no in_place declared for mul
    np.testing.assert_allclose(lp(x)[0], np.full(4, 8 * np.exp(2.0), np.float32), rtol=1e-6)


def test_in_place_positions_come_from_the_backends_declaration(memtoy):
    backend = memtoy({"mul": KernelMemory.writes_out(),
                      "exp": KernelMemory.writes_out(in_place=(0,)),
                      "sum": KernelMemory.writes_out()})
    g, x = _graph()
    lp = lower(g, backend=backend)
    assert _outs(lp) == {"mul": True, "exp": True, "sum": False}  # sum: the output
    assert lp.plan.in_place == [(1, 2, 3)]
    np.testing.assert_allclose(lp(x)[0], np.full(4, 8 * np.exp(2.0), np.float32), rtol=1e-6)


def test_a_bad_memory_declaration_is_refused():
    from sporeling.core import PluginError
    with pytest.raises(PluginError, match="kind"):
        KernelMemory("sometimes")
    with pytest.raises(PluginError, match="in-place"):
        KernelMemory("view", (0,))
