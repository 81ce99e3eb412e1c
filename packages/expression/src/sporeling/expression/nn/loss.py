"""Losses as Cells (MindSpore's ``nn`` losses), over the functional losses of
``sporeling.compiler.ops``. ``construct(logits, labels)``.

Every loss takes ``reduction`` ``"mean"``, ``"sum"`` or ``"none"``. Defaults that differ
from PyTorch: ``SmoothL1Loss`` reduces ``"none"`` (MindSpore's default) and
``SoftmaxCrossEntropyWithLogits`` (MindSpore-only) takes one-hot labels unless
``sparse=True`` and reduces ``"none"``.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> logits = np.array([[2.0, 0.0], [0.0, 2.0]], np.float32)
    >>> float(nn.CrossEntropyLoss()(logits, np.array([0, 1]))).__round__(4)
    0.1269
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import SporelingError

from .cell import Cell

__all__ = ["LossBase", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
           "BCEWithLogitsLoss", "SoftmaxCrossEntropyWithLogits"]

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base of the losses: holds ``reduction`` and offers ``get_loss(x, weights=1.0)``
    (weight the elementwise loss, then reduce), as MindSpore's ``LossBase``."""

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise SporelingError("bad reduction", op=type(self).__name__,
                                 expected="'mean', 'sum' or 'none'", got=repr(reduction))
        self.reduction = reduction

    def get_loss(self, x, weights=1.0):
        """``x * weights`` reduced by ``self.reduction``."""
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = ops.mul(x, weights)
        if self.reduction == "mean":
            return ops.mean(x)
        if self.reduction == "sum":
            return ops.sum(x)
        return x

    def extend_repr(self) -> str:
        return f"reduction={self.reduction}"


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits (N, C, ...) against class indices (N, ...) or class
    probabilities (the logits' shape); ``weight`` (C,) per class, ``ignore_index`` for
    class targets, ``label_smoothing`` mixes in the uniform distribution. ``"mean"``
    divides by the summed weights of the counted targets (PyTorch's rule)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, int(ignore_index)
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits, labels):
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index,
                                 self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of class indices under log-probabilities (N, C, ...)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, int(ignore_index)

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class MSELoss(LossBase):
    """``(logits - labels) ** 2``, reduced."""

    def construct(self, logits, labels):
        return ops.mse_loss(logits, labels, self.reduction)


class L1Loss(LossBase):
    """``|logits - labels|``, reduced."""

    def construct(self, logits, labels):
        return ops.l1_loss(logits, labels, self.reduction)


class SmoothL1Loss(LossBase):
    """``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``; MindSpore's default
    reduction is ``"none"`` (PyTorch's ``"mean"``)."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if beta < 0:
            raise SporelingError("bad beta", op="SmoothL1Loss", expected="beta >= 0", got=beta)
        self.beta = float(beta)

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.reduction, self.beta)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy from logits (stable); ``weight`` rescales each element,
    ``pos_weight`` the positive term (broadcast along the last axis)."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight,
                                                    self.reduction, self.pos_weight)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """MindSpore's softmax cross entropy over the last axis of logits (N, C): labels are
    one-hot/probabilities (N, C), or class indices (N,) with ``sparse=True``. The default
    reduction is ``"none"`` (one loss per sample)."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = bool(sparse)

    def construct(self, logits, labels):
        if len(logits.shape) != 2:
            from sporeling.core import ShapeError
            raise ShapeError("logits must be 2-d", op="SoftmaxCrossEntropyWithLogits",
                             expected="(N, C)", got=tuple(logits.shape))
        if self.sparse:
            labels = ops.one_hot(labels, logits.shape[-1], logits.dtype)
        loss = ops.neg(ops.sum(ops.mul(ops.log_softmax(logits, -1),
                                       ops.cast(labels, logits.dtype)), -1))
        return self.get_loss(loss)

    def extend_repr(self) -> str:
        return f"sparse={self.sparse}, reduction={self.reduction}"
