"""SummaryLandscape: the checkpoints SummaryCollector keeps for it, and the PCA/random loss
landscapes against a NumPy reference of the grid."""
import json

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import Momentum
from sporeling.expression.serialization import load_checkpoint
from sporeling.expression.train import Model
from sporeling.expression.train.metrics import Loss

from sporeling.insight import SummaryCollector, SummaryError, SummaryLandscape, read_landscapes

RNG = np.random.default_rng(0)
X = RNG.standard_normal((24, 4)).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 0).astype(np.int32)
DATA = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, 24, 8)]  # 3 steps an epoch
LOSS = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _collect(tmp_path, **landscape):
    sx.set_seed(1)
    net = nn.Dense(4, 2)
    model = Model(net, LOSS, Momentum(net.trainable_params(), 0.2, 0.9))
    settings = {"landscape_size": 5, "unit": "step", "num_samples": 16,
                "create_landscape": {"train": True, "result": False},
                "intervals": [[1, 2, 3, 4, 5]], **landscape}
    collector = SummaryCollector(tmp_path, collect_specified_data={
        "collect_landscape": settings})
    model.train(2, DATA, callbacks=[collector])


def _callback():
    net = nn.Dense(4, 2)
    return Model(net, LOSS), net, DATA, {"Loss": Loss()}


def _loss(weight, bias, batches):
    """Mean softmax cross-entropy of the dense layer over ``batches``, batch by batch."""
    values = []
    for x, y in batches:
        logits = x.astype(np.float64) @ weight.T + bias
        logits -= logits.max(1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
        values.append(-logp[np.arange(len(y)), y].mean())
    return np.mean(values)


def _reference_pca(checkpoints):
    """2.10's PCA plane for a Dense layer (both parameters are in the landscape)."""
    flat = np.array([np.concatenate([c["weight"].ravel(), c["bias"].ravel()])
                     for c in checkpoints], np.float64)
    x = (flat[:-1] - flat[-1]).T
    x = x - x.mean(0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    u = u * np.sign(u[np.abs(u).argmax(0), range(u.shape[1])])
    pcs = u[:, :2] * s[:2]
    final = checkpoints[-1]
    sizes = final["weight"].size
    dirs = []
    for pc in (pcs[:, 0], pcs[:, 1]):
        w, b = pc[:sizes].reshape(final["weight"].shape), pc[sizes:]
        w = w * np.linalg.norm(final["weight"]) / np.linalg.norm(w)
        b = b * np.linalg.norm(final["bias"]) / np.linalg.norm(b)
        dirs.append((w.astype(np.float32), b.astype(np.float32)))
    plane = np.stack([np.concatenate([d[0].ravel(), d[1].ravel()]) for d in dirs], 1)
    coefs = np.array([np.linalg.lstsq(plane, f - flat[-1], rcond=None)[0] for f in flat])
    return dirs, coefs


def test_collector_keeps_the_interval_checkpoints_and_metadata(tmp_path):
    _collect(tmp_path)
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    assert sorted(meta["model_params_file_map"], key=int) == ["1", "2", "3", "4", "5"]
    assert meta["epoch_group"] == {"0": [1, 2, 3, 4, 5]} and meta["step_per_epoch"] == 3
    assert meta["unit"] == "step" and meta["landscape_size"] == 5


def test_pca_landscape_equals_the_numpy_grid(tmp_path):
    _collect(tmp_path)
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    checkpoints = [{k: np.asarray(v.asnumpy(), np.float64) for k, v in
                    load_checkpoint(meta["model_params_file_map"][str(n)]).items()}
                   for n in range(1, 6)]
    SummaryLandscape(tmp_path).gen_landscapes_with_multi_process(_callback, device_ids=[0])
    got = read_landscapes(tmp_path)["landscape_[1, 5]"]
    dirs, coefs = _reference_pca(checkpoints)
    (vw, vb), (ww, wb) = dirs
    np.testing.assert_allclose(got["path_x"], coefs[:, 0], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(got["path_y"], coefs[:, 1], rtol=1e-4, atol=1e-6)
    span = [(c.min() - 0.2 * (c.max() - c.min()), c.max() + 0.2 * (c.max() - c.min()))
            for c in (coefs[:, 0], coefs[:, 1])]
    xs, ys = np.meshgrid(np.linspace(*span[0], 5), np.linspace(*span[1], 5))
    final = checkpoints[-1]
    batches = DATA[:2]  # num_samples 16 // batch 8
    z = [[_loss(final["weight"] + a * vw + b * ww, final["bias"] + a * vb + b * wb, batches)
          for a, b in zip(row_x, row_y)] for row_x, row_y in zip(xs, ys)]
    np.testing.assert_allclose(got["x"], xs, rtol=1e-5)
    np.testing.assert_allclose(got["z"], z, rtol=1e-4)
    assert got["convergence"][0] == 0 and got["metadata"]["decomposition"] == "PCA"


def test_random_landscape_is_centred_on_the_last_checkpoint(tmp_path):
    _collect(tmp_path)
    np.random.seed(0)
    SummaryLandscape(tmp_path).gen_landscapes_with_multi_process(
        _callback, collect_landscape={"create_landscape": {"train": False, "result": True},
                                      "landscape_size": 3})
    got = read_landscapes(tmp_path)["landscape_[5]"]
    assert got["z"].shape == (3, 3) and got["metadata"]["decomposition"] == "Random"
    np.testing.assert_allclose(got["x"][0], [-1.0, 0.0, 1.0])
    final = {k: v.asnumpy() for k, v in load_checkpoint(json.loads(
        (tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
        ["model_params_file_map"]["5"]).items()}
    centre = _loss(final["weight"].astype(np.float64), final["bias"], DATA[:2])
    np.testing.assert_allclose(got["convergence"], [0.0, 0.0, centre], rtol=1e-5, atol=1e-7)


def test_bad_settings_and_missing_metadata_are_refused(tmp_path):
    with pytest.raises(SummaryError, match="landscape_size"):
        SummaryCollector(tmp_path, collect_specified_data={
            "collect_landscape": {"landscape_size": 2}})
    with pytest.raises(SummaryError, match="too short"):
        SummaryCollector(tmp_path, collect_specified_data={
            "collect_landscape": {"intervals": [[1, 2]]}})
    with pytest.raises(FileNotFoundError, match="train_metadata.json"):
        SummaryLandscape(tmp_path / "empty").gen_landscapes_with_multi_process(_callback)
