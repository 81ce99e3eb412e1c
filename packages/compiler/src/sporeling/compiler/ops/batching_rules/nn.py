"""Batching rules of the NCHW primitives (convolutions, pooling) and dropout.

A batch of NCHW values folds into N when the weights are shared; batched convolution
weights become groups of a single convolution (example ``b``'s channels form group ``b``).
"""
from __future__ import annotations

import numpy as np

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ._util import at_front, batch_size, logical_shape, reshape, to_front

_P = defined_primitives()


def _fold(x):
    """(B, N, ...) -> (B * N, ...)."""
    return reshape(x, (x.shape[0] * x.shape[1],) + tuple(x.shape[2:]))


def _unfold(y, size):
    return reshape(y, (size, y.shape[0] // size) + tuple(y.shape[1:]))


def _folding_rule(prim):
    """Every operand's batch joins its N axis (the examples are independent samples)."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        out = bind(prim, *[_fold(at_front(a, d, size)) for a, d in zip(args, dims)], **params)
        if prim.multiple_results:
            return tuple(_unfold(o, size) for o in out), (0,) * len(out)
        return _unfold(out, size), 0
    return rule


for _name in ("max_pool2d", "max_pool2d_scatter", "max_pool2d_gather", "avg_pool2d",
              "avg_pool2d_transpose"):
    def_batching(_P[_name])(_folding_rule(_P[_name]))


def _channels_as_groups(x, size):
    """(B, N, C, H, W) -> (N, B * C, H, W)."""
    x = bind(_P["transpose"], x, axes=(1, 0, 2, 3, 4))
    return reshape(x, (x.shape[0], size * x.shape[2]) + tuple(x.shape[3:]))


def _groups_as_batch(y, size):
    """(N, B * O, H, W) -> batch axis 1 of (N, B, O, H, W)."""
    return reshape(y, (y.shape[0], size, y.shape[1] // size) + tuple(y.shape[2:])), 1


def _grouped_conv_rule(prim):
    """conv2d / conv_transpose2d: fold into N for shared weights, else group by example."""
    def rule(args, dims, *, groups, **params):
        (x, w), (dx, dw) = args, dims
        size = batch_size(args, dims)
        if dw is None:
            return _unfold(bind(prim, _fold(to_front(x, dx)), w, groups=groups, **params),
                           size), 0
        x = _channels_as_groups(at_front(x, dx, size), size)
        w = _fold(to_front(w, dw))
        return _groups_as_batch(bind(prim, x, w, groups=groups * size, **params), size)
    return rule


for _name in ("conv2d", "conv_transpose2d"):
    def_batching(_P[_name])(_grouped_conv_rule(_P[_name]))


@def_batching(_P["conv2d_weight_grad"])
def _weight_grad_rule(args, dims, *, groups, **params):
    # per example, a weight gradient: the examples' channels as groups of one convolution
    size = batch_size(args, dims)
    x, g = (_channels_as_groups(at_front(a, d, size), size) for a, d in zip(args, dims))
    out = bind(_P["conv2d_weight_grad"], x, g, groups=groups * size, **params)
    return _unfold(out, size), 0


@def_batching(_P["dropout"])
def _dropout_rule(args, dims, *, p):
    # The mask is a function of the seed and the example's shape, so every example gets
    # the mask it would get alone (as in a loop with that seed). It has to: the backward,
    # dropout of the cotangent, may meet an unbatched cotangent and must apply the same mask.
    from ..elementwise import mul
    from .random import refuse_batched_seed
    (x, seed), (d, ds) = args, dims
    if ds is not None:
        refuse_batched_seed("dropout")
    mask = bind(_P["dropout"], np.ones(logical_shape(x, d), x.dtype), seed, p=p)
    return mul(to_front(x, d), mask), 0


# ---- softmax cross entropy: the examples' targets fold into N, reduced per example ----

def _fold_targets(logits, labels, dims, size):
    """(B, N, C, ...) logits and (B, N, ...) labels as (B * N, C, ...) and (B * N, ...);
    per-example (C,) logits with 0-d labels are (B, C) and (B,) already."""
    logits, labels = at_front(logits, dims[0], size), at_front(labels, dims[1], size)
    if len(logits.shape) > 2:
        logits, labels = _fold(logits), _fold(labels)
    return logits, labels


def _valid(labels, dtype, ignore_index):
    from ..comparison import not_equal
    from ..dtype import cast
    return cast(not_equal(labels, np.asarray(ignore_index, labels.dtype)), dtype)


def _per_example_sum(x, size):
    """(B * N, ...) -> (B,): each example's total."""
    from ..reduction import sum
    x = reshape(x, (size, -1))
    return sum(x, 1)


@def_batching(_P["softmax_cross_entropy"])
def _softmax_cross_entropy_rule(args, dims, *, reduction, ignore_index):
    from ..elementwise import div
    size = batch_size(args, dims)
    per_example_shape = logical_shape(args[1], dims[1])
    logits, labels = _fold_targets(*args, dims, size)
    losses = bind(_P["softmax_cross_entropy"], logits, labels, reduction="none",
                  ignore_index=ignore_index)
    if reduction == "none":
        return reshape(losses, (size,) + tuple(per_example_shape)), 0
    total = _per_example_sum(losses, size)
    if reduction == "sum":
        return total, 0
    return div(total, _per_example_sum(_valid(labels, losses.dtype, ignore_index), size)), 0


@def_batching(_P["softmax_cross_entropy_grad"])
def _softmax_cross_entropy_grad_rule(args, dims, *, reduction, ignore_index):
    # every reduction becomes "none" with a per-target cotangent: the example's ct (/ its
    # count of counted targets for "mean"), broadcast over its targets
    from ..elementwise import div
    size = batch_size(args, dims)
    per_example_shape = logical_shape(args[0], dims[0])
    logits, labels = _fold_targets(args[0], args[1], dims[:2], size)
    ct = at_front(args[2], dims[2], size)
    if reduction == "mean":
        ct = div(ct, _per_example_sum(_valid(labels, logits.dtype, ignore_index), size))
    if reduction != "none":
        per_example = int(np.prod(labels.shape)) // size
        ct = bind(_P["broadcast_to"], reshape(ct, (size, 1)), shape=(size, per_example))
    ct = reshape(ct, tuple(labels.shape))
    grads = bind(_P["softmax_cross_entropy_grad"], logits, labels, ct, reduction="none",
                 ignore_index=ignore_index)
    return reshape(grads, (size,) + tuple(per_example_shape)), 0
