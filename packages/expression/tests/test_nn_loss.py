"""Loss cells against NumPy references, and a tiny training run."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError, set_seed
from sporeling.expression import nn

RNG = np.random.default_rng(2)


def log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def value(t):
    return float(np.asarray(t))


def test_cross_entropy_weight_ignore_index_and_smoothing():
    logits = RNG.standard_normal((5, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, -100, 2])
    weight = np.array([1.0, 2.0, 0.5], np.float32)
    lp = log_softmax(logits.astype(np.float64))
    keep = labels != -100
    picked = -lp[np.arange(5)[keep], labels[keep]] * weight[labels[keep]]
    ref = picked.sum() / weight[labels[keep]].sum()
    assert value(nn.CrossEntropyLoss(weight=weight)(logits, labels)) == pytest.approx(ref, 1e-5)
    smooth = nn.CrossEntropyLoss(label_smoothing=0.1, reduction="sum")(logits[:3], labels[:3])
    q = np.full((3, 3), 0.1 / 3) + 0.9 * np.eye(3)[labels[:3]]
    assert value(smooth) == pytest.approx(-(q * lp[:3]).sum(), 1e-5)


def test_nll_mse_l1_smooth_l1_bce():
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    y = RNG.standard_normal((4, 3)).astype(np.float32)
    lp = log_softmax(x)
    labels = np.array([2, 0, 1, 1])
    assert value(nn.NLLLoss()(lp, labels)) == pytest.approx(-lp[range(4), labels].mean(), 1e-5)
    assert value(nn.MSELoss()(x, y)) == pytest.approx(((x - y) ** 2).mean(), 1e-5)
    assert value(nn.L1Loss(reduction="sum")(x, y)) == pytest.approx(np.abs(x - y).sum(), 1e-5)
    d = np.abs(x - y)
    smooth = np.where(d < 0.5, 0.5 * d ** 2 / 0.5, d - 0.25)
    out = nn.SmoothL1Loss(beta=0.5)(x, y)  # MindSpore's default reduction: "none"
    np.testing.assert_allclose(np.asarray(out), smooth, rtol=1e-5)
    t = (y > 0).astype(np.float32)
    bce = -(t * np.log(1 / (1 + np.exp(-x))) + (1 - t) * np.log(1 - 1 / (1 + np.exp(-x))))
    assert value(nn.BCEWithLogitsLoss()(x, t)) == pytest.approx(bce.mean(), 1e-5)


def test_softmax_cross_entropy_with_logits_dense_and_sparse():
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    labels = np.array([2, 0, 1, 1])
    ref = -log_softmax(x)[range(4), labels]
    dense = nn.SoftmaxCrossEntropyWithLogits()(x, np.eye(3, dtype=np.float32)[labels])
    np.testing.assert_allclose(np.asarray(dense), ref, rtol=1e-5)
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(x, labels)
    assert value(sparse) == pytest.approx(ref.mean(), 1e-5)
    with pytest.raises(SporelingError, match="reduction"):
        nn.MSELoss("avg")


def test_loss_base_get_loss():
    class Weighted(nn.LossBase):
        def construct(self, x, w):
            return self.get_loss(x, w)

    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert value(Weighted()(x, np.array([1.0, 0.0, 2.0], np.float32))) == pytest.approx(7 / 3)
    assert value(Weighted("sum")(x, 1.0)) == pytest.approx(6.0)


def test_dense_network_fits_xor_with_plain_gradient_descent():
    set_seed(5)
    net = nn.SequentialCell(nn.Dense(2, 16, activation="tanh"), nn.Dense(16, 1))
    loss_fn = nn.BCEWithLogitsLoss()
    x = sx.Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.float32))
    y = sx.Tensor(np.array([[0], [1], [1], [0]], np.float32))
    params = net.trainable_params()
    step = sx.value_and_grad(lambda x, y: loss_fn(net(x), y), None, params)
    for _ in range(300):
        loss, grads = step(x, y)
        for p, g in zip(params, grads):
            p.set_data(p.asnumpy() - 0.5 * g.asnumpy())
    assert float(loss.asnumpy()) < 0.05
    predictions = (np.asarray(net(x)) > 0).astype(np.float32)
    np.testing.assert_array_equal(predictions, y.asnumpy())
