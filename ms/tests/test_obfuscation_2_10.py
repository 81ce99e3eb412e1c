"""obfuscate_ckpt / load_obf_params_into_net: the obfuscated checkpoint gives the original
results only in a network that undoes the ratios."""
import os

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(4, 4)
        self.dense2 = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense2(ms.ops.relu(self.dense1(x)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Block(), Block()])

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def test_round_trip(tmp_path):
    ms.set_seed(3)
    net = Net()
    x = ms.Tensor(np.random.default_rng(0).normal(size=(2, 4)).astype(np.float32))
    want = net(x).asnumpy()
    os.makedirs(tmp_path / "plain")
    os.makedirs(tmp_path / "obf")
    ms.save_checkpoint(net, str(tmp_path / "plain" / "net.ckpt"))
    targets = ["blocks", "dense1|dense2", "obfuscate_layers:all"]
    meta = ms.obfuscate_ckpt(net, str(tmp_path / "plain"), targets,
                             saved_path=str(tmp_path / "obf"), obfuscate_scale=10)
    assert sorted(meta["obf_ratios"]) == ["blocks.0.dense1", "blocks.0.dense2",
                                          "blocks.1.dense1", "blocks.1.dense2"]
    assert all(0.1 < r < 10 for r in meta["obf_ratios"].values())
    obf = ms.load_checkpoint(str(tmp_path / "obf" / "net.ckpt"))
    plain = ms.load_checkpoint(str(tmp_path / "plain" / "net.ckpt"))
    r = meta["obf_ratios"]["blocks.1.dense2"]
    np.testing.assert_allclose(obf["blocks.1.dense2.weight"].asnumpy(),
                               plain["blocks.1.dense2.weight"].asnumpy() * r, rtol=1e-6)

    fresh = Net()
    ms.load_param_into_net(fresh, obf)
    assert not np.allclose(fresh(x).asnumpy(), want, rtol=1e-3)  # useless without ratios
    ms.load_obf_params_into_net(fresh, targets, meta)
    np.testing.assert_allclose(fresh(x).asnumpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ms.jit(fresh)(x).asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_bad_targets_are_named(tmp_path):
    net = Net()
    with pytest.raises(ValueError, match="path and the target names"):
        ms.obfuscate_ckpt(net, str(tmp_path), ["blocks"])
    with pytest.raises(SporelingError, match="no such cell"):
        ms.obfuscate_ckpt(net, str(tmp_path), ["nope", "dense1"])
    with pytest.raises(ValueError, match="obfuscate_scale"):
        ms.obfuscate_ckpt(net, str(tmp_path), ["blocks", "dense1"], obfuscate_scale=1)
    with pytest.raises(SporelingError, match="no ratio"):
        ms.load_obf_params_into_net(net, ["blocks", "dense1"], {"obf_ratios": {}})
