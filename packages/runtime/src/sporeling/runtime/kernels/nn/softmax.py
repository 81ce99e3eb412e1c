"""softmax / log_softmax kernels: shifted by the maximum, so no overflow for any logits."""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

from ..table import define, output, writes_out


@define("softmax", memory=writes_out())
def softmax(backend, x, out=None, *, axis):
    y = output(backend, out, x.shape, x.dtype)
    np.subtract(x, np.max(x, axis=axis, keepdims=True), out=y)
    np.exp(y, out=y)
    y /= np.sum(y, axis=axis, keepdims=True)
    return y


@define("log_softmax", memory=writes_out())
def log_softmax(backend, x, out=None, *, axis):
    y = output(backend, out, x.shape, x.dtype)
    np.subtract(x, np.max(x, axis=axis, keepdims=True), out=y)
    y -= np.log(np.sum(np.exp(y), axis=axis, keepdims=True))
    return y


# ---- softmax cross entropy against class indices (class axis 1, or 0 for (C,) logits) ----
# (ufunc reductions called directly: np.max / np.sum wrappers cost microseconds per call on
# these small arrays, as much as the arithmetic)

_max, _sum = np.maximum.reduce, np.add.reduce


def _valid_labels(op, labels, classes, ignore_index):
    """The mask of counted labels (None when all count) and labels safe to index with,
    after checking the classes are in range (NumPy would wrap -1 round silently)."""
    labels = np.asarray(labels)
    ignored = labels == ignore_index
    valid = None
    if ignored.any():
        valid = ~ignored
        labels = np.where(ignored, 0, labels)
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = labels[(labels < 0) | (labels >= classes)]
        raise ShapeError("target class out of range", op=op,
                         expected=f"class indices in [0, {classes}) or {ignore_index}",
                         got=int(bad.ravel()[0]))
    return valid, labels


def _take_class(x, labels, axis):
    """``x`` at each label's class: labels-shaped."""
    if x.ndim == 2:
        return x[np.arange(x.shape[0]), labels]
    picked = np.take_along_axis(x, np.expand_dims(labels, axis), axis)
    return np.squeeze(picked, axis)


def _count(valid, labels):
    return labels.size if valid is None else int(np.count_nonzero(valid))


@define("softmax_cross_entropy", memory=writes_out())
def softmax_cross_entropy(backend, x, labels, out=None, *, reduction, ignore_index):
    """``logsumexp(x) - x[label]`` per target from one shifted pass; mean, sum or none."""
    axis = 1 if x.ndim > 1 else 0
    valid, labels = _valid_labels("cross_entropy", labels, x.shape[axis], ignore_index)
    shifted = np.subtract(x, _max(x, axis=axis, keepdims=True))
    picked = _take_class(shifted, labels, axis)
    np.exp(shifted, out=shifted)
    losses = np.log(_sum(shifted, axis=axis))
    losses -= picked
    if valid is not None:
        losses = np.where(valid, losses, 0).astype(x.dtype, copy=False)
    if reduction == "none":
        y = output(backend, out, losses.shape, x.dtype)
        np.copyto(y, losses)
        return y
    y = output(backend, out, (), x.dtype)
    total = _sum(losses, axis=None, dtype=x.dtype)
    if reduction == "mean":
        n = _count(valid, labels)
        total = total / np.asarray(n, x.dtype) if n else np.asarray(np.nan, x.dtype)
    np.copyto(y, total, casting="unsafe")
    return y


# x - max(x) into out, then only out and the labels are read: out may be the logits
@define("softmax_cross_entropy_grad", memory=writes_out(0))
def softmax_cross_entropy_grad(backend, x, labels, ct, out=None, *, reduction, ignore_index):
    """``(softmax(x) - onehot(label)) * ct`` (``/ n`` for mean), 0 where ignored."""
    axis = 1 if x.ndim > 1 else 0
    valid, labels = _valid_labels("cross_entropy", labels, x.shape[axis], ignore_index)
    y = output(backend, out, x.shape, x.dtype)
    np.subtract(x, _max(x, axis=axis, keepdims=True), out=y)
    np.exp(y, out=y)
    ct = np.asarray(ct)
    if reduction == "none":
        scale = ct if valid is None else np.multiply(ct, valid)
        scale = np.expand_dims(scale, axis).astype(y.dtype, copy=False)
    else:
        n = _count(valid, labels)
        scale = ct / np.asarray(n, ct.dtype) if reduction == "mean" and n else \
            (np.asarray(np.nan, ct.dtype) if reduction == "mean" else ct)
    # softmax * scale in one pass: exp(shifted) * (scale / sum)
    np.multiply(y, np.divide(scale, _sum(y, axis=axis, keepdims=True), dtype=y.dtype), out=y)
    if y.ndim == 2:
        rows = np.arange(y.shape[0])
        y[rows, labels] -= scale if scale.ndim == 0 else scale[rows, 0]
    else:
        index = np.expand_dims(labels, axis)
        minus = scale if scale.ndim == 0 else np.take_along_axis(np.broadcast_to(
            scale, y.shape), index, axis)
        np.put_along_axis(y, index, np.take_along_axis(y, index, axis) - minus, axis)
    if valid is not None and reduction != "none":
        y *= np.expand_dims(valid, axis)
    return y
