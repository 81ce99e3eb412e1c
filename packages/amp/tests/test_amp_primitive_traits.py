"""AMP reads each primitive's class from its definition (``Primitive(..., amp="white")``):
a plugin's primitive joins the lists, autocast and the graph pass like the built-ins."""
import types

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling import amp
from sporeling.amp import graph_passes, lists
from sporeling.amp import plugin as amp_plugin
from sporeling.compiler import Primitive, bind
from sporeling.compiler import plugin as compiler_plugin
from sporeling.compiler.core import Aval
from sporeling.compiler.ir import make_graph
from sporeling.compiler.passes import PassContext
from sporeling.core import PluginHost, SporelingError, impl, set_plugin_host
from sporeling.core import plugin as core_plugin
from sporeling.expression import plugin as expression_plugin
from sporeling.runtime import plugin as runtime_plugin

NAME = "testamp_twice"
twice_p = Primitive(NAME, amp="white")  # the one place its AMP class is said
twice_p.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))


def _test_plugin():
    module = types.ModuleType("testamp")

    def sporeling_add_primitives(primitives):
        primitives.add_primitive(twice_p)

    def sporeling_add_kernels(kernels):
        kernels.add_kernel("numpy", NAME, lambda b, x, out=None: np.multiply(x, 2, out=out))

    for fn in (sporeling_add_primitives, sporeling_add_kernels):
        setattr(module, fn.__name__, impl(fn))
    return module


def _host(*extra):
    # the packages this one builds on (loading every installed plugin is slow), and extra
    host = PluginHost(load=False)
    host.add_plugins([(name, f"sporeling-{name}", "0", module) for name, module in (
        ("core", core_plugin), ("runtime", runtime_plugin), ("compiler", compiler_plugin),
        ("expression", expression_plugin), ("amp", amp_plugin), *extra)])
    return host


@pytest.fixture(scope="module")
def host():
    old = set_plugin_host(_host(("testamp", _test_plugin())))
    yield
    set_plugin_host(old)


def test_the_lists_hold_the_classes_the_primitives_declare(host):
    assert NAME in amp.get_white_list() and NAME not in amp.get_black_list()
    assert {"matmul", "conv2d"} <= lists.white_primitives()
    assert {"exp", "softmax", "sum"} <= lists.black_primitives()
    assert {"add", "where", "concat"} <= lists.promote_primitives()
    assert {"cast", "isfinite", "dropout", "cond"} <= lists.never_cast()
    assert lists.WHITE_PRIMITIVES == lists.white_primitives()  # the former name still reads


def test_a_primitive_no_plugin_contributes_is_in_no_list(host):
    old = set_plugin_host(_host())  # the same plugins but the test's
    try:
        assert NAME not in amp.get_white_list() and "matmul" in amp.get_white_list()
    finally:
        set_plugin_host(old)


def test_autocast_computes_the_plugin_primitive_in_the_low_dtype(host):
    x = sx.Tensor(np.arange(4, dtype=np.float32))
    with amp.autocast(dtype=sx.float16):
        y = bind(twice_p, x)
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y.asnumpy(), np.arange(4) * 2)
    assert bind(twice_p, x).dtype == np.float32  # outside the region: as it came


@pytest.mark.parametrize("level", ["O1", "O3"])
def test_the_cast_pass_converts_it_by_its_class(host, level):
    g = make_graph(lambda x: bind(twice_p, x), np.ones(3, np.float32))
    ctx = PassContext(options={"amp_level": level, "amp_dtype": np.dtype(np.float16)})
    out = graph_passes.insert_casts(g, ctx)
    dtypes = {eq.prim.name: str(eq.outputs[0].aval.dtype) for eq in out.equations}
    assert dtypes[NAME] == "float16"


def test_an_unknown_class_is_an_error():
    with pytest.raises(SporelingError, match="unknown AMP class"):
        lists.primitives_in_class("grey")
