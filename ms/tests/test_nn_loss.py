"""``ms.nn`` losses: MindSpore's documented examples and NumPy references."""
import itertools

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import ShapeError
from sporeling.ms import nn

from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(3)


def log_softmax(x, axis=-1):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


# (name, loss, inputs, documented output) -- the examples of MindSpore r2.3's pages
DOC_EXAMPLES = [
    ("DiceLoss", lambda: nn.DiceLoss(smooth=1e-5),
     ([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], [[0, 1], [1, 0], [0, 1]]), 0.38596618),
    ("FocalLoss", lambda: nn.FocalLoss(weight=t([1, 2]), gamma=2.0, reduction="mean"),
     ([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]], ([[1], [1], [0]], np.int32)), 0.12516622),
    ("MultiClassDiceLoss", lambda: nn.MultiClassDiceLoss(weights=None, ignore_indiex=None,
                                                         activation="softmax"),
     ([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5], [0.9, 0.6, 0.3]], [[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
     0.54958105),
    ("CosineEmbeddingLoss", lambda: nn.CosineEmbeddingLoss(),
     ([[0.3, 0.8], [0.4, 0.3]], [[0.4, 1.2], [-0.4, -0.9]], ([1, -1], np.int32)), 0.0003425479),
    ("HuberLoss", lambda: nn.HuberLoss(), ([1, 2, 3], [1, 2, 2]), 0.16666667),
    ("BCELoss", lambda: nn.BCELoss(weight=t([[1.0, 2.0, 3.0], [4.0, 3.3, 2.2]])),
     ([[0.1, 0.2, 0.3], [0.5, 0.7, 0.9]], [[0, 1, 0], [0, 0, 1]]), 1.8952923),
    ("RMSELoss", lambda: nn.RMSELoss(), ([1, 2, 3], [1, 2, 2]), 0.57735026),
    ("SoftMarginLoss", lambda: nn.SoftMarginLoss(),
     ([[0.3, 0.7], [0.5, 0.5]], [[-1, 1], [1, -1]]), 0.6764238),
    ("KLDivLoss", lambda: nn.KLDivLoss(reduction="mean"), ([0.2, 0.7, 0.1], [0, 1, 0]),
     -0.23333333),
    ("PoissonNLLLoss", lambda: nn.PoissonNLLLoss(),
     ([[0.3, 0.7], [0.5, 0.5]], [[1.0, 2.0], [3.0, 4.0]]), 0.3652635),
    ("GaussianNLLLoss", lambda: nn.GaussianNLLLoss(),
     (np.arange(8).reshape(4, 2), [[2, 3], [1, 4], [6, 4], [4, 9]], np.ones((4, 1))),
     1.4374993),
    ("TripletMarginLoss", lambda: nn.TripletMarginLoss(),
     ([[0.3, 0.7], [0.5, 0.5]], [[0.4, 0.6], [0.4, 0.6]], [[0.2, 0.9], [0.3, 0.7]]),
     0.8881968),
    ("MultilabelMarginLoss", lambda: nn.MultilabelMarginLoss(),
     ([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], ([[1, 2, 0, 3], [2, 3, -1, 1]], np.int64)),
     0.325),
    ("MultiLabelSoftMarginLoss", lambda: nn.MultiLabelSoftMarginLoss(),
     ([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]], [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]), 0.84693956),
]


def _as_tensor(value):
    if isinstance(value, tuple):
        return t(*value)
    return t(value)


@pytest.mark.parametrize("name, make, inputs, expected", DOC_EXAMPLES,
                         ids=[c[0] for c in DOC_EXAMPLES])
def test_documented_examples(name, make, inputs, expected):
    out = np_of(make()(*[_as_tensor(v) for v in inputs]))
    np.testing.assert_allclose(out, expected, rtol=2e-5, atol=1e-7)


X = RNG.normal(size=(4, 3)).astype(np.float32)
Y = RNG.normal(size=(4, 3)).astype(np.float32)
SIGN = np.where(RNG.random((4, 3)) > 0.5, 1.0, -1.0).astype(np.float32)
CLS = np.array([0, 2, 1, 2])

REFERENCES = [
    ("MSELoss", lambda: nn.MSELoss(), (X, Y), ((X - Y) ** 2).mean()),
    ("L1Loss", lambda: nn.L1Loss(reduction="sum"), (X, Y), np.abs(X - Y).sum()),
    ("SmoothL1Loss", lambda: nn.SmoothL1Loss(beta=0.5), (X, Y),
     np.where(np.abs(X - Y) < 0.5, 0.5 * (X - Y) ** 2 / 0.5, np.abs(X - Y) - 0.25)),
    ("HuberLoss-delta", lambda: nn.HuberLoss("sum", 0.5), (X, Y),
     np.where(np.abs(X - Y) < 0.5, 0.5 * (X - Y) ** 2, 0.5 * (np.abs(X - Y) - 0.25)).sum()),
    ("HingeEmbeddingLoss", lambda: nn.HingeEmbeddingLoss(0.8, "none"), (X, SIGN),
     np.where(SIGN == 1, X, np.maximum(0, 0.8 - X))),
    ("MarginRankingLoss", lambda: nn.MarginRankingLoss(0.1), (X, Y, SIGN),
     np.maximum(0, -SIGN * (X - Y) + 0.1).mean()),
    ("BCEWithLogitsLoss", lambda: nn.BCEWithLogitsLoss(), (X, (Y > 0).astype(np.float32)),
     np.mean(np.log1p(np.exp(-np.abs(X))) + np.maximum(X, 0) - X * (Y > 0))),
    ("CrossEntropyLoss", lambda: nn.CrossEntropyLoss(), (X, (CLS, np.int32)),
     -log_softmax(X)[np.arange(4), CLS].mean()),
    ("NLLLoss", lambda: nn.NLLLoss(), (log_softmax(X), (CLS, np.int32)),
     -log_softmax(X)[np.arange(4), CLS].mean()),
    ("SoftmaxCrossEntropyWithLogits", lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True),
     (X, (CLS, np.int32)), -log_softmax(X)[np.arange(4), CLS]),
    ("MultiMarginLoss", lambda: nn.MultiMarginLoss(p=2, margin=0.5,
                                                   weight=t([1.0, 2.0, 0.5])),
     (X, (CLS, np.int64)),
     np.mean([sum(max(0, 0.5 - X[n, CLS[n]] + X[n, i]) ** 2 * [1.0, 2.0, 0.5][CLS[n]]
                  for i in range(3) if i != CLS[n]) / 3 for n in range(4)])),
    ("KLDivLoss-batchmean", lambda: nn.KLDivLoss("batchmean", log_target=True),
     (log_softmax(X), log_softmax(Y)),
     (np.exp(log_softmax(Y)) * (log_softmax(Y) - log_softmax(X))).sum() / 4),
    ("PoissonNLLLoss-full", lambda: nn.PoissonNLLLoss(log_input=False, full=True),
     (np.abs(X) + 0.1, np.abs(Y) * 3), None),
]


def _poisson_full(x, y, eps=1e-8):
    loss = x - y * np.log(x + eps)
    stirling = y * np.log(np.maximum(y, 1)) - y + 0.5 * np.log(2 * np.pi * np.maximum(y, 1))
    return (loss + np.where(y > 1, stirling, 0)).mean()


@pytest.mark.parametrize("name, make, inputs, expected", REFERENCES,
                         ids=[c[0] for c in REFERENCES])
def test_numpy_references(name, make, inputs, expected):
    if expected is None:
        expected = _poisson_full(*[np.asarray(v, np.float64) for v in inputs])
    out = np_of(make()(*[_as_tensor(v) for v in inputs]))
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def _ctc_reference(log_probs, target, blank=0):
    """-log p(target | log_probs) by summing over every alignment (tiny sizes only)."""
    steps, classes = log_probs.shape
    total = -np.inf
    for path in itertools.product(range(classes), repeat=steps):
        collapsed = [c for i, c in enumerate(path) if (i == 0 or c != path[i - 1])]
        if [c for c in collapsed if c != blank] == list(target):
            total = np.logaddexp(total, sum(log_probs[i, c] for i, c in enumerate(path)))
    return -total


def test_ctc_loss_against_all_alignments():
    steps, n, classes = 5, 2, 3
    logits = RNG.normal(size=(steps, n, classes))
    lp = log_softmax(logits)
    targets = np.array([[1, 2], [1, 1]])
    in_len, tgt_len = np.array([5, 4]), np.array([2, 2])
    expected = [_ctc_reference(lp[:in_len[i], i], targets[i, :tgt_len[i]]) for i in range(n)]
    none = nn.CTCLoss(reduction="none")(t(lp), t(targets, np.int32), t(in_len, np.int32),
                                        t(tgt_len, np.int32))
    np.testing.assert_allclose(np_of(none), expected, rtol=1e-5)
    mean = nn.CTCLoss()(t(lp), t(targets, np.int32), t(in_len, np.int32), t(tgt_len, np.int32))
    np.testing.assert_allclose(np_of(mean), np.mean(np.array(expected) / 2), rtol=1e-5)
    # [1, 1] needs a blank between: impossible in 2 steps -> inf, or 0 with zero_infinity
    short = nn.CTCLoss(reduction="none", zero_infinity=True)(
        t(lp[:2, :1]), t([[1, 1]], np.int32), t([2], np.int32), t([2], np.int32))
    np.testing.assert_array_equal(np_of(short), [0.0])
    with pytest.raises(ShapeError, match="N=2"):
        nn.CTCLoss()(t(lp), t([[1, 1]], np.int32), t(in_len, np.int32), t(tgt_len, np.int32))


def test_ctc_gradient():
    targets, in_len, tgt_len = t([[1, 2]], np.int32), t([4], np.int32), t([2], np.int32)
    check_grad(lambda lp: nn.CTCLoss(reduction="sum")(lp, targets, in_len, tgt_len),
               log_softmax(RNG.normal(size=(4, 1, 3))), rtol=1e-4, atol=1e-5)


def test_sampled_softmax_loss_with_given_samples():
    weights, biases = RNG.normal(size=(7, 4)), RNG.normal(size=7)
    x = RNG.normal(size=(3, 4))
    labels = np.array([[0], [5], [3]])
    sampled = np.array([3, 1, 6])
    true_exp, sampled_exp = np.full((3, 1), 0.4), np.full(3, 0.3)
    loss = nn.SampledSoftmaxLoss(3, 7, sampled_values=(sampled, true_exp, sampled_exp))
    out = np_of(loss(t(weights), t(biases), t(labels, np.int64), t(x)))
    true_logit = (x * weights[labels[:, 0]]).sum(1) + biases[labels[:, 0]] - np.log(0.4)
    sampled_logits = x @ weights[sampled].T + biases[sampled] - np.log(0.3)
    sampled_logits[2, 0] -= 1.7e38                                 # label 3 sampled: removed
    full = np.concatenate([true_logit[:, None], sampled_logits], 1)
    np.testing.assert_allclose(out, -log_softmax(full)[:, 0], rtol=1e-5)
    ms.set_seed(0)
    drawn = nn.SampledSoftmaxLoss(4, 7, num_true=1)(t(weights), t(biases), t(labels, np.int64),
                                                    t(x))
    assert np_of(drawn).shape == (3,) and np.all(np_of(drawn) > 0)


def test_loss_gradients_and_graph_mode():
    y = t(Y.astype(np.float64))
    check_grad(lambda x: nn.TripletMarginLoss()(x, y, y * 0.5), X.astype(np.float64))
    check_grad(lambda x: nn.FocalLoss()(x, t(CLS, np.int64)), X.astype(np.float64))
    check_grad(lambda x: nn.MultilabelMarginLoss()(x, t([[1, -1, 0]] * 4, np.int64)),
               X.astype(np.float64))
    sign = t(SIGN)
    graph_equals_pynative(lambda a, b: nn.MarginRankingLoss()(a, b, sign) +
                          nn.HuberLoss()(a, b) + nn.SoftMarginLoss()(a, sign), t(X), t(Y))
