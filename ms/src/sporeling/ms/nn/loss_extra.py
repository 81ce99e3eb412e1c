"""Loss cells of ``ms.nn`` (part 3): ``MAELoss`` and ``TripletMarginWithDistanceLoss``."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError
from sporeling.expression.nn import LossBase

from .loss import _same_shape

ops = sx.ops

__all__ = ["MAELoss", "TripletMarginWithDistanceLoss"]


def _pairwise_distance(u, v):
    """MindSpore's default distance: ``||u - v + 1e-6||_2`` over the last axis."""
    return ops.sqrt(ops.sum(ops.square(ops.add(ops.sub(u, v), 1e-6)), -1))


class MAELoss(LossBase):
    """Mean absolute error ``|logits - label|``, reduced by ``reduction``
    (``"mean"``, ``"sum"`` or ``"none"``)."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, label):
        _same_shape("MAELoss", logits, label, "logits and label")
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with a user ``distance_function(u, v)``
    (default: the pairwise distance ``||u - v + 1e-6||_2`` over the last axis); ``swap``
    uses ``min(d(a, n), d(p, n))``. ``construct(x, positive, negative)``."""

    def __init__(self, distance_function=None, swap=False, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        if distance_function is not None and not callable(distance_function):
            raise ArgumentError("distance_function must be callable",
                                op="TripletMarginWithDistanceLoss",
                                expected="a callable or None",
                                got=type(distance_function).__name__)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or margin < 0:
            raise ArgumentError("margin must be a number >= 0",
                                op="TripletMarginWithDistanceLoss", expected="margin >= 0",
                                got=margin)
        self.distance_function = distance_function or _pairwise_distance
        self.swap, self.margin = bool(swap), float(margin)

    def construct(self, x, positive, negative):
        d_pos = self.distance_function(x, positive)
        d_neg = self.distance_function(x, negative)
        if self.swap:
            d_neg = ops.minimum(d_neg, self.distance_function(positive, negative))
        return self.get_loss(ops.maximum(ops.add(ops.sub(d_pos, d_neg), self.margin), 0.0))
