"""A primitive declares its sharding rule where it is defined (a plugin's as the built-ins'),
and operator parallel follows it."""
import types

import numpy as np
import pytest

from sporeling.compiler import Primitive, bind, ops
from sporeling.compiler import plugin as compiler_plugin
from sporeling.compiler.core import Aval
from sporeling.compiler.core.sharding import OpDims
from sporeling.compiler.ir import make_graph
from sporeling.core import PluginHost, SporelingError, impl, set_plugin_host
from sporeling.core import plugin as core_plugin
from sporeling.expression import plugin as expression_plugin
from sporeling.parallel import plugin as parallel_plugin
from sporeling.parallel.operator import def_sharding_rule, shard, sharding_rule
from sporeling.parallel.testing import run_local
from sporeling.runtime import plugin as runtime_plugin

NAME = "testpar_rownorm"
rownorm_p = Primitive(NAME)  # x / sum(|x|) along the last axis: rows are independent
rownorm_p.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))


@rownorm_p.def_sharding_rule
def _rownorm_sharding(eq):
    rows = tuple(f"d{i}" for i in range(len(eq.inputs[0].aval.shape)))
    return OpDims([rows], [rows], fixed={rows[-1]})  # the normalised axis stays whole


def _reference(x):
    return x / np.abs(x).sum(-1, keepdims=True)


@pytest.fixture(scope="module")
def host():
    module = types.ModuleType("testpar")

    def sporeling_add_primitives(primitives):
        primitives.add_primitive(rownorm_p)

    def sporeling_add_kernels(kernels):
        kernels.add_kernel("numpy", NAME, lambda b, x, out=None: _reference(x))

    for fn in (sporeling_add_primitives, sporeling_add_kernels):
        setattr(module, fn.__name__, impl(fn))
    host = PluginHost(load=False)
    host.add_plugins([(name, f"sporeling-{name}", "0", m) for name, m in (
        ("core", core_plugin), ("runtime", runtime_plugin), ("compiler", compiler_plugin),
        ("expression", expression_plugin), ("parallel", parallel_plugin), ("testpar", module))])
    old = set_plugin_host(host)
    yield
    set_plugin_host(old)


def test_the_rule_comes_from_the_primitive(host):
    g = make_graph(lambda x: bind(rownorm_p, x), np.ones((4, 6)))
    dims = sharding_rule(g.equations[0])
    assert dims.inputs == [("d0", "d1")] and dims.fixed == {"d1"}


@pytest.mark.parametrize("in_strategy", [((2, 1),), ((1, 2),)])
def test_sharded_run_follows_the_plugin_rule(host, in_strategy):
    x = np.random.default_rng(0).standard_normal((8, 6))
    f = lambda x: ops.mul(bind(rownorm_p, x), 3.0)
    sharded = shard(f, in_strategy=in_strategy)
    for out in run_local(2, lambda: sharded(x)):
        np.testing.assert_allclose(out, 3.0 * _reference(x), rtol=1e-12)
    op = next(r for r in sharded.table(x, device_num=2) if r["op"] == NAME)
    # rows split (as given, or moved there): never along the normalised axis
    assert op["strategy"] == ((2, 1),)


def test_def_sharding_rule_by_name_needs_an_installed_primitive(host):
    with pytest.raises(SporelingError, match="names no primitive"):
        def_sharding_rule("no_such_primitive")(lambda eq: None)
