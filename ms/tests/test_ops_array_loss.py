"""ms.ops loss functions against NumPy references and MindSpore's documented examples;
gradients and Graph mode for a selection."""
import numpy as np
import pytest

from sporeling.ms import ops

from array_nn_checks import T, check_grad, check_jit, value

RNG = np.random.default_rng(0)
LOGITS = RNG.standard_normal((4, 5))
LABELS = np.array([1, 0, 4, 2])
A = RNG.standard_normal((4, 3))
B = RNG.standard_normal((4, 3))
P = 1 / (1 + np.exp(-A))
Y01 = (RNG.random((4, 3)) > 0.5).astype(np.float64)
SIGN = np.array([1.0, -1.0, 1.0, -1.0])


def _logsm(x):
    m = x.max(1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(1, keepdims=True))


def _cos(a, b):
    return (a * b).sum(-1) / np.sqrt((a * a).sum(-1) * (b * b).sum(-1))


def _multi_label_margin(x, y):
    out = []
    for xi, yi in zip(x, y):
        targets = list(yi[:list(yi).index(-1)] if -1 in yi else yi)
        total = sum(max(0, 1 - (xi[j] - xi[i])) for j in targets
                    for i in range(len(xi)) if i not in targets)
        out.append(total / len(xi))
    return np.array(out)


CASES = [
    ("l1_loss", lambda: ops.l1_loss(T(A), T(B)), np.abs(A - B).mean()),
    ("mse_loss", lambda: ops.mse_loss(T(A), T(B), reduction="sum"), ((A - B) ** 2).sum()),
    # MindSpore's default reduction for smooth_l1_loss is 'none'
    ("smooth_l1_loss", lambda: ops.smooth_l1_loss(T(A), T(B * 3)),
     np.where(np.abs(A - B * 3) < 1, 0.5 * (A - B * 3) ** 2, np.abs(A - B * 3) - 0.5)),
    ("huber_loss", lambda: ops.huber_loss(T(A), T(B * 3), delta=2.0),
     np.where(np.abs(A - B * 3) < 2, 0.5 * (A - B * 3) ** 2,
              2 * (np.abs(A - B * 3) - 1)).mean()),
    ("binary_cross_entropy", lambda: ops.binary_cross_entropy(T(P), T(Y01)),
     -(Y01 * np.log(P) + (1 - Y01) * np.log(1 - P)).mean()),
    ("binary_cross_entropy_with_logits",
     lambda: ops.binary_cross_entropy_with_logits(T(A), T(Y01), pos_weight=T([1.0, 2.0, 3.0])),
     -(np.array([1.0, 2.0, 3.0]) * Y01 * np.log(P) + (1 - Y01) * np.log(1 - P)).mean()),
    ("cross_entropy", lambda: ops.cross_entropy(T(LOGITS), T(LABELS)),
     -_logsm(LOGITS)[np.arange(4), LABELS].mean()),
    ("cross_entropy_probs",
     lambda: ops.cross_entropy(T(LOGITS), T(np.eye(5)[LABELS]), label_smoothing=0.1),
     -((np.eye(5)[LABELS] * 0.9 + 0.02) * _logsm(LOGITS)).sum(1).mean()),
    ("nll_loss", lambda: ops.nll_loss(T(_logsm(LOGITS)), T(LABELS), reduction="none"),
     -_logsm(LOGITS)[np.arange(4), LABELS]),
    ("nll_loss_smoothing",
     lambda: ops.nll_loss(T(_logsm(LOGITS)), T(LABELS), label_smoothing=0.2),
     (0.8 * -_logsm(LOGITS)[np.arange(4), LABELS] - 0.2 / 5 * _logsm(LOGITS).sum(1)).mean()),
    ("kl_div", lambda: ops.kl_div(T(_logsm(A)), T(np.exp(_logsm(B))), "batchmean"),
     (np.exp(_logsm(B)) * (_logsm(B) - _logsm(A))).sum() / 4),
    ("cosine_embedding_loss", lambda: ops.cosine_embedding_loss(T(A), T(B), T(SIGN), 0.1),
     np.where(SIGN > 0, 1 - _cos(A, B), np.maximum(0, _cos(A, B) - 0.1)).mean()),
    ("gaussian_nll_loss", lambda: ops.gaussian_nll_loss(T(A), T(B), T(P), full=True),
     (0.5 * (np.log(P) + (A - B) ** 2 / P) + 0.5 * np.log(2 * np.pi)).mean()),
    ("hinge_embedding_loss",
     lambda: ops.hinge_embedding_loss(T(A), T(np.sign(B)), 0.5, "sum"),
     np.where(np.sign(B) > 0, A, np.maximum(0, 0.5 - A)).sum()),
    ("margin_ranking_loss", lambda: ops.margin_ranking_loss(T(A[:, 0]), T(B[:, 0]), T(SIGN)),
     np.maximum(0, -SIGN * (A[:, 0] - B[:, 0])).mean()),
    ("soft_margin_loss", lambda: ops.soft_margin_loss(T(A), T(np.sign(B))),
     np.log1p(np.exp(-np.sign(B) * A)).mean()),
    ("multilabel_soft_margin_loss", lambda: ops.multilabel_soft_margin_loss(T(A), T(Y01)),
     (-(Y01 * np.log(P) + (1 - Y01) * np.log(1 - P))).mean(1).mean()),
    ("multi_margin_loss", lambda: ops.multi_margin_loss(T(LOGITS), T(LABELS), reduction="none"),
     np.array([sum(max(0, 1 - LOGITS[n, LABELS[n]] + LOGITS[n, i]) for i in range(5)
                   if i != LABELS[n]) / 5 for n in range(4)])),
    ("multi_label_margin_loss",
     lambda: ops.multi_label_margin_loss(T(LOGITS[:2]), T([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0]]),
                                         reduction="none"),
     _multi_label_margin(LOGITS[:2], np.array([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0]]))),
    ("triplet_margin_loss", lambda: ops.triplet_margin_loss(T(A), T(B), T(B[::-1])),
     np.maximum(np.linalg.norm(A - B + 1e-6, axis=-1)
                - np.linalg.norm(A - B[::-1] + 1e-6, axis=-1) + 1.0, 0).mean()),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    np.testing.assert_allclose(value(call()), expected, rtol=1e-6, atol=1e-9)


def test_multi_label_margin_loss_documented_example():
    x = T(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], np.float32))
    target = T(np.array([[1, 2, 0, 3], [2, 3, -1, 1]], np.int32))
    np.testing.assert_allclose(value(ops.multi_label_margin_loss(x, target)), 0.325, rtol=1e-6)


def test_ctc_loss_documented_example():
    log_probs = T(np.array([[[0.3, 0.6, 0.6]], [[0.9, 0.4, 0.2]]], np.float32))
    loss, log_alpha = ops.ctc_loss(log_probs, T(np.array([[0, 1]], np.int32)),
                                   T(np.array([2], np.int32)), T(np.array([1], np.int32)),
                                   0, "mean", True)
    np.testing.assert_allclose(value(loss), -2.2986124, rtol=1e-6)
    np.testing.assert_allclose(value(log_alpha), [[[0.3, 0.3, -np.inf, -np.inf, -np.inf],
                                                   [1.2, 1.8931472, 1.2, -np.inf, -np.inf]]],
                               rtol=1e-6)


def _ctc_reference(lp, target):
    """-log of the summed probability of every alignment (brute force over paths)."""
    import itertools
    steps, classes = lp.shape
    total = 0.0
    for path in itertools.product(range(classes), repeat=steps):
        collapsed = [c for i, c in enumerate(path) if c != 0 and (i == 0 or c != path[i - 1])]
        if collapsed == list(target):
            total += np.exp(sum(lp[t, c] for t, c in enumerate(path)))
    return -np.log(total)


def test_ctc_loss_against_brute_force_and_its_gradient():
    lp = _logsm(RNG.standard_normal((4, 3)))
    loss, _ = ops.ctc_loss(T(lp[:, None, :]), T([[1, 2]]), T([4]), T([2]), reduction="sum")
    np.testing.assert_allclose(value(loss), _ctc_reference(lp, [1, 2]), rtol=1e-10)
    check_grad(lambda x: ops.ctc_loss(x, T([[1, 1]]), T([4]), T([2]), reduction="sum")[0],
               lp[:, None, :])
    # Graph mode: the labels and lengths are constants of the graph (NumPy values)
    batch = np.stack([lp, lp[::-1]], 1)
    check_jit(lambda x: ops.ctc_loss(x, np.array([[1, 2], [2, 0]]), np.array([4, 3]),
                                     np.array([2, 1]))[0], batch)


def test_unknown_reduction_is_named():
    from sporeling.core.errors import SporelingError
    with pytest.raises(SporelingError, match="unknown reduction"):
        ops.l1_loss(T(A), T(B), reduction="avg")


@pytest.mark.parametrize("fn", [
    lambda a: ops.binary_cross_entropy_with_logits(a, T(Y01)),
    lambda a: ops.cross_entropy(a, T(LABELS[:4] % 3)),
    lambda a: ops.kl_div(a, T(np.full((4, 3), 1 / 3)), "sum"),
    lambda a: ops.huber_loss(a, T(B), "none", 0.7),
    lambda a: ops.multi_margin_loss(a, T(LABELS % 3), p=2),
    lambda a: ops.triplet_margin_loss(a, T(B), T(B[::-1]), swap=True),
])
def test_gradients(fn):
    check_grad(fn, A)


@pytest.mark.parametrize("fn", [
    lambda a, b: ops.smooth_l1_loss(a, b, reduction="mean"),
    lambda a, b: ops.cosine_embedding_loss(a, b, T(SIGN)),
    lambda a, b: ops.soft_margin_loss(a, ops.sigmoid(b)),
])
def test_graph_mode(fn):
    check_jit(fn, A.astype(np.float32), B.astype(np.float32))
