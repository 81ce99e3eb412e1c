"""Metrics against hand-computed values and scikit-learn."""
import numpy as np
import pytest
import sklearn.metrics as sk

import sporeling.expression as sx
from sporeling.expression.train import metrics as M

LOGITS = np.array([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1], [0.2, 0.3, 0.5],
                   [0.6, 0.3, 0.1], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]])
LABELS = np.array([1, 0, 1, 2, 2, 0])
PRED = LOGITS.argmax(1)  # [1, 0, 2, 0, 2, 1]


def test_accuracy_from_logits_labels_and_one_hot():
    acc = M.Accuracy()
    acc.update(sx.Tensor(LOGITS[:3].astype(np.float32)), sx.Tensor(LABELS[:3]))
    acc.update(LOGITS[3:], np.eye(3)[LABELS[3:]])
    assert acc.eval() == pytest.approx(3 / 6)
    acc.clear()
    with pytest.raises(RuntimeError, match="no samples"):
        acc.eval()
    with pytest.raises(ValueError, match="number of samples"):
        acc.update(LOGITS, LABELS[:2])


def test_top_k():
    top2 = M.TopKCategoricalAccuracy(2)
    top2.update(LOGITS, LABELS)
    # top-2 sets: {1,2} {0,1|2} {2,1} {0,1} {2,1} {1,0}: all but sample 3
    assert top2.eval() == pytest.approx(5 / 6)
    assert M.Top1CategoricalAccuracy()(LOGITS, LABELS) == pytest.approx(3 / 6)
    assert M.Top5CategoricalAccuracy()(LOGITS, LABELS) == 1.0
    assert M.get_metric_fn("top_k_categorical_accuracy", 2)(LOGITS, LABELS) == \
        pytest.approx(5 / 6)


def test_precision_recall_f1_per_class_and_averaged():
    tp = np.array([1, 1, 1])
    predicted = np.array([2, 2, 2])
    actual = np.array([2, 2, 2])
    p, r = tp / predicted, tp / actual
    np.testing.assert_allclose(M.Precision()(LOGITS, LABELS), p)
    np.testing.assert_allclose(M.Recall()(LOGITS, LABELS), r)
    f1 = M.F1()
    f1.update(LOGITS, LABELS)
    np.testing.assert_allclose(f1.eval(), 2 * p * r / (p + r))
    assert f1.eval(average=True) == pytest.approx(np.mean(2 * p * r / (p + r)))
    fb = M.Fbeta(2.0)
    fb.update(np.array([0, 0, 1]), np.array([0, 1, 1]))  # class 1: P=1, R=0.5
    assert fb.eval()[1] == pytest.approx(5 * 0.5 / (4 * 1 + 0.5))


def test_precision_class_never_predicted_scores_zero():
    prec = M.Precision()
    prec.update(np.array([0, 0]), np.array([0, 2]))
    np.testing.assert_allclose(prec.eval(), [0.5, 0.0, 0.0])


def test_against_sklearn():
    rng = np.random.default_rng(0)
    logits, labels = rng.standard_normal((50, 4)), rng.integers(0, 4, 50)
    pred = logits.argmax(1)
    np.testing.assert_allclose(M.Precision()(logits, labels),
                               sk.precision_score(labels, pred, average=None, zero_division=0))
    np.testing.assert_allclose(M.Recall()(logits, labels),
                               sk.recall_score(labels, pred, average=None, zero_division=0))
    np.testing.assert_allclose(M.F1()(logits, labels),
                               sk.f1_score(labels, pred, average=None, zero_division=0))
    np.testing.assert_allclose(M.ConfusionMatrix(4)(logits, labels),
                               sk.confusion_matrix(labels, pred))


def test_confusion_matrix_and_normalisations():
    counts = np.zeros((3, 3))
    for t, p in zip(LABELS, PRED):
        counts[t, p] += 1
    cm = M.ConfusionMatrix(3)
    cm.update(LOGITS, LABELS)
    np.testing.assert_array_equal(cm.eval(), counts)
    rows = M.ConfusionMatrix(3, normalize="target")(LOGITS, LABELS)
    np.testing.assert_allclose(rows, counts / counts.sum(1, keepdims=True))
    cols = M.ConfusionMatrix(3, normalize="prediction")(LOGITS, LABELS)
    np.testing.assert_allclose(cols, counts / counts.sum(0, keepdims=True))
    np.testing.assert_allclose(M.ConfusionMatrix(3, normalize="all")(LOGITS, LABELS),
                               counts / 6)
    empty_class = M.ConfusionMatrix(4, normalize="target")(LOGITS, LABELS)
    assert np.all(empty_class[3] == 0)
    binary = M.ConfusionMatrix(2)(np.array([0.9, 0.2, 0.6]), np.array([1, 0, 0]))
    np.testing.assert_array_equal(binary, [[1, 1], [0, 1]])
    with pytest.raises(ValueError, match="out of range"):
        M.ConfusionMatrix(2)(LOGITS, LABELS)
    with pytest.raises(ValueError, match="normalize"):
        M.ConfusionMatrix(2, normalize="rows")


def test_loss_mae_mse():
    loss = M.Loss()
    loss.update(sx.Tensor(np.float32(2.0)))
    loss.update(np.array([1.0, 3.0]))
    assert loss.eval() == pytest.approx(2.0)
    with pytest.raises(ValueError, match="scalar"):
        loss.update(np.ones((2, 2)))
    y_pred, y = np.array([[1.0, 2.0], [3.0, 5.0]]), np.array([[1.0, 1.0], [2.0, 5.0]])
    assert M.MAE()(y_pred, y) == pytest.approx(2.0 / 2)
    assert M.MSE()(y_pred, y) == pytest.approx(2.0 / 2)


def test_metric_names_and_indexes():
    ms = M.get_metrics({"acc", "loss", "top_5_accuracy", "F1"})
    assert isinstance(ms["acc"], M.Accuracy) and isinstance(ms["loss"], M.Loss)
    with pytest.raises(KeyError, match="unknown metric"):
        M.get_metrics({"accuracyy"})
    with pytest.raises(TypeError):
        M.get_metrics({"a": object()})
    acc = M.Accuracy().set_indexes([2, 0])
    assert acc.select(("x", "y", "z")) == ("z", "x")
