"""MindSpore 2.10's metrics in ``ms.train`` (and ``ms.nn``, ``ms``): each checked against the
example MindSpore documents and against a formula written here with NumPy."""
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms.train import metrics as M

_X = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
_Y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])


@pytest.mark.parametrize("make, inputs, expected", [
    (lambda: M.Dice(smooth=1e-5), (np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]),
                                   np.array([[0, 1], [1, 0], [0, 1]])), 0.20467791371802546),
    (lambda: M.Perplexity(), (np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]),
                              np.array([1, 0, 1])), 2.231443166940565),
    (lambda: M.BleuScore(), ([["i", "have", "a", "pen", "on", "my", "desk"]],
                             [[["i", "have", "a", "pen", "in", "my", "desk"],
                               ["there", "is", "a", "pen", "on", "the", "desk"]]]),
     0.5946035575013605),
    (lambda: M.HausdorffDistance(), (_X, _Y, 0), 1.4142135623730951),
    (lambda: M.MeanSurfaceDistance(symmetric=False), (_X, _Y, 0), 0.8047378541243649),
    (lambda: M.ConfusionMatrixMetric(metric_name="tpr"),
     (np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]])), 0.5),
])
def test_documented_examples(make, inputs, expected):
    metric = make()
    metric.clear()
    metric.update(*inputs)
    assert np.allclose(metric.eval(), expected, rtol=1e-12)


def test_roc_and_auc_documented_examples():
    roc = M.ROC(pos_label=2)
    roc.update(np.array([3, 1, 4, 2]), np.array([0, 1, 2, 3]))
    fpr, tpr, thresholds = roc.eval()
    assert np.allclose(fpr, [0, 0, 1 / 3, 2 / 3, 1]) and np.allclose(tpr, [0, 1, 1, 1, 1])
    assert np.array_equal(thresholds, [5, 4, 3, 2, 1])
    roc = M.ROC(pos_label=2)
    roc.update(_X, _Y)
    assert M.auc(*roc.eval()[:2]) == pytest.approx(0.5357142857142857, rel=1e-12)
    roc = M.ROC(class_num=4)
    roc.update(np.array([[0.28, 0.55, 0.15, 0.05], [0.10, 0.20, 0.05, 0.05],
                         [0.20, 0.05, 0.15, 0.05], [0.05, 0.05, 0.05, 0.75]]),
               np.array([0, 1, 2, 3]))
    fpr, tpr, thresholds = roc.eval()
    assert [len(f) for f in fpr] == [5, 4, 3, 3]
    assert np.allclose(thresholds[0], [1.28, 0.28, 0.2, 0.1, 0.05])
    assert np.allclose(tpr[1], [0, 0, 1, 1]) and np.allclose(fpr[3], [0, 0, 1])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=2, max_size=30)
       .filter(lambda rows: len({b for _, b in rows}) == 2))
def test_roc_points_are_the_rates_at_each_distinct_threshold(rows):
    scores = np.array([s for s, _ in rows], float)
    labels = np.array([int(b) for _, b in rows])
    roc = M.ROC()
    roc.update(scores, labels)
    fpr, tpr, thresholds = roc.eval()
    for f, t, th in zip(fpr[1:], tpr[1:], thresholds[1:]):
        predicted = scores >= th
        assert t == pytest.approx((predicted & (labels == 1)).sum() / (labels == 1).sum())
        assert f == pytest.approx((predicted & (labels == 0)).sum() / (labels == 0).sum())
    # the area equals the probability a positive outranks a negative (ties count half)
    pos, neg = scores[labels == 1], scores[labels == 0]
    wins = (pos[:, None] > neg[None]).sum() + 0.5 * (pos[:, None] == neg[None]).sum()
    assert M.auc(fpr, tpr) == pytest.approx(wins / (pos.size * neg.size))


@settings(max_examples=30, deadline=None)
@given(arrays(np.float64, (3, 4), elements=st.floats(0, 1)),
       arrays(np.float64, (3, 4), elements=st.floats(0, 1)))
def test_dice_is_twice_the_overlap_over_the_squared_norms(a, b):
    metric = M.Dice()
    metric.update(a, b)
    expected = 2 * np.sum(a * b) / (np.sum(a * a) + np.sum(b * b) + 1e-5) / 3
    assert metric.eval() == pytest.approx(expected)


@settings(max_examples=30, deadline=None)
@given(arrays(np.float64, (5, 3), elements=st.floats(0.01, 1)),
       st.lists(st.integers(0, 2), min_size=5, max_size=5), st.sampled_from([None, 0, 2]))
def test_perplexity_is_exp_of_the_mean_negative_log_probability(probs, labels, ignore):
    metric = M.Perplexity(ignore_label=ignore)
    metric.update(probs, np.array(labels))
    kept = [probs[i, c] for i, c in enumerate(labels) if c != ignore]
    if not kept:
        with pytest.raises(RuntimeError):
            metric.eval()
        return
    assert metric.eval() == pytest.approx(math.exp(-np.mean(np.log(kept))))


def test_cosine_similarity_matches_numpy():
    data = np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]], float)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    metric = M.CosineSimilarity()
    metric.update(data)
    expected = unit @ unit.T
    np.fill_diagonal(expected, 0)
    assert np.allclose(metric.eval(), expected)
    metric = M.CosineSimilarity(similarity="dot", reduction="sum", zero_diagonal=False)
    metric.update(data)
    assert np.allclose(metric.eval(), (data @ data.T).sum(axis=-1))


def _bleu(candidate, references, n_max):
    """BLEU of one sentence pair, written from the definition."""
    precisions = []
    for n in range(1, n_max + 1):
        grams = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        best = Counter()
        for ref in references:
            best |= Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
        clipped = sum(min(k, best[g]) for g, k in grams.items())
        precisions.append(clipped / sum(grams.values()))
    if min(precisions) == 0:
        return 0.0
    r = min((len(ref) for ref in references), key=lambda x: abs(len(candidate) - x))
    penalty = 1.0 if len(candidate) > r else math.exp(1 - r / len(candidate))
    return penalty * math.exp(sum(math.log(p) for p in precisions) / n_max)


@pytest.mark.parametrize("n_gram", [1, 2, 3])
def test_bleu_score_matches_its_definition(n_gram):
    cand = "the cat sat on the mat".split()
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    metric = M.BleuScore(n_gram=n_gram)
    metric.update([cand], [refs])
    assert float(metric.eval()) == pytest.approx(_bleu(cand, refs, n_gram))


def _edges(mask):
    """A mask's surface: its pixels with a 4-neighbour outside it (or on the border)."""
    padded = np.pad(mask, 1)
    inner = padded[1:-1, 1:-1] & padded[:-2, 1:-1] & padded[2:, 1:-1] & \
        padded[1:-1, :-2] & padded[1:-1, 2:]
    return mask & ~inner


def _surface_distances(a, b):
    pa, pb = np.argwhere(_edges(a)), np.argwhere(_edges(b))
    return np.sqrt(((pa[:, None] - pb[None]) ** 2).sum(-1)).min(axis=1)


@settings(max_examples=30, deadline=None)
@given(arrays(np.bool_, (6, 7)), arrays(np.bool_, (6, 7)))
def test_surface_distances_match_brute_force(a, b):
    if not a.any() or not b.any():
        return
    there, back = _surface_distances(a, b), _surface_distances(b, a)
    hd = M.HausdorffDistance(crop=False)
    hd.update(a, b, 1)
    assert hd.eval() == pytest.approx(max(there.max(), back.max()))
    msd = M.MeanSurfaceDistance(symmetric=True)
    msd.update(a, b, 1)
    assert msd.eval() == pytest.approx((there.mean() + back.mean()) / 2)
    rms = M.RootMeanSquareDistance()
    rms.update(a, b, 1)
    assert rms.eval() == pytest.approx(np.mean(there ** 2))


@settings(max_examples=30, deadline=None)
@given(arrays(np.int8, (4, 3, 5), elements=st.integers(0, 1)),
       arrays(np.int8, (4, 3, 5), elements=st.integers(0, 1)),
       st.sampled_from(["sensitivity", "precision", "f1 score", "accuracy", "mcc"]))
def test_confusion_matrix_metric_matches_the_counts(y_pred, y, name):
    tp = float(((y_pred == 1) & (y == 1)).sum())
    fp = float(((y_pred == 1) & (y == 0)).sum())
    tn = float(((y_pred == 0) & (y == 0)).sum())
    fn = float(((y_pred == 0) & (y == 1)).sum())
    formulas = {"sensitivity": (tp, tp + fn), "precision": (tp, tp + fp),
                "f1 score": (2 * tp, 2 * tp + fp + fn), "accuracy": (tp + tn, y.size),
                "mcc": (tp * tn - fp * fn,
                        math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))}
    num, den = formulas[name]
    metric = M.ConfusionMatrixMetric(metric_name=name)
    metric.update(y_pred[:2], y[:2])
    metric.update(y_pred[2:], y[2:])
    result = metric.eval()
    assert result.shape == (1,)
    if den == 0:
        assert np.isnan(result[0])
    else:
        assert result[0] == pytest.approx(num / den)


def test_occlusion_sensitivity_documented_example():
    class DenseNet(nn.Cell):
        def __init__(self):
            super().__init__()
            w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)
            self.dense = nn.Dense(4, 2, weight_init=ms.Tensor(w),
                                  bias_init=ms.Tensor(np.array([0.3, 0.6], np.float32)))

        def construct(self, x):
            return self.dense(x)

    metric = M.OcclusionSensitivity()
    metric.update(DenseNet(), np.array([[0.1, 0.2, 0.3, 0.4]], np.float32),
                  np.array(1, np.int32))
    assert np.allclose(metric.eval(), [0.3, 0.6, 1.0, 0.9], atol=1e-6)


def test_rearrange_inputs_picks_the_indexed_inputs_once_under_model_eval():
    class FirstMinusSecond(M.Metric):
        def clear(self):
            self.seen = []

        @M.rearrange_inputs
        def update(self, *inputs):
            self.seen.append(tuple(float(np.asarray(x.asnumpy() if hasattr(x, "asnumpy")
                                                     else x).sum()) for x in inputs))

        def eval(self):
            return self.seen

    direct = FirstMinusSecond().set_indexes([1, 0])
    direct.clear()
    direct.update(np.ones(1), np.full(1, 5.0))
    assert direct.eval() == [(5.0, 1.0)]

    class Pair(nn.Cell):
        def construct(self, x, y):
            return x * 2, y * 3, x + y

    metric = FirstMinusSecond().set_indexes([2, 0])
    model = ms.train.Model(nn.Dense(1, 1), eval_network=Pair(), metrics={"m": metric})
    x = np.ones((1, 1), np.float32)
    result = model.eval([(x, x * 10)])
    assert result["m"] == [(11.0, 2.0)]


def test_metric_names_factory_and_namespaces():
    assert ms.train.names() == ms.nn.names() == ms.names() == sorted(ms.train.names())
    assert "confusion_matrix_metric" in ms.train.names()
    assert isinstance(ms.train.get_metric_fn("dice", smooth=0.5), M.Dice)
    # like MindSpore's factory, "auc" calls the function with the arguments given
    assert ms.train.get_metric_fn("auc", np.array([0.0, 1.0]), np.array([1.0, 1.0])) == 1.0
    with pytest.raises(KeyError):
        ms.train.get_metric_fn("nope")
    assert ms.nn.Dice is ms.Dice is ms.train.Dice
    assert ms.nn.get_metrics(None) is None
    with pytest.raises(TypeError):
        ms.nn.get_metrics(["acc"])


def test_model_takes_mindspore_metric_names():
    net = nn.Dense(2, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    x = np.array([[1, 0], [0, 1]] * 4, np.float32)
    y = np.array([0, 1] * 4, np.int32)
    model = ms.train.Model(net, loss, metrics={"acc", "perplexity", "loss"})
    result = model.eval([(x, y)])
    logits = net(ms.Tensor(x)).asnumpy()
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    assert set(result) == {"acc", "perplexity", "loss"}
    # Perplexity reads the network's outputs as probabilities (MindSpore's convention)
    picked = np.maximum(logits[np.arange(8), y], 1e-10)
    assert result["perplexity"] == pytest.approx(math.exp(-np.mean(np.log(picked))))
    assert result["loss"] == pytest.approx(-np.mean(np.log(probs[np.arange(8), y])), rel=1e-5)


def test_metric_errors_are_clear():
    with pytest.raises(ValueError, match="n_gram"):
        M.BleuScore(n_gram=5)
    with pytest.raises(ValueError, match="distance_metric"):
        M.HausdorffDistance(distance_metric="cosine")
    with pytest.raises(RuntimeError, match="update"):
        M.ROC().eval()
    with pytest.raises(ValueError, match="metric_name"):
        M.ConfusionMatrixMetric(metric_name="magic")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        M.auc([0, 1], [0, 1])
