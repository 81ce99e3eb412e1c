"""Loss cells of ``ms.nn`` (part 1: classification and regression losses).

``CrossEntropyLoss``, ``NLLLoss``, ``MSELoss``, ``L1Loss``, ``SmoothL1Loss``,
``BCEWithLogitsLoss`` and ``SoftmaxCrossEntropyWithLogits`` are sporeling.expression's. The
MindSpore defaults that differ from PyTorch: ``SmoothL1Loss`` and
``SoftmaxCrossEntropyWithLogits`` reduce with ``"none"``; ``KLDivLoss``'s ``"mean"`` is over
every element (use ``"batchmean"`` for the mathematical KL); ``FocalLoss`` sums over classes
and means over the rest.
"""
from __future__ import annotations

import math

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import (BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase,
                                     MSELoss, NLLLoss, SmoothL1Loss,
                                     SoftmaxCrossEntropyWithLogits)

ops = sx.ops

__all__ = ["LossBase", "BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss",
           "CrossEntropyLoss", "DiceLoss", "FocalLoss", "GaussianNLLLoss",
           "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss",
           "MultiClassDiceLoss", "NLLLoss", "PoissonNLLLoss", "RMSELoss", "SmoothL1Loss",
           "SoftMarginLoss", "SoftmaxCrossEntropyWithLogits"]


def _same_shape(owner, a, b, what="logits and labels"):
    if tuple(a.shape) != tuple(b.shape):
        raise ShapeError(f"{what} differ in shape", op=owner, expected=tuple(a.shape),
                         got=tuple(b.shape))


class BCELoss(LossBase):
    """Binary cross entropy of probabilities: ``-w (y log x + (1 - y) log(1 - x))`` (logs
    clamped at -100 as MindSpore and PyTorch do)."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        _same_shape("BCELoss", logits, labels)
        log_x = ops.maximum(ops.log(logits), -100.0)
        log_1mx = ops.maximum(ops.log(ops.sub(1.0, logits)), -100.0)
        loss = ops.neg(ops.add(ops.mul(labels, log_x), ops.mul(ops.sub(1.0, labels), log_1mx)))
        return self.get_loss(loss, 1.0 if self.weight is None else self.weight)


class CosineEmbeddingLoss(LossBase):
    """``1 - cos(x1, x2)`` where ``labels == 1``, ``max(0, cos - margin)`` where -1; the
    cosine is taken along axis 1."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"CosineEmbeddingLoss: margin must be in [-1, 1], got {margin}")
        self.margin = float(margin)

    def construct(self, logits_x1, logits_x2, labels):
        _same_shape("CosineEmbeddingLoss", logits_x1, logits_x2, "logits_x1 and logits_x2")
        dot = ops.sum(ops.mul(logits_x1, logits_x2), 1)
        n1 = ops.sum(ops.square(logits_x1), 1)
        n2 = ops.sum(ops.square(logits_x2), 1)
        cos = ops.div(dot, ops.sqrt(ops.add(ops.mul(n1, n2), 1e-8)))
        pos = ops.sub(1.0, cos)
        neg = ops.maximum(ops.sub(cos, self.margin), 0.0)
        loss = ops.where(ops.equal(labels, 1), pos, ops.where(ops.equal(labels, -1), neg,
                                                              ops.mul(cos, 0.0)))
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over the whole batch."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if smooth <= 0:
            raise ValueError(f"DiceLoss: smooth must be > 0, got {smooth}")
        self.smooth = float(smooth)

    def construct(self, logits, labels):
        _same_shape("DiceLoss", logits, labels)
        inter = ops.sum(ops.mul(logits, labels))
        union = ops.add(ops.sum(ops.mul(logits, logits)), ops.sum(ops.mul(labels, labels)))
        return ops.sub(1.0, ops.div(ops.mul(inter, 2.0), ops.add(union, self.smooth)))


class MultiClassDiceLoss(LossBase):
    """Mean over classes (axis 1) of ``DiceLoss``, after ``activation`` ("softmax",
    "sigmoid" or None) on the logits; ``weights`` (C,) per class, ``ignore_indiex`` (sic,
    MindSpore's spelling) skips one class."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        if activation not in ("softmax", "sigmoid", None):
            raise ValueError(f"MultiClassDiceLoss: activation must be 'softmax', 'sigmoid' or "
                             f"None, got {activation!r}")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation
        self.binary = DiceLoss()

    def construct(self, logits, labels):
        _same_shape("MultiClassDiceLoss", logits, labels)
        if self.activation == "softmax":
            logits = ops.softmax(logits, 1)
        elif self.activation == "sigmoid":
            logits = ops.sigmoid(logits)
        classes = labels.shape[1]
        total = None
        for i in range(classes):
            if i == self.ignore_indiex:
                continue
            loss = self.binary(ops.getitem(logits, (slice(None), i)),
                               ops.getitem(labels, (slice(None), i)))
            if self.weights is not None:
                loss = ops.mul(loss, ops.getitem(self.weights, i))
            total = loss if total is None else ops.add(total, loss)
        return ops.div(total, float(classes))


class FocalLoss(LossBase):
    """Focal loss over logits (N, C, ...) and class indices (N, ...) or (N, 1, ...):
    ``-(1 - p)^gamma log p`` of the true class (times ``weight[class]``), summed over classes,
    then reduced over the rest."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.gamma = weight, float(gamma)

    def construct(self, logits, labels):
        if len(logits.shape) < 2:
            raise ShapeError("logits need a class axis", op="FocalLoss", expected="(N, C, ...)",
                             got=tuple(logits.shape))
        classes = logits.shape[1]
        if len(labels.shape) == len(logits.shape):
            labels = ops.squeeze(labels, 1)
        onehot = ops.one_hot(ops.cast(labels, "int64"), classes, logits.dtype)  # (N, ..., C)
        onehot = ops.transpose(onehot, (0, len(onehot.shape) - 1) +
                               tuple(range(1, len(onehot.shape) - 1)))
        log_p = ops.log_softmax(logits, 1)
        focal = ops.pow(ops.sub(1.0, ops.exp(log_p)), self.gamma)
        loss = ops.neg(ops.mul(ops.mul(focal, log_p), onehot))
        if self.weight is not None:
            loss = ops.mul(loss, ops.reshape(self.weight, (1, classes) +
                                             (1,) * (len(logits.shape) - 2)))
        return self.get_loss(ops.sum(loss, 1))


class GaussianNLLLoss(LossBase):
    """``0.5 (log(max(var, eps)) + (x - y)^2 / max(var, eps))`` (+ ``0.5 log(2 pi)`` with
    ``full``)."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction)
        if eps <= 0:
            raise ValueError(f"GaussianNLLLoss: eps must be > 0, got {eps}")
        self.full, self.eps = bool(full), float(eps)

    def construct(self, logits, labels, var):
        var = ops.maximum(var, self.eps)
        loss = ops.mul(ops.add(ops.log(var), ops.div(ops.square(ops.sub(logits, labels)), var)),
                       0.5)
        if self.full:
            loss = ops.add(loss, 0.5 * math.log(2 * math.pi))
        return self.get_loss(loss)


class HingeEmbeddingLoss(LossBase):
    """``x`` where ``labels == 1``, ``max(0, margin - x)`` where -1."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = float(margin)

    def construct(self, logits, labels):
        neg = ops.maximum(ops.sub(self.margin, logits), 0.0)
        loss = ops.add(ops.where(ops.equal(labels, 1), logits, ops.mul(logits, 0.0)),
                       ops.where(ops.equal(labels, -1), neg, ops.mul(logits, 0.0)))
        return self.get_loss(loss)


class HuberLoss(LossBase):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        if delta <= 0:
            raise ValueError(f"HuberLoss: delta must be > 0, got {delta}")
        self.delta = float(delta)

    def construct(self, logits, labels):
        d = ops.abs(ops.sub(logits, labels))
        quad = ops.mul(ops.square(d), 0.5)
        lin = ops.mul(ops.sub(d, 0.5 * self.delta), self.delta)
        return self.get_loss(ops.where(ops.less(d, self.delta), quad, lin))


class KLDivLoss(LossBase):
    """``target * (log target - input)`` (``input`` holds log-probabilities); with
    ``log_target`` the target is a log-probability too. Reductions: "mean" (every element),
    "batchmean", "sum", "none"."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__("sum" if reduction == "batchmean" else reduction)
        self.batchmean, self.log_target = reduction == "batchmean", bool(log_target)

    def construct(self, logits, labels):
        if self.log_target:
            loss = ops.mul(ops.exp(labels), ops.sub(labels, logits))
        else:
            safe = ops.where(ops.greater(labels, 0.0), labels, ops.add(ops.mul(labels, 0.0), 1.0))
            loss = ops.where(ops.greater(labels, 0.0),
                             ops.mul(labels, ops.sub(ops.log(safe), logits)),
                             ops.mul(labels, 0.0))
        out = self.get_loss(loss)
        return ops.div(out, float(logits.shape[0])) if self.batchmean else out


class PoissonNLLLoss(LossBase):
    """``exp(x) - y x`` (``log_input``) or ``x - y log(x + eps)``; ``full`` adds Stirling's
    ``y log y - y + 0.5 log(2 pi y)`` where ``y > 1``."""

    def __init__(self, log_input=True, full=False, eps=1e-8, reduction="mean"):
        super().__init__(reduction)
        self.log_input, self.full, self.eps = bool(log_input), bool(full), float(eps)

    def construct(self, input, target):
        if self.log_input:
            loss = ops.sub(ops.exp(input), ops.mul(target, input))
        else:
            loss = ops.sub(input, ops.mul(target, ops.log(ops.add(input, self.eps))))
        if self.full:
            safe = ops.maximum(target, 1.0)
            stirling = ops.add(ops.sub(ops.mul(safe, ops.log(safe)), safe),
                               ops.mul(ops.log(ops.mul(safe, 2 * math.pi)), 0.5))
            loss = ops.add(loss, ops.where(ops.greater(target, 1.0), stirling,
                                           ops.mul(target, 0.0)))
        return self.get_loss(loss)


class RMSELoss(LossBase):
    """``sqrt(mean((x - y)^2))``."""

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        return ops.sqrt(ops.mean(ops.square(ops.sub(logits, label))))


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-y x))``."""

    def construct(self, logits, labels):
        _same_shape("SoftMarginLoss", logits, labels)
        return self.get_loss(ops.softplus(ops.neg(ops.mul(labels, logits))))
