"""Non-strict loading that leaves parameters unloaded says so (a warning naming them and the
checkpoint's unused entries); strict loading makes it an error."""
import warnings

import numpy as np
import pytest

from sporeling.expression import nn
from sporeling.expression.serialization import (CheckpointError, CheckpointWarning,
                                                load_checkpoint, load_param_into_net,
                                                save_checkpoint)


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.Conv2d(1, 2, 3, has_bias=True)
        self.head = nn.Dense(8, 3)

    def construct(self, x):
        return self.head(self.features(x).reshape(x.shape[0], -1))


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(4, 5)
        self.head = nn.Dense(8, 3)

    def construct(self, x):
        return self.head(self.body(x))


def _values(net):
    return {p.name: p.asnumpy().copy() for _, p in net.parameters_and_names()}


def test_a_checkpoint_of_another_network_warns_naming_what_was_not_loaded(tmp_path):
    path = str(tmp_path / "convnet.safetensors")
    save_checkpoint(ConvNet(), path)
    mlp = MLP()
    before = _values(mlp)
    with pytest.warns(CheckpointWarning) as record:
        load_checkpoint(path, net=mlp)
    assert len(record) == 1
    text = str(record[0].message)
    assert "2 of 4 parameters of MLP were not loaded" in text
    assert "body.weight" in text and "body.bias" in text
    assert "not used: features.bias, features.weight" in text  # the file's order
    assert "convnet.safetensors" in text
    assert record[0].filename == __file__  # points at the user's call
    after = _values(mlp)
    np.testing.assert_array_equal(after["body.weight"], before["body.weight"])
    assert not np.array_equal(after["head.weight"], before["head.weight"])  # head matched


def test_nothing_matching_says_nothing_was_loaded(tmp_path):
    path = str(tmp_path / "other.safetensors")
    save_checkpoint({"x.weight": np.ones((5, 4), np.float32)}, path)
    with pytest.warns(CheckpointWarning, match=r"no parameter of MLP was loaded") as record:
        not_loaded, unused = load_param_into_net(MLP(), load_checkpoint(path))
    assert record[0].filename == __file__
    assert not_loaded == ["body.weight", "body.bias", "head.weight", "head.bias"]
    assert unused == ["x.weight"]


def test_a_full_match_is_silent(tmp_path):
    path = str(tmp_path / "mlp.safetensors")
    save_checkpoint(MLP(), path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_checkpoint(path, net=MLP())  # no warning


def test_strict_loading_of_another_network_is_an_error(tmp_path):
    path = str(tmp_path / "convnet.safetensors")
    save_checkpoint(ConvNet(), path)
    mlp = MLP()
    before = _values(mlp)
    with pytest.raises(CheckpointError, match="missing from the checkpoint: body.weight, "
                                              "body.bias.*unexpected in the checkpoint: "
                                              "features.bias, features.weight"):
        load_checkpoint(path, net=mlp, strict_load=True)
    with pytest.raises(CheckpointError, match="convnet.safetensors"):
        load_checkpoint(path, net=mlp, strict_load=True)
    for name, value in _values(mlp).items():
        np.testing.assert_array_equal(value, before[name])  # nothing changed


def test_long_lists_are_shortened():
    net = nn.SequentialCell([nn.Dense(2, 2) for _ in range(30)])
    with pytest.warns(CheckpointWarning, match=r"\.\.\. and 40 more"):
        load_param_into_net(net, {})
