"""``ms.nn`` activation cells against NumPy references of MindSpore's documented formulas."""
import math

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn

from _reference import check_grad, graph_equals_pynative, np_of, t

X = np.array([[-3.0, -1.2, -0.4, 0.0], [0.3, 0.9, 2.0, 7.5]], np.float32)
erf = np.vectorize(math.erf)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def softplus(x):
    return np.log1p(np.exp(x))


CASES = [
    ("CELU", lambda: nn.CELU(0.5),
     lambda x: np.maximum(0, x) + np.minimum(0, 0.5 * (np.exp(x / 0.5) - 1))),
    ("ELU", lambda: nn.ELU(1.0), lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    ("FastGelu", lambda: nn.FastGelu(),
     lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))),
    ("GELU", lambda: nn.GELU(),
     lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    ("GELU-exact", lambda: nn.GELU(approximate=False),
     lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2)))),
    ("GLU", lambda: nn.GLU(), lambda x: x[:, :2] * sigmoid(x[:, 2:])),
    ("Hardtanh", lambda: nn.Hardtanh(-1.0, 2.0), lambda x: np.clip(x, -1.0, 2.0)),
    ("HShrink", lambda: nn.HShrink(0.5), lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    ("HSigmoid", lambda: nn.HSigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6),
    ("HSwish", lambda: nn.HSwish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("LeakyReLU", lambda: nn.LeakyReLU(), lambda x: np.where(x >= 0, x, 0.2 * x)),
    ("LogSigmoid", lambda: nn.LogSigmoid(), lambda x: -np.log1p(np.exp(-x))),
    ("LogSoftmax", lambda: nn.LogSoftmax(), lambda x: np.log(softmax(x))),
    ("Mish", lambda: nn.Mish(), lambda x: x * np.tanh(softplus(x))),
    ("Softsign", lambda: nn.Softsign(), lambda x: x / (1 + np.abs(x))),
    ("PReLU", lambda: nn.PReLU(), lambda x: np.where(x >= 0, x, 0.25 * x)),
    ("ReLU", lambda: nn.ReLU(), lambda x: np.maximum(x, 0)),
    ("ReLU6", lambda: nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    ("RReLU-eval", lambda: nn.RReLU(0.1, 0.3),
     lambda x: np.where(x >= 0, x, 0.2 * x)),
    ("SeLU", lambda: nn.SeLU(),
     lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    ("SiLU", lambda: nn.SiLU(), lambda x: x * sigmoid(x)),
    ("Sigmoid", lambda: nn.Sigmoid(), sigmoid),
    ("Softmin", lambda: nn.Softmin(), lambda x: softmax(-x)),
    ("Softmax", lambda: nn.Softmax(), softmax),
    ("SoftShrink", lambda: nn.SoftShrink(0.5),
     lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0))),
    ("Tanh", lambda: nn.Tanh(), np.tanh),
    ("Tanhshrink", lambda: nn.Tanhshrink(), lambda x: x - np.tanh(x)),
    ("Threshold", lambda: nn.Threshold(0.5, 20.0), lambda x: np.where(x > 0.5, x, 20.0)),
]


@pytest.mark.parametrize("name, make, reference", CASES, ids=[c[0] for c in CASES])
def test_activation_matches_reference(name, make, reference):
    np.testing.assert_allclose(np_of(make()(t(X))), reference(X.astype(np.float64)),
                               rtol=1e-5, atol=1e-6)


def test_mindspore_doc_examples():
    # nn.HShrink's documented example
    x = t([[0.5, 1, 2.0], [0.0533, 0.0776, -2.1233]])
    np.testing.assert_allclose(np_of(nn.HShrink()(x)), [[0, 1, 2], [0, 0, -2.1233]],
                               rtol=1e-6)
    # nn.Softmin: [-1, -2, 0, 2, 1] -> documented values
    np.testing.assert_allclose(np_of(nn.Softmin()(t([-1, -2, 0, 2, 1]))),
                               [0.2341, 0.6364, 0.0861, 0.0117, 0.0317], atol=2e-4)
    # nn.SoftShrink's documented example
    x = t([[0.5297, 0.7871, 1.1754], [0.7836, 0.6218, -1.1542]])
    np.testing.assert_allclose(np_of(nn.SoftShrink()(x)),
                               [[0.0297, 0.2871, 0.6754], [0.2836, 0.1218, -0.6542]],
                               atol=1e-4)


def test_softmax2d_and_lrn():
    x = np.random.default_rng(0).normal(size=(2, 3, 4, 5)).astype(np.float32)
    np.testing.assert_allclose(np_of(nn.Softmax2d()(t(x))), softmax(x, 1), rtol=1e-5)
    r, bias, alpha, beta = 2, 1.0, 0.5, 0.75
    sq = np.pad(x.astype(np.float64) ** 2, ((0, 0), (r, r), (0, 0), (0, 0)))
    total = sum(sq[:, i:i + 3] for i in range(2 * r + 1))
    expected = x / (bias + alpha * total) ** beta
    np.testing.assert_allclose(np_of(nn.LRN(r, bias, alpha, beta)(t(x))), expected, rtol=1e-5)


def test_rrelu_training_slopes_stay_in_range():
    ms.set_seed(3)
    cell = nn.RReLU(0.1, 0.3).set_train()
    x = -np.ones((1000,), np.float32)
    slopes = -np_of(cell(t(x)))
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03


def test_get_activation_names():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert isinstance(nn.get_activation("selu"), nn.SeLU)
    assert isinstance(nn.get_activation("softshrink"), nn.SoftShrink)
    assert nn.get_activation(None) is None


@pytest.mark.parametrize("make", [lambda: nn.CELU(0.7), lambda: nn.SeLU(),
                                  lambda: nn.GLU(), lambda: nn.LogSigmoid(),
                                  lambda: nn.FastGelu(), lambda: nn.Tanhshrink()])
def test_gradients_match_finite_differences(make):
    cell = make()
    check_grad(cell, X.astype(np.float64) * 0.7 + 0.05)


def test_graph_mode_matches_pynative():
    x = t(X)
    graph_equals_pynative(lambda x: nn.SoftShrink()(nn.CELU()(x)) + nn.Softmin()(x), x)
    graph_equals_pynative(lambda x: nn.GLU()(x) * nn.Hardtanh()(nn.GLU()(x)), x)
