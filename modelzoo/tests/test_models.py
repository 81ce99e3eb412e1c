import types

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import PluginError, PluginHost, PluginWarning, get_plugin_host, impl
from sporeling.zoo import create_model, list_models
from sporeling.zoo.registry import ModelRegistry


def test_models_come_from_the_zoo_plugin_through_sporeling_add_models():
    assert {"lenet5_digits", "mlp_digits"} <= set(list_models())
    info = {p.name: p for p in get_plugin_host().loaded}["zoo"]
    assert "sporeling_add_models" in info.hooks


@pytest.mark.parametrize("name", ["lenet5_digits", "mlp_digits"])
def test_models_build_and_map_images_to_logits(name):
    net = create_model(name)
    out = net(sx.Tensor(np.zeros((3, 1, 8, 8), np.float32)))
    assert out.shape == (3, 10) and net.trainable_params()


def test_unknown_model_suggests_close_names():
    with pytest.raises(PluginError, match="no model named 'lenet5_digit'.*Did you mean 'lenet5_digits'"):
        create_model("lenet5_digit")


def test_a_model_name_registered_twice_names_both_plugins():
    from sporeling.zoo import hookspecs
    owner = types.ModuleType("owner")
    owner.HOOKSPECS = hookspecs

    def plugin(name):
        module = types.ModuleType(name)
        module.sporeling_add_models = impl(
            lambda models: models.add_model("net", dict, description="d", input_shape=(1,)))
        return (name, "d", "0", module)

    host = PluginHost(load=False)
    host.add_plugins([("owner", "d", "0", owner), plugin("a"), plugin("b")])
    with pytest.warns(PluginWarning, match="model 'net'.*plugin 'a'.*plugin 'b'"):
        models = host.collect("sporeling_add_models", ModelRegistry())
    assert models.source_of("net") == "a" and [f.name for f in host.failed] == ["b"]
