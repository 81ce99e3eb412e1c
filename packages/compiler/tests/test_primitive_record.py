"""One record per primitive: traits declared where a primitive is defined drive fusion,
vmap and operator parallel; adding an elementwise op is one file and one kernel line
(``logaddexp_plugin.py``, contributed through the plugin hooks as a third party would)."""
import numpy as np
import pytest

import logaddexp_plugin
from logaddexp_plugin import NAME, logaddexp, logaddexp_p
from sporeling.compiler import Primitive, ops, primitives
from sporeling.compiler.core.batching import batching_rule, has_batching_rule
from sporeling.compiler.core.sharding import has_sharding_rule, op_dims
from sporeling.compiler.ir import make_graph
from sporeling.compiler.passes import PassContext
from sporeling.compiler.passes.fusion import fuse_elementwise
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.testing import check_grads
from sporeling.compiler.transforms import vmap
from sporeling.compiler import plugin as compiler_plugin
from sporeling.core import PluginHost, SporelingError, set_plugin_host
from sporeling.core import plugin as core_plugin
from sporeling.runtime import plugin as runtime_plugin

rng = np.random.default_rng(0)


@pytest.fixture(scope="module")
def plugin():
    # this package's own plugins and the test plugin (loading every installed one is slow)
    host = PluginHost(load=False)
    host.add_plugins([(name, f"sporeling-{name}", "0", module) for name, module in (
        ("core", core_plugin), ("runtime", runtime_plugin), ("compiler", compiler_plugin),
        ("testplugin", logaddexp_plugin))])
    old = set_plugin_host(host)
    yield
    set_plugin_host(old)


def _f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def test_the_plugin_contributes_the_primitive_with_its_traits(plugin):
    p = primitives()[NAME]
    assert p is logaddexp_p
    assert (p.elementwise, p.fusible, p.amp) == (True, True, "black")
    assert p.batching is None and p.sharding is None  # no rule written for either


def test_fusion_fuses_it_and_the_compiled_graph_runs(plugin):
    x, y = _f32(3, 4), _f32(4)
    g = make_graph(lambda x, y: ops.mul(logaddexp(ops.mul(x, 2.0), y), 0.5), x, y)
    assert fuse_elementwise(g, PassContext()).primitive_counts() == {"fused_elementwise": 1}
    exe = compile_graph(g)
    assert "fused_elementwise" in exe.graph.primitive_counts()
    np.testing.assert_allclose(exe(x, y)[0], 0.5 * np.logaddexp(2 * x, y), rtol=1e-6)


def test_vmap_batches_it_by_its_elementwise_trait(plugin):
    assert has_batching_rule(logaddexp_p) and batching_rule(logaddexp_p) is not None
    x, y = _f32(3, 4, 5), _f32(5)
    np.testing.assert_allclose(vmap(logaddexp, in_axes=(0, None))(x, y), np.logaddexp(x, y),
                               rtol=1e-6)
    # per example x (4, 5) and y (4, 1), batched on different axes: broadcast per example
    yb = _f32(4, 1, 3)
    want = np.stack([np.logaddexp(x[b], yb[..., b]) for b in range(3)])
    np.testing.assert_allclose(vmap(logaddexp, in_axes=(0, 2))(x, yb), want, rtol=1e-6)


def test_grad_to_second_order(plugin):
    check_grads(lambda x, y: ops.sum(ops.mul(logaddexp(x, y), logaddexp(x, y))),
                [_f32(3, 4).astype(np.float64), _f32(4).astype(np.float64)], order=2)


def test_operator_parallel_splits_it_like_any_elementwise_op(plugin):
    assert has_sharding_rule(logaddexp_p)
    g = make_graph(logaddexp, _f32(4, 5), _f32(1, 5))
    dims = op_dims(g.equations[-1])
    assert dims.outputs == [("d0", "d1")] and dims.inputs[0] == ("d0", "d1")
    row, col = dims.inputs[1]
    assert col == "d1" and row in dims.fixed  # a broadcast size-1 axis stays whole
    assert "d0" not in dims.fixed and "d1" not in dims.fixed


def test_an_unknown_amp_class_is_refused_naming_the_primitive():
    with pytest.raises(SporelingError, match="'t_grey'.*unknown AMP class") as info:
        Primitive("t_grey", amp="grey")
    assert "white, black, promote, never" in str(info.value)
    Primitive("t_grey", amp="white")  # the refused one was not registered


def test_a_multi_result_primitive_cannot_be_fusible():
    with pytest.raises(SporelingError, match="cannot be fusible"):
        Primitive("t_two_results", multiple_results=True, fusible=True)


def test_a_primitive_without_traits_or_rules_has_none():
    p = Primitive("t_plain")
    assert not has_batching_rule(p) and not has_sharding_rule(p)
    with pytest.raises(SporelingError, match="no batching rule"):
        batching_rule(p)
