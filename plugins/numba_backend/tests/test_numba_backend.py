"""Choosing the numba backend, Graph mode running its compiled fused chain, and NumPy's
kernel (said once in the log) for what it lacks."""
import logging

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower
from sporeling.compiler.passes import optimize
from sporeling.core import ContextError, set_context
from sporeling.numba_backend import fused
from sporeling.numba_backend.backend import NumbaBackend
from sporeling.numba_backend.compiling import _SAID
from sporeling.runtime import get_backend, get_kernels


def test_set_context_backend_numba_selects_it_for_cpu():
    assert get_backend().name != "numba"  # NumPy's, or oneDNN's where that is installed
    set_context(device_target="CPU", backend="numba")
    assert isinstance(get_backend(), NumbaBackend) and get_backend("CPU").name == "numba"


def test_an_unknown_backend_name_lists_the_installed_ones():
    with pytest.raises(ContextError, match="numba"):
        set_context(backend="numbaa")


def _chain(a, b, c):
    return ops.relu(ops.add(ops.mul(a, b), c))


def test_graph_mode_lowers_the_fused_chain_to_the_compiled_kernel():
    a, b, c = (np.random.default_rng(i).standard_normal((64, 32)).astype(np.float32)
               for i in range(3))
    g = optimize(make_graph(_chain, a, b, c))
    assert "fused_elementwise" in g.primitive_counts()
    set_context(backend="numba")
    lp = lower(g)                                   # the backend the context chooses
    kernels = {ins.name: ins.kernel for ins in lp.program.instructions}
    assert kernels["fused_elementwise"] is fused.fused_elementwise
    np.testing.assert_allclose(lp(a, b, c)[0], np.maximum(a * b + c, 0), rtol=1e-6)


def test_a_primitive_without_a_numba_kernel_runs_numpys_said_once(caplog):
    numba = get_backend("numba")
    assert get_kernels().lookup("numba", "matmul") is None
    numba.said.discard("matmul")
    with caplog.at_level(logging.INFO, logger="sporeling.numba_backend"):
        x = np.eye(2, dtype=np.float32)
        np.testing.assert_array_equal(numba.run("matmul", x, x), x)
        numba.run("matmul", x, x)
    said = [r.getMessage() for r in caplog.records if "matmul" in r.getMessage()]
    assert said == ["numba backend: no kernel for 'matmul', running NumPy's"]
    assert numba.kernel_memory("matmul") == get_backend("numpy").kernel_memory("matmul")


def test_a_fused_chain_with_a_node_it_cannot_generate_runs_numpys(caplog):
    expr = (("erf", (("in", 0),), (), (3,), "float32"),)
    x = np.array([-1.0, 0.0, 2.0], np.float32)
    _SAID.discard(("fused", ("erf",)))
    with caplog.at_level(logging.INFO, logger="sporeling.numba_backend"):
        got = fused.fused_elementwise(get_backend("numba"), x, expr=expr)
    np.testing.assert_allclose(got, get_backend("numpy").run("erf", x), rtol=1e-6)
    assert [r.getMessage() for r in caplog.records] == [
        "numba backend: fused chains with erf run NumPy's kernel"]


def test_without_numba_the_backend_runs_numpys_kernels(monkeypatch, caplog):
    from sporeling.core import PluginHost, get_plugin_host, set_plugin_host
    from sporeling.numba_backend import backend as backend_module, plugin
    monkeypatch.setattr(plugin, "AVAILABLE", False)
    monkeypatch.setattr(backend_module, "AVAILABLE", False)
    _SAID.discard("no-numba")
    old = set_plugin_host(PluginHost())
    try:
        assert get_kernels().primitives("numba") == []
        with caplog.at_level(logging.INFO, logger="sporeling.numba_backend"):
            y = get_backend("numba").run("exp", np.zeros(2, np.float32))
        np.testing.assert_array_equal(y, [1.0, 1.0])
        assert any("numba is not installed" in r.getMessage() for r in caplog.records)
        assert get_plugin_host() is not old
    finally:
        set_plugin_host(old)
