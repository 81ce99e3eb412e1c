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
from ...core.sharding import OpDims, labels as dim_labels, shape_of
from .._batching import at_front, batch_size, fold, logical_shape, reshape

__all__ = ["softmax_cross_entropy"]

softmax_cross_entropy_p = Primitive("softmax_cross_entropy", amp="black")  # a loss
softmax_cross_entropy_grad_p = Primitive("softmax_cross_entropy_grad", amp="black")


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


# ---- vmap: the examples' targets fold into N, reduced per example ---------------------------

def _fold_targets(logits, labels, dims, size):
    """(B, N, C, ...) logits and (B, N, ...) labels as (B * N, C, ...) and (B * N, ...);
    per-example (C,) logits with 0-d labels are (B, C) and (B,) already."""
    logits, labels = at_front(logits, dims[0], size), at_front(labels, dims[1], size)
    if len(logits.shape) > 2:
        logits, labels = fold(logits), fold(labels)
    return logits, labels


def _valid(labels, dtype, ignore_index):
    from ..comparison import not_equal
    from ..dtype import cast
    return cast(not_equal(labels, np.asarray(ignore_index, labels.dtype)), dtype)


def _per_example_sum(x, size):
    """(B * N, ...) -> (B,): each example's total."""
    from ..reduction import sum
    return sum(reshape(x, (size, -1)), 1)


@softmax_cross_entropy_p.def_batching
def _softmax_cross_entropy_batching(args, dims, *, reduction, ignore_index):
    from ..elementwise import div
    size = batch_size(args, dims)
    per_example_shape = logical_shape(args[1], dims[1])
    logits, labels = _fold_targets(*args, dims, size)
    losses = bind(softmax_cross_entropy_p, logits, labels, reduction="none",
                  ignore_index=ignore_index)
    if reduction == "none":
        return reshape(losses, (size,) + tuple(per_example_shape)), 0
    total = _per_example_sum(losses, size)
    if reduction == "sum":
        return total, 0
    return div(total, _per_example_sum(_valid(labels, losses.dtype, ignore_index), size)), 0


@softmax_cross_entropy_grad_p.def_batching
def _softmax_cross_entropy_grad_batching(args, dims, *, reduction, ignore_index):
    # every reduction becomes "none" with a per-target cotangent: the example's ct (/ its
    # count of counted targets for "mean"), broadcast over its targets
    from ..elementwise import div
    from ..shape import broadcast_to_p
    size = batch_size(args, dims)
    per_example_shape = logical_shape(args[0], dims[0])
    logits, labels = _fold_targets(args[0], args[1], dims[:2], size)
    ct = at_front(args[2], dims[2], size)
    if reduction == "mean":
        ct = div(ct, _per_example_sum(_valid(labels, logits.dtype, ignore_index), size))
    if reduction != "none":
        per_example = int(np.prod(labels.shape)) // size
        ct = bind(broadcast_to_p, reshape(ct, (size, 1)), shape=(size, per_example))
    ct = reshape(ct, tuple(labels.shape))
    grads = bind(softmax_cross_entropy_grad_p, logits, labels, ct, reduction="none",
                 ignore_index=ignore_index)
    return reshape(grads, (size,) + tuple(per_example_shape)), 0


@softmax_cross_entropy_p.def_sharding_rule
def _softmax_cross_entropy_sharding(eq):
    """Classes stay whole; the batch splits for ``reduction="sum"`` (partial sums) and
    ``"none"``. A ``"mean"`` divides by the count of labels not ignored, which no rank knows
    alone, so its batch stays whole too."""
    logits, labels_shape = shape_of(eq.inputs[0]), shape_of(eq.inputs[1])
    batch = dim_labels(len(logits) - 1, "n")
    x = batch + ("c",)
    y = x if len(labels_shape) == len(logits) else batch
    reduction = eq.params.get("reduction", "mean")
    if reduction == "none":
        return OpDims([x, y], [batch], {"c"})
    fixed = {"c"} | (set(batch) if reduction != "sum" else set())
    return OpDims([x, y], [()], fixed, {lab: "sum" for lab in batch})
