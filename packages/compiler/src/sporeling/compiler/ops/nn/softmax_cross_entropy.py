"""softmax_cross_entropy: cross entropy of logits against class indices as one primitive.

``cross_entropy`` composed of log_softmax, a one-hot pick and a mean runs about ten small
kernels forward and backward; the common case (integer targets, no class weight, no label
smoothing) needs two: the loss, whose kernel takes one stable log-softmax, and its
gradient ``softmax_cross_entropy_grad(logits, labels, ct)`` = ``(softmax - onehot) * ct``
(``/ n`` for ``"mean"``, 0 on ignored targets). That gradient's own backward is written
with ops, so the pair differentiates to any order.

The class axis is 1 (``(N, C, ...)`` logits, ``(N, ...)`` labels), or 0 for ``(C,)``
logits with a 0-d label; ``"mean"`` divides by the number of targets not equal to
``ignore_index`` (NaN when there are none, as in PyTorch).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError

from ...core import Aval, Primitive, bind, def_backward

__all__ = ["softmax_cross_entropy"]

softmax_cross_entropy_p = Primitive("softmax_cross_entropy")
softmax_cross_entropy_grad_p = Primitive("softmax_cross_entropy_grad")


def _check(op, logits, labels):
    """The class axis of ``logits``, after checking the labels fit them."""
    if len(logits.shape) == 0:
        raise ShapeError("logits need a class axis", op=op, expected="(C,) or (N, C, ...)",
                         got=())
    if np.dtype(labels.dtype).kind not in "iu":
        raise DTypeError("labels must be class indices", op=op, expected="an integer dtype",
                         got=np.dtype(labels.dtype))
    axis = 1 if len(logits.shape) > 1 else 0
    want = tuple(logits.shape[:axis]) + tuple(logits.shape[axis + 1:])
    if tuple(labels.shape) != want:
        raise ShapeError("labels shape does not match the logits", op=op,
                         expected=f"{want} (logits {tuple(logits.shape)} without axis {axis})",
                         got=tuple(labels.shape))
    return axis


@softmax_cross_entropy_p.def_abstract_eval
def _loss_aval(logits, labels, *, reduction, ignore_index):
    _check("softmax_cross_entropy", logits, labels)
    shape = tuple(labels.shape) if reduction == "none" else ()
    return Aval(shape, logits.dtype)


@softmax_cross_entropy_grad_p.def_abstract_eval
def _grad_aval(logits, labels, ct, *, reduction, ignore_index):
    _check("softmax_cross_entropy_grad", logits, labels)
    want = tuple(labels.shape) if reduction == "none" else ()
    if tuple(ct.shape) != want:
        raise ShapeError("cotangent shape does not match the loss",
                         op="softmax_cross_entropy_grad", expected=want, got=tuple(ct.shape))
    return Aval(tuple(logits.shape), logits.dtype)


@def_backward(softmax_cross_entropy_p, uses=(0, 1))
def _loss_bwd(ct, logits, labels, *, out, reduction, ignore_index):
    return bind(softmax_cross_entropy_grad_p, logits, labels, ct, reduction=reduction,
                ignore_index=ignore_index), None


def _per_target_scale(labels, ct, dtype, reduction, ignore_index):
    """What each target's ``softmax - onehot`` is multiplied by: ``ct`` (``/ n`` for mean),
    0 where the label is ignored; labels-shaped."""
    from ..comparison import not_equal
    from ..dtype import cast
    from ..elementwise import div, mul
    from ..reduction import sum
    valid = cast(not_equal(labels, np.asarray(ignore_index, labels.dtype)), dtype)
    if reduction == "mean":
        ct = div(ct, sum(valid))
    return mul(valid, ct)


@def_backward(softmax_cross_entropy_grad_p, uses=(0, 1, 2))
def _grad_bwd(g_ct, logits, labels, ct, *, out, reduction, ignore_index):
    # out = s * (softmax(x) - onehot) with s the per-target scale (broadcast along classes):
    # d/dx is softmax's backward of g_ct * s; d/dct reuses the primitive with ct = 1
    from ..elementwise import mul, sub
    from ..nn.softmax import softmax
    from ..reduction import sum
    from ..shape import reshape
    axis = 1 if len(logits.shape) > 1 else 0
    scale = _per_target_scale(labels, ct, logits.dtype, reduction, ignore_index)
    along = tuple(labels.shape[:axis]) + (1,) + tuple(labels.shape[axis:])
    p = softmax(logits, axis)
    gs = mul(g_ct, reshape(scale, along))
    d_logits = mul(p, sub(gs, sum(mul(gs, p), axis, keepdims=True)))
    ones = np.ones(tuple(ct.shape), logits.dtype)
    unit = bind(softmax_cross_entropy_grad_p, logits, labels, ones, reduction=reduction,
                ignore_index=ignore_index)
    prod = mul(g_ct, unit)
    d_ct = sum(prod, axis) if reduction == "none" else sum(prod)
    return d_logits, None, d_ct


def softmax_cross_entropy(logits, labels, *, reduction="mean", ignore_index=-100):
    """Cross entropy of float ``logits`` (N, C, ...) or (C,) against integer class
    ``labels`` (N, ...) or (), reduced by ``"mean"`` (over the labels that are not
    ``ignore_index``), ``"sum"`` or ``"none"``. Operands must already share the logits'
    float dtype and be checked (``cross_entropy`` is the public entry point).

        >>> import numpy as np
        >>> softmax_cross_entropy(np.array([[0.0, 0.0], [1e4, 0.0]], np.float32),
        ...                       np.array([1, 0]))
        array(0.3465736, dtype=float32)
    """
    return bind(softmax_cross_entropy_p, logits, labels, reduction=reduction,
                ignore_index=int(ignore_index))
