"""ModelCheckpoint writes MindSpore's formats: .ckpt by default, safetensors on request."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn


def _train(tmp_path, **config):
    data = np.random.default_rng(0).standard_normal((32, 2)).astype(np.float32)
    labels = (data[:, 0] > 0).astype(np.int32)
    ds = ms.dataset.GeneratorDataset(list(zip(data, labels)), ["data", "label"],
                                     shuffle=False).batch(8)
    net = nn.Dense(2, 2)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9))
    cfg = ms.CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=1,
                              append_info=["epoch_num"], **config)
    model.train(2, ds, callbacks=[ms.ModelCheckpoint("net", str(tmp_path), cfg)])
    return net


@pytest.mark.parametrize("config, suffix", [({}, ".ckpt"), ({"crc_check": True}, ".ckpt"),
                                            ({"format": "safetensors"}, ".safetensors")])
def test_model_checkpoint_writes_the_configured_format(tmp_path, config, suffix):
    net = _train(tmp_path, **config)
    (saved,) = tmp_path.iterdir()                   # the newest one kept
    assert saved.name == f"net-2_4{suffix}"
    loaded = ms.load_checkpoint(str(saved))
    assert loaded["epoch_num"].asnumpy().reshape(-1).tolist() == [2]
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    if config.get("crc_check"):
        assert saved.read_bytes()[-17:-10] == b"crc_num"


def test_config_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="format"):
        ms.CheckpointConfig(format="mindir")
    with pytest.raises(ValueError, match="crc_check"):
        ms.CheckpointConfig(format="safetensors", crc_check=True)
    with pytest.raises(ValueError, match="enc_key"):
        ms.CheckpointConfig(enc_key=b"0" * 16)
