"""Loss functions (MindSpore r2.3 ``mindspore.ops``), composed from sx ops (Graph mode and
gradients included). ``reduction`` is 'none' | 'mean' | 'sum' everywhere."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, float_like, full_like, ops, reduce_loss, tensor

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss",
           "cross_entropy", "ctc_loss", "gaussian_nll_loss", "hinge_embedding_loss",
           "huber_loss", "kl_div", "l1_loss", "margin_ranking_loss", "mse_loss",
           "multi_label_margin_loss", "multi_margin_loss", "multilabel_soft_margin_loss",
           "nll_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss"]


def _weighted(loss, weight):
    return loss if weight is None else loss * float_like(weight)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """-(y log p + (1 - y) log(1 - p)) for probabilities ``logits``; logs clamped at -100 as
    PyTorch does."""
    p, y = float_like(logits), float_like(labels)
    log_p = ops.maximum(ops.log(p), -100.0)
    log_q = ops.maximum(ops.log(1.0 - p), -100.0)
    loss = ops.neg(y * log_p + (1.0 - y) * log_q)
    return reduce_loss(_weighted(loss, weight), reduction, "ops.binary_cross_entropy")


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,  # noqa: A002
                                     reduction="mean"):
    """Sigmoid + binary cross-entropy in one stable step. Note: in MindSpore 2.3 ``weight``
    and ``pos_weight`` are optional (in 1.x they were required positional inputs)."""
    x, y = float_like(input), float_like(target)
    # (1 - y) x + (1 + (pw - 1) y) softplus(-x): the stable form, PyTorch's too
    sp = ops.softplus(ops.neg(x))
    if pos_weight is None:
        loss = (1.0 - y) * x + sp
    else:
        coef = (float_like(pos_weight) - 1.0) * y + 1.0
        loss = (1.0 - y) * x + coef * sp
    return reduce_loss(_weighted(loss, weight), reduction,
                       "ops.binary_cross_entropy_with_logits")


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  label_smoothing=0.0):
    """Softmax cross-entropy of logits ``input`` (N, C[, d...]); ``target`` holds class
    indices (N[, d...]) or class probabilities (the shape of ``input``)."""
    x = float_like(input)
    t = tensor(target)
    if t.dtype.kind == "f" and tuple(t.shape) == tuple(x.shape):
        logp = ops.log_softmax(x, axis=1)
        c = x.shape[1]
        if label_smoothing:
            t = t * (1.0 - label_smoothing) + label_smoothing / c
        per = logp * t
        if weight is not None:
            per = per * ops.reshape(float_like(weight), (1, c) + (1,) * (x.ndim - 2))
        return reduce_loss(ops.neg(ops.sum(per, axis=1)), reduction, "ops.cross_entropy")
    return ops.cross_entropy(x, ops.cast(t, np.int64), weight=None if weight is None
                             else float_like(weight), ignore_index=int(ignore_index),
                             reduction=reduction, label_smoothing=float(label_smoothing))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Negative log-likelihood of log-probabilities ``inputs`` (N, C[, d...])."""
    x = float_like(inputs)
    t = ops.cast(tensor(target), np.int64)
    w = None if weight is None else float_like(weight)
    if not label_smoothing:
        return ops.nll_loss(x, t, weight=w, ignore_index=int(ignore_index), reduction=reduction)
    c = x.shape[1]
    base = ops.nll_loss(x, t, weight=w, ignore_index=int(ignore_index), reduction="none")
    per = x if w is None else x * ops.reshape(w, (1, c) + (1,) * (x.ndim - 2))
    smooth = ops.neg(ops.sum(per, axis=1))
    keep = ops.cast(ops.not_equal(t, int(ignore_index)), x.dtype)
    loss = base * (1.0 - label_smoothing) + smooth * keep * (label_smoothing / c)
    if reduction == "mean":  # PyTorch's: divided by the weights of the counted targets
        if w is None:
            return ops.sum(loss) / ops.sum(keep)
        safe_t = ops.where(ops.equal(t, int(ignore_index)), ops.mul(t, 0), t)
        return ops.sum(loss) / ops.sum(keep * ops.gather(w, safe_t, 0))
    return reduce_loss(loss, reduction, "ops.nll_loss")


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    return reduce_loss(ops.abs(float_like(input) - float_like(target)), reduction, "ops.l1_loss")


def mse_loss(input, target, reduction="mean"):  # noqa: A002
    return reduce_loss(ops.square(float_like(input) - float_like(target)), reduction,
                       "ops.mse_loss")


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):  # noqa: A002
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere. Note: MindSpore's default
    reduction here is 'none' (PyTorch's is 'mean')."""
    d = ops.abs(float_like(input) - float_like(target))
    b = float(beta)
    loss = ops.where(d < b, ops.square(d) * (0.5 / b), d - 0.5 * b)
    return reduce_loss(loss, reduction, "ops.smooth_l1_loss")


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002
    """0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere."""
    d = ops.abs(float_like(input) - float_like(target))
    dl = float(delta)
    loss = ops.where(d < dl, ops.square(d) * 0.5, (d - 0.5 * dl) * dl)
    return reduce_loss(loss, reduction, "ops.huber_loss")


def kl_div(logits, labels, reduction="mean", log_target=False):
    """labels * (log(labels) - logits), ``logits`` being log-probabilities. 'batchmean'
    divides the sum by the batch size; 'mean' averages over every element."""
    x, y = float_like(logits), float_like(labels)
    if log_target:
        loss = ops.exp(y) * (y - x)
    else:
        safe = ops.where(y > 0, y, full_like(y, 1.0))
        loss = ops.where(y > 0, y * (ops.log(safe) - x), full_like(x, 0.0))
    if reduction == "batchmean":
        return ops.sum(loss) / float(x.shape[0])
    return reduce_loss(loss, reduction, "ops.kl_div")


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(x1, x2) for target 1, max(0, cos - margin) for target -1 (along axis 1)."""
    a, b, y = float_like(input1), float_like(input2), float_like(target)
    eps = 1e-12
    cos = ops.sum(a * b, axis=-1) / ops.sqrt(
        (ops.sum(a * a, axis=-1) + eps) * (ops.sum(b * b, axis=-1) + eps))
    loss = ops.where(y > 0, 1.0 - cos, ops.relu(cos - float(margin)))
    return reduce_loss(loss, reduction, "ops.cosine_embedding_loss")


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)) [+ 0.5 log(2 pi)]."""
    x, t, v = float_like(x), float_like(target), float_like(var)
    v = ops.maximum(v, float(eps))
    loss = (ops.log(v) + ops.square(x - t) / v) * 0.5
    if full:
        loss = loss + 0.5 * float(np.log(2 * np.pi))
    return reduce_loss(loss, reduction, "ops.gaussian_nll_loss")


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """x for target 1, max(0, margin - x) for target -1."""
    x, y = float_like(inputs), float_like(targets)
    loss = ops.where(y > 0, x, ops.relu(float(margin) - x))
    return reduce_loss(loss, reduction, "ops.hinge_embedding_loss")


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin)."""
    a, b, y = float_like(input1), float_like(input2), float_like(target)
    return reduce_loss(ops.relu(ops.neg(y) * (a - b) + float(margin)), reduction,
                       "ops.margin_ranking_loss")


def soft_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """log(1 + exp(-target * input))."""
    x, y = float_like(input), float_like(target)
    return reduce_loss(ops.softplus(ops.neg(y * x)), reduction, "ops.soft_margin_loss")


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):  # noqa: A002
    """Mean over classes of -(y log sigmoid(x) + (1 - y) log sigmoid(-x))."""
    x, y = float_like(input), float_like(target)
    loss = y * ops.softplus(ops.neg(x)) + (1.0 - y) * ops.softplus(x)
    loss = ops.mean(_weighted(loss, weight), axis=-1)
    return reduce_loss(loss, reduction, "ops.multilabel_soft_margin_loss")


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):  # noqa: A002
    """Sum over i != y of max(0, margin - x[y] + x[i])^p / C (multi-class hinge)."""
    if p not in (1, 2):
        raise SporelingError("p must be 1 or 2", op="ops.multi_margin_loss",
                             expected="1 or 2", got=p)
    x = float_like(input)
    t = ops.cast(tensor(target), np.int64)
    n, c = x.shape
    xy = ops.take_along_axis(x, ops.reshape(t, (n, 1)), 1)
    hinge = ops.relu(x - xy + float(margin))
    if p == 2:
        hinge = ops.square(hinge)
    if weight is not None:
        hinge = hinge * ops.reshape(ops.gather(float_like(weight), t, 0), (n, 1))
    not_y = ops.cast(ops.not_equal(ops.reshape(tensor(np.arange(c)), (1, c)),
                                   ops.reshape(t, (n, 1))), x.dtype)
    loss = ops.sum(hinge * not_y, axis=1) / float(c)
    return reduce_loss(loss, reduction, "ops.multi_margin_loss")


def multi_label_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """Sum over target classes j and non-target classes i of max(0, 1 - (x[j] - x[i])) / C;
    ``target`` lists class indices, ended by the first -1."""
    x = float_like(input)
    t = ops.cast(tensor(target), np.int64)
    squeeze = x.ndim == 1
    if squeeze:
        x, t = ops.reshape(x, (1, -1)), ops.reshape(t, (1, -1))
    n, c = x.shape
    # valid[j]: target slot j comes before the first -1
    neg = ops.cast(ops.less(t, 0), np.float64)
    valid = ops.cast(ops.equal(ops.cumsum(neg, axis=1), 0.0), x.dtype)
    safe_t = ops.where(ops.less(t, 0), ops.mul(t, 0), t)
    classes = ops.reshape(tensor(np.arange(c)), (1, 1, c))
    hit = ops.cast(ops.equal(ops.reshape(safe_t, (n, c, 1)), classes), x.dtype) * \
        ops.reshape(valid, (n, c, 1))                               # (n, slot, class)
    is_target = ops.minimum(ops.sum(hit, axis=1), 1.0)             # (n, class)
    x_slot = ops.take_along_axis(x, safe_t, 1)                      # (n, slot)
    margins = ops.relu(1.0 - (ops.reshape(x_slot, (n, c, 1)) - ops.reshape(x, (n, 1, c))))
    weight = ops.reshape(valid, (n, c, 1)) * ops.reshape(1.0 - is_target, (n, 1, c))
    loss = ops.sum(margins * weight, axis=(1, 2)) / float(c)
    if squeeze:
        loss = ops.reshape(loss, ())
    return reduce_loss(loss, reduction, "ops.multi_label_margin_loss")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0), d the p-norm distance along the last axis."""
    a, pos, neg = float_like(anchor), float_like(positive), float_like(negative)

    def dist(u, v):
        return ops.norm(u - v + float(eps), ord=p, axis=-1)
    d_ap, d_an = dist(a, pos), dist(a, neg)
    if swap:
        d_an = ops.minimum(d_an, dist(pos, neg))
    return reduce_loss(ops.relu(d_ap - d_an + float(margin)), reduction,
                       "ops.triplet_margin_loss")


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """Connectionist temporal classification: ``log_probs`` (T, N, C) log-softmax outputs,
    ``targets`` (N, S) padded labels. Returns ``(loss, log_alpha)`` as MindSpore does; 'mean'
    divides each loss by its target length, then averages. The forward recursion is unrolled
    over T steps of sx ops (differentiable, traceable); lengths must be concrete."""
    from ._ctc import ctc_forward
    return ctc_forward(log_probs, targets, input_lengths, target_lengths, int(blank),
                       reduction, bool(zero_infinity))
