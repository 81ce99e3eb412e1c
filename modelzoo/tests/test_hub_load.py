"""``sporeling.zoo.load(name, pretrained=True)`` for a model a third-party plugin registers
with its own weight URL and hash, served over HTTP."""
import os
import pickle

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import PluginError, set_plugin_host
from sporeling.expression import nn
from sporeling.expression.serialization import CheckpointError
from sporeling.zoo import load, pull
from sporeling.zoo.hub import NoWeightsError, Weights, WeightsHashError

import hub_test_server


class Tiny(nn.Cell):
    """A third party's model."""

    def __init__(self, hidden=5):
        super().__init__()
        self.fc1, self.fc2 = nn.Dense(4, hidden), nn.Dense(hidden, 3)

    def construct(self, x):
        return self.fc2(self.fc1(x))


@pytest.fixture
def trained(tmp_path):
    net = Tiny(hidden=6)
    rng = np.random.default_rng(0)
    for _, p in net.parameters_and_names():
        p.set_data(rng.standard_normal(p.shape).astype(np.float32))
    sx.save_checkpoint(net, str(tmp_path / "tiny.safetensors"))
    return net, tmp_path / "tiny.safetensors"


@pytest.fixture
def plugin_with(tmp_path, monkeypatch):
    """Install a fake third-party plugin (beside every installed one) registering
    ``{name: weights or None}`` of :class:`Tiny`."""
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SPORELING_OFFLINE", raising=False)
    previous = []
    yield lambda entries: previous.append(hub_test_server.install_third_party(entries, Tiny))
    if previous:
        set_plugin_host(previous[0])


def test_a_third_party_model_loads_its_own_weights_over_http(trained, server, plugin_with):
    net, path = trained
    url = server.add("tiny.safetensors", path.read_bytes())
    plugin_with({"tiny": Weights.from_file(path, urls=(url,), license="MIT",
                                           model_kwargs={"hidden": 6})})
    loaded = load("tiny")
    assert isinstance(loaded, Tiny) and loaded.training is False
    for (_, a), (_, b) in zip(net.parameters_and_names(), loaded.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    x = sx.Tensor(np.ones((2, 4), np.float32))
    np.testing.assert_array_equal(loaded(x).asnumpy(), net(x).asnumpy())
    assert pull("tiny").read_bytes() == path.read_bytes()
    assert server.hits["tiny.safetensors"] == 1
    fresh = load("tiny", pretrained=False)  # the factory's defaults, fresh values
    assert fresh.fc1.weight.shape == (5, 4)


def test_a_tampered_served_file_is_never_loaded(trained, server, plugin_with, monkeypatch):
    _, path = trained
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    url = server.add("tiny.safetensors", bytes(data))
    plugin_with({"tiny": Weights.from_file(path, urls=(url,), license="MIT",
                                           model_kwargs={"hidden": 6})})
    calls = []
    monkeypatch.setattr(sx, "load_checkpoint", lambda *a, **k: calls.append(a))
    with pytest.raises(WeightsHashError, match="refused"):
        load("tiny", retries=0)
    assert calls == []


def test_weights_of_another_network_are_an_error_naming_the_parameters(trained, server,
                                                                       plugin_with):
    _, path = trained
    url = server.add("tiny.safetensors", path.read_bytes())
    plugin_with({"tiny": Weights.from_file(path, urls=(url,), license="MIT")})  # hidden=5
    with pytest.raises(CheckpointError, match=r"shape mismatch: fc1.weight"):
        load("tiny")


def test_a_pickle_with_the_right_hash_is_refused_and_never_unpickled(tmp_path, server,
                                                                     plugin_with):
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    bad = tmp_path / "tiny.safetensors"
    bad.write_bytes(pickle.dumps(Exploit()))
    url = server.add("tiny.safetensors", bad.read_bytes())
    plugin_with({"tiny": Weights.from_file(bad, urls=(url,), license="MIT")})
    with pytest.raises(CheckpointError):
        load("tiny")
    assert not marker.exists()


def test_models_without_weights_and_unknown_names_say_what_exists(plugin_with, trained):
    _, path = trained
    plugin_with({"bare": None,
                 "tiny": Weights.from_file(path, urls=(path.as_uri(),), license="MIT")})
    with pytest.raises(NoWeightsError, match="'bare' has no pretrained weights; expected a "
                                             "model with weights: .*tiny"):
        load("bare")
    assert isinstance(load("bare", pretrained=False), Tiny)
    with pytest.raises(PluginError, match="no model named 'tiyn'.*Did you mean 'tiny'"):
        load("tiyn")
    assert os.path.basename(pull("tiny")) == "tiny.safetensors"
