"""Losses, composed of primitives (their gradients come from the parts, at every order).

Every loss takes ``reduction="mean" | "sum" | "none"`` as in PyTorch and MindSpore.
Cross entropy is ``log_softmax`` then a one-hot pick along the class axis (axis 1, or 0
for an unbatched (C,) input) -- or, for integer targets without class weights or label
smoothing, the fused ``softmax_cross_entropy`` primitive (two kernels instead of about
ten); ``binary_cross_entropy_with_logits`` uses ``max(-x, 0) + log(1 + exp(-|x|))`` for
``log(1 + exp(-x))``: both are finite for logits of any size.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError, SporelingError

from .._util import as_operand, check_float, float_operand
from ..comparison import equal, greater
from ..dtype import cast
from ..elementwise import add, div, exp, log, maximum, mul, neg, sub
from ..reduction import sum
from ..shape import reshape
from .softmax import log_softmax
from .softmax_cross_entropy import softmax_cross_entropy

__all__ = ["cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss",
           "binary_cross_entropy_with_logits"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(op, reduction):
    if reduction not in _REDUCTIONS:
        raise SporelingError("bad reduction", op=op, expected=' or '.join(map(repr, _REDUCTIONS)),
                             got=repr(reduction))


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    total = sum(loss)
    return total if reduction == "sum" else mul(total, 1.0 / max(int(np.prod(loss.shape)), 1))


def _pair(op, input, target):
    x = float_operand(input)
    t = cast(as_operand(target), x.dtype)
    return x, t


def _abs(d):
    return maximum(d, neg(d))


def _along_classes(v, ndim, axis):
    """A (C,) vector shaped to broadcast along the class axis of an ``ndim``-d input."""
    return reshape(v, (-1,) + (1,) * (ndim - axis - 1))


def _class_axis(op, x):
    if len(x.shape) == 0:
        raise ShapeError("input needs a class axis", op=op, expected="(C,) or (N, C, ...)",
                         got=())
    return 1 if len(x.shape) > 1 else 0


def _check_targets(op, x, target, ignore_index, values=True):
    """Integer class ``target`` shaped as ``x`` without its class axis, classes in range
    (with ``values``, when the values are at hand); returns the class axis."""
    axis = _class_axis(op, x)
    classes = x.shape[axis]
    want = tuple(x.shape[:axis]) + tuple(x.shape[axis + 1:])
    if tuple(target.shape) != want:
        raise ShapeError("target shape does not match the input", op=op,
                         expected=f"{want} (the input {tuple(x.shape)} without axis {axis})",
                         got=tuple(target.shape))
    if values and isinstance(target, np.ndarray) and target.size:
        bad = (target != ignore_index) & ((target < 0) | (target >= classes))
        if bad.any():
            raise ShapeError("target class out of range", op=op,
                             expected=f"class indices in [0, {classes}) or {ignore_index}",
                             got=int(target[bad].ravel()[0]))
    return axis


def _nll_parts(op, logp, target, weight, ignore_index):
    """Per-element ``-logp[target] * w[target]`` and the weights ``w[target]`` (0 where
    ignored), for integer class targets."""
    axis = _check_targets(op, logp, target, ignore_index)
    classes = logp.shape[axis]
    expanded = reshape(target, tuple(logp.shape[:axis]) + (1,) + tuple(logp.shape[axis + 1:]))
    ids = np.arange(classes, dtype=target.dtype).reshape((classes,) + (1,) *
                                                         (len(logp.shape) - axis - 1))
    valid = sub(1.0, cast(equal(target, np.asarray(ignore_index, target.dtype)), logp.dtype))
    onehot = cast(equal(expanded, ids), logp.dtype)
    if weight is not None:
        onehot = mul(onehot, _along_classes(weight, len(logp.shape), axis))
    w_t = mul(sum(onehot, axis), valid)
    picked = mul(sum(mul(logp, onehot), axis), valid)
    return neg(picked), w_t, axis


def _weighted_mean(loss_sum, w_sum):
    return div(loss_sum, w_sum)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of integer class ``target`` under log-probabilities
    ``input`` (N, C, ...); ``"mean"`` divides by the summed weights of the counted targets.

        >>> import numpy as np
        >>> logp = np.log(np.array([[0.5, 0.5], [0.25, 0.75]]))
        >>> float(nll_loss(logp, np.array([0, 1]))) == float(-(logp[0, 0] + logp[1, 1]) / 2)
        True
    """
    _check_reduction("nll_loss", reduction)
    logp, weight = _float_and_weight(input, weight)
    target = _int_target("nll_loss", target)
    loss, w_t, _ = _nll_parts("nll_loss", logp, target, weight, ignore_index)
    if reduction == "mean":
        return _weighted_mean(sum(loss), sum(w_t))
    return _reduce(loss, reduction)


def _float_and_weight(input, weight):
    x = float_operand(input)
    return x, (None if weight is None else cast(as_operand(weight), x.dtype))


def _int_target(op, target):
    target = as_operand(target)
    if np.dtype(target.dtype).kind not in "iu":
        raise DTypeError("class-index target must be integers", op=op,
                         expected="an integer dtype", got=np.dtype(target.dtype))
    return target


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Cross entropy of logits ``input`` (N, C, ...) against integer class ``target``
    (N, ...) or class probabilities (same shape as ``input``), as ``torch.nn.functional.
    cross_entropy``: optional class ``weight`` (C,), ``ignore_index`` (class targets), and
    ``label_smoothing`` mixing the target with the uniform distribution.

        >>> import numpy as np
        >>> cross_entropy(np.array([[1e4, -1e4], [0.0, 0.0]], np.float32), np.array([0, 1]))
        array(0.3465736, dtype=float32)
    """
    _check_reduction("cross_entropy", reduction)
    label_smoothing = check_float(label_smoothing, "label_smoothing", op="cross_entropy",
                                  min=0.0, max=1.0)
    x, weight = _float_and_weight(input, weight)
    axis = _class_axis("cross_entropy", x)
    target = as_operand(target)
    if weight is None and label_smoothing == 0.0 and np.dtype(target.dtype).kind in "iu":
        # the common case, fused; its kernel checks the classes are in range
        _check_targets("cross_entropy", x, target, ignore_index, values=False)
        return softmax_cross_entropy(x, target, reduction=reduction, ignore_index=ignore_index)
    logp = log_softmax(x, axis)
    classes = x.shape[axis]
    if np.dtype(target.dtype).kind == "f":
        return _soft_cross_entropy(logp, cast(target, x.dtype), weight, reduction,
                                   label_smoothing, axis)
    target = _int_target("cross_entropy", target)
    loss, w_t, _ = _nll_parts("cross_entropy", logp, target, weight, ignore_index)
    if label_smoothing == 0.0:
        return _weighted_mean(sum(loss), sum(w_t)) if reduction == "mean" else \
            _reduce(loss, reduction)
    valid = sub(1.0, cast(equal(target, np.asarray(ignore_index, target.dtype)), x.dtype))
    weighted = logp if weight is None else mul(logp, _along_classes(weight, len(x.shape), axis))
    smooth = mul(neg(sum(weighted, axis)), valid)
    if reduction == "mean":
        w_sum = sum(w_t)
        nll, smooth = _weighted_mean(sum(loss), w_sum), _weighted_mean(sum(smooth), w_sum)
    else:
        nll, smooth = _reduce(loss, reduction), _reduce(smooth, reduction)
    return add(mul(nll, 1.0 - label_smoothing), mul(smooth, label_smoothing / classes))


def _soft_cross_entropy(logp, target, weight, reduction, label_smoothing, axis):
    if tuple(target.shape) != tuple(logp.shape):
        raise ShapeError("probability target must have the input's shape", op="cross_entropy",
                         expected=tuple(logp.shape), got=tuple(target.shape))
    classes = logp.shape[axis]
    if label_smoothing:
        target = add(mul(target, 1.0 - label_smoothing), label_smoothing / classes)
    prod = mul(logp, target)
    if weight is not None:
        prod = mul(prod, _along_classes(weight, len(logp.shape), axis))
    loss = neg(sum(prod, axis))
    return _reduce(loss, reduction)


def mse_loss(input, target, reduction="mean"):
    """``(input - target) ** 2``, reduced.

        >>> import numpy as np
        >>> mse_loss(np.array([1.0, 2.0], np.float32), np.array([0.0, 0.0], np.float32))
        array(2.5, dtype=float32)
    """
    _check_reduction("mse_loss", reduction)
    d = sub(*_pair("mse_loss", input, target))
    return _reduce(mul(d, d), reduction)


def l1_loss(input, target, reduction="mean"):
    """``|input - target|``, reduced."""
    _check_reduction("l1_loss", reduction)
    return _reduce(_abs(sub(*_pair("l1_loss", input, target))), reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """Huber-like: ``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``
    (``beta=0`` is the L1 loss), as in PyTorch.

        >>> import numpy as np
        >>> smooth_l1_loss(np.array([0.5, 3.0], np.float32), np.zeros(2, np.float32),
        ...                reduction="none")
        array([0.125, 2.5  ], dtype=float32)
    """
    _check_reduction("smooth_l1_loss", reduction)
    beta = check_float(beta, "beta", op="smooth_l1_loss", min=0.0)
    d = sub(*_pair("smooth_l1_loss", input, target))
    ad = _abs(d)
    if beta == 0:
        return _reduce(ad, reduction)
    small = cast(greater(np.asarray(beta, ad.dtype), ad), ad.dtype)
    quadratic = mul(mul(d, d), 0.5 / beta)
    linear = sub(ad, 0.5 * beta)
    return _reduce(add(mul(small, quadratic), mul(sub(1.0, small), linear)), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None):
    """``-[p t log s(x) + (1 - t) log(1 - s(x))]`` with ``s`` the sigmoid and ``p`` the
    ``pos_weight`` (broadcast along the last axis), computed stably from the logits.

        >>> import numpy as np
        >>> binary_cross_entropy_with_logits(np.array([1e4, -1e4], np.float32),
        ...                                  np.array([1.0, 0.0], np.float32))
        array(0., dtype=float32)
    """
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    x, t = _pair("binary_cross_entropy_with_logits", input, target)
    softplus_neg = add(maximum(neg(x), 0.0), log(add(exp(neg(_abs(x))), 1.0)))
    if pos_weight is not None:
        pw = cast(as_operand(pos_weight), x.dtype)
        softplus_neg = mul(add(mul(sub(pw, 1.0), t), 1.0), softplus_neg)
    loss = add(mul(sub(1.0, t), x), softplus_neg)
    if weight is not None:
        loss = mul(loss, cast(as_operand(weight), x.dtype))
    return _reduce(loss, reduction)
