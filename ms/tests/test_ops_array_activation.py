"""ms.ops activation functions against NumPy/SciPy references and MindSpore's documented
examples; gradients and Graph mode for a selection."""
import numpy as np
import pytest
from scipy.special import erf

from sporeling.ms import ops

from array_nn_checks import T, check_grad, check_jit, value

X = np.array([[-2.0, -0.5, 0.0], [0.3, 1.5, 4.0]], np.float32)


def _softmax(a, axis=-1):
    e = np.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _softplus(a):
    return np.log1p(np.exp(a))


CASES = [
    ("relu", lambda: ops.relu(T(X)), np.maximum(X, 0)),
    ("relu6", lambda: ops.relu6(T(X * 3)), np.clip(X * 3, 0, 6)),
    ("sigmoid", lambda: ops.sigmoid(T(X)), 1 / (1 + np.exp(-X))),
    ("tanh", lambda: ops.tanh(T(X)), np.tanh(X)),
    ("silu", lambda: ops.silu(T(X)), X / (1 + np.exp(-X))),
    ("softsign", lambda: ops.softsign(T(X)), X / (1 + np.abs(X))),
    ("logsigmoid", lambda: ops.logsigmoid(T(X)), -_softplus(-X)),
    ("mish", lambda: ops.mish(T(X)), X * np.tanh(_softplus(X))),
    ("elu", lambda: ops.elu(T(X), 0.5), np.where(X > 0, X, 0.5 * np.expm1(X))),
    ("celu", lambda: ops.celu(T(X), 2.0),
     np.maximum(X, 0) + np.minimum(0, 2.0 * np.expm1(X / 2.0))),
    ("selu", lambda: ops.selu(T(X)),
     1.0507009873554805 * np.where(X > 0, X, 1.6732632423543772 * np.expm1(X))),
    ("gelu", lambda: ops.gelu(T(X)), 0.5 * X * (1 + erf(X / np.sqrt(2)))),
    ("gelu_tanh", lambda: ops.gelu(T(X), approximate="tanh"),
     0.5 * X * (1 + np.tanh(np.sqrt(2 / np.pi) * (X + 0.044715 * X ** 3)))),
    # MindSpore's documented example (float16 there; float32 here)
    ("fast_gelu", lambda: ops.fast_gelu(T([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]], np.float32)),
     np.array([[-1.5418735e-01, 3.9921875e+00, -9.7473649e-06],
               [1.9375000e+00, -1.0052517e-03, 8.9824219e+00]])),
    ("glu", lambda: ops.glu(T(np.arange(8.0).reshape(2, 4))),
     np.arange(8.0).reshape(2, 4)[:, :2] / (1 + np.exp(-np.arange(8.0).reshape(2, 4)[:, 2:]))),
    ("hardshrink", lambda: ops.hardshrink(T(X), 0.5), np.where(np.abs(X) > 0.5, X, 0)),
    ("softshrink", lambda: ops.softshrink(T(X), 0.5),
     np.where(X > 0.5, X - 0.5, np.where(X < -0.5, X + 0.5, 0))),
    ("hardsigmoid", lambda: ops.hardsigmoid(T(X)), np.clip(X + 3, 0, 6) / 6),
    ("hardswish", lambda: ops.hardswish(T(X)), X * np.clip(X + 3, 0, 6) / 6),
    ("hardtanh", lambda: ops.hardtanh(T(X), -1.0, 2.0), np.clip(X, -1, 2)),
    # MindSpore's default slope is 0.2
    ("leaky_relu", lambda: ops.leaky_relu(T(X)), np.where(X >= 0, X, 0.2 * X)),
    ("prelu", lambda: ops.prelu(T(np.ones((2, 3, 2)) * -1.0), T([0.1, 0.2, 0.3])),
     np.broadcast_to(-np.array([0.1, 0.2, 0.3])[None, :, None], (2, 3, 2))),
    ("threshold", lambda: ops.threshold(T(X), 0.2, 20.0), np.where(X > 0.2, X, 20.0)),
    ("softmax", lambda: ops.softmax(T(X), 0), _softmax(X, 0)),
    ("softmin", lambda: ops.softmin(T(X)), _softmax(-X)),
    ("log_softmax", lambda: ops.log_softmax(T(X)), np.log(_softmax(X))),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    loose = name == "fast_gelu"  # the documented values are float16
    np.testing.assert_allclose(value(call()), expected, rtol=3e-3 if loose else 1e-5,
                               atol=1e-5 if loose else 1e-6)


def test_softmax_dtype_argument():
    out = ops.softmax(T(X), dtype=np.float64)
    assert value(out).dtype == np.float64


def test_rrelu_slopes_lie_between_bounds():
    x = -np.ones(2000, np.float32)
    slopes = -value(ops.rrelu(T(x), 0.1, 0.3))
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03
    assert (value(ops.rrelu(T(np.ones(3, np.float32)))) == 1).all()


def test_gumbel_softmax_soft_and_hard():
    logits = np.log(np.array([[0.1, 0.6, 0.3]] * 500, np.float32))
    soft = value(ops.gumbel_softmax(T(logits), tau=0.5))
    np.testing.assert_allclose(soft.sum(-1), 1, rtol=1e-5)
    hard = value(ops.gumbel_softmax(T(logits), hard=True))
    assert set(np.unique(hard)) == {0.0, 1.0} and (hard.sum(-1) == 1).all()
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.6, 0.3], atol=0.08)


def test_errors_name_the_op():
    from sporeling.core.errors import SporelingError
    with pytest.raises(SporelingError, match="ops.glu"):
        ops.glu(T(np.ones((2, 3))))
    with pytest.raises(SporelingError, match="ops.prelu"):
        ops.prelu(T(np.ones((2, 3))), T(np.ones(2)))


@pytest.mark.parametrize("fn", [ops.elu, ops.mish, ops.hardswish, ops.logsigmoid,
                                ops.fast_gelu, ops.celu, ops.softshrink, ops.softmin])
def test_gradients(fn):
    check_grad(fn, np.array([[-1.7, -0.4, 0.2], [0.9, 1.3, 2.5]]))


@pytest.mark.parametrize("fn", [ops.selu, ops.hardsigmoid, ops.glu, ops.leaky_relu,
                                lambda a: ops.log_softmax(a, 0)])
def test_graph_mode(fn):
    check_jit(fn, np.array([[-1.7, -0.4, 0.2, 3.0], [0.9, 1.3, 2.5, -3.0]], np.float32))
