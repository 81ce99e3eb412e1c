"""``sx.shard`` and ``Cell.shard`` ask the plugin host (hook ``sporeling_shard``, owned by
expression) for an implementation; without one they say to install sporeling-parallel."""
import types

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import get_plugin_host, impl
from sporeling.core.hooks import PluginHost, set_plugin_host
from sporeling.core.errors import SporelingError
from sporeling.expression import nn, plugin


def test_expression_owns_the_shard_hook():
    assert hasattr(plugin.HOOKSPECS, "sporeling_shard")
    assert "sporeling_shard" in get_plugin_host().hookspecs()


@pytest.fixture
def fake_shard_plugin():
    """A plugin answering ``sporeling_shard``: records the call, runs ``fn`` doubled."""
    calls = []

    @impl
    def sporeling_shard(fn, in_strategy, out_strategy, options):
        calls.append((fn, in_strategy, out_strategy, dict(options)))
        if isinstance(fn, nn.Cell):
            fn.__dict__["shard_calls"] = calls
            return fn
        return lambda *args: fn(*args) * 2
    module = types.ModuleType("fake_shard_plugin")
    module.sporeling_shard = sporeling_shard
    host = get_plugin_host()
    host.pm.register(module, name="fake_shard_plugin")
    try:
        yield calls
    finally:
        host.pm.unregister(name="fake_shard_plugin")



@pytest.fixture
def no_shard_plugin():
    """A process host with every plugin but those answering ``sporeling_shard``
    (sporeling-parallel missing); the real host comes back afterwards untouched."""
    real = get_plugin_host()
    bare = PluginHost(load=False)
    bare.add_plugins([(name, "test", "0", module) for name, module in real.pm.list_name_plugin()
                      if not hasattr(module, "sporeling_shard")])
    set_plugin_host(bare)
    try:
        yield
    finally:
        set_plugin_host(real)


def test_sx_shard_returns_the_plugins_answer(no_shard_plugin, fake_shard_plugin):
    def f(x):
        return x + 1
    g = sx.shard(f, ((2, 1),), ((1, 1),), parameter_plan={"w": (2, 1)})
    assert g(np.ones(2)).tolist() == [4.0, 4.0]
    assert fake_shard_plugin == [(f, ((2, 1),), ((1, 1),), {"parameter_plan": {"w": (2, 1)}})]


def test_cell_shard_is_a_method_asking_the_plugin(no_shard_plugin, fake_shard_plugin):
    assert "shard" in vars(nn.Cell)  # a real method, not attached from outside
    net = nn.Dense(2, 2)
    assert net.shard(in_strategy=((2, 1),), device_num=2) is net
    (fn, ins, outs, options), = fake_shard_plugin
    assert fn is net and ins == ((2, 1),) and outs is None and options == {"device_num": 2}


def test_without_an_implementation_the_error_says_to_install_parallel(no_shard_plugin):
    with pytest.raises(SporelingError, match="install sporeling-parallel") as err:
        sx.shard(lambda x: x, ((2, 1),))
    assert err.value.op == "shard" and "test_shard_hook.py" in str(err.value)
    with pytest.raises(SporelingError, match="install sporeling-parallel"):
        nn.Dense(2, 2).shard(((2, 1),))
