"""Normalisation: layer_norm, batch_norm, group_norm.

One primitive does the statistics for all three: ``normalize(x; axis, eps)`` returns
``(y, mean, var)`` with ``y = (x - mean) / sqrt(var + eps)`` and the (biased) statistics
over ``axis``, kept as size-1 axes. The affine part is ordinary ops. Its backward reads only
the outputs (``x`` can be freed) and handles cotangents of all three results, so it
differentiates again; ``rsqrt_eps(v; eps) = 1 / sqrt(v + eps)`` is the small primitive it
needs (also used by batch_norm's inference path).

batch_norm in training mode normalises with the batch statistics and *returns* the updated
running statistics, ``(1 - momentum) * running + momentum * batch`` (the variance unbiased,
as in PyTorch and MindSpore): a functional op cannot assign, so the Cell that owns the
buffers stores what comes back.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError, SporelingError

from ...core import Aval, Primitive, bind, def_backward
from ...core.sharding import OpDims, labels, norm_axes, shape_of
from .._batching import shift_axes
from .._util import (as_operand, check_axes, check_float, check_int, check_shape,
                     float_operand)

__all__ = ["layer_norm", "batch_norm", "group_norm"]

normalize_p = Primitive("normalize", multiple_results=True, amp="black")
rsqrt_eps_p = Primitive("rsqrt_eps", elementwise=True, fusible=True, amp="black")


@normalize_p.def_abstract_eval
def _normalize_aval(x, *, axis, eps):
    check_axes("normalize", axis, len(x.shape))
    stats = tuple(1 if i in axis else n for i, n in enumerate(x.shape))
    return Aval(tuple(x.shape), x.dtype), Aval(stats, x.dtype), Aval(stats, x.dtype)


rsqrt_eps_p.def_abstract_eval(lambda v, *, eps: Aval(tuple(v.shape), v.dtype))


@normalize_p.def_batching
def _normalize_batching(args, dims, *, axis, eps):
    (x,), (d,) = args, dims
    return bind(normalize_p, x, axis=shift_axes(axis, d), eps=eps), (d, d, d)


@normalize_p.def_sharding_rule
def _normalize_sharding(eq):
    """Layer norm's core: the normalised axes stay whole; the statistics keep them as 1s."""
    shape = shape_of(eq.inputs[0])
    names = labels(len(shape))
    axes = norm_axes(eq.params["axis"], len(shape))
    fixed = {names[a] for a in axes}
    stats = tuple(f"s{i}" if i in axes else lab for i, lab in enumerate(names))
    fixed.update(stats[a] for a in axes)
    return OpDims([names], [names] + [stats] * (len(eq.outputs) - 1), fixed)


def _live(g) -> bool:
    """False for a plain all-zero array (the cotangent of an unused result): skip its term."""
    return not (type(g) is np.ndarray and not g.any())


@def_backward(normalize_p, uses=("out",))
def _normalize_bwd(ct, x, *, out, axis, eps):
    from ..elementwise import add, div, mul, sub
    from ..reduction import sum
    gy, gm, gv = ct
    y, _, var = out
    inv_n = 1.0 / int(np.prod([x.shape[a] for a in axis]))
    r = bind(rsqrt_eps_p, var, eps=eps)
    mean_gy = mul(sum(gy, axis, keepdims=True), inv_n)
    mean_gyy = mul(sum(mul(gy, y), axis, keepdims=True), inv_n)
    gx = mul(r, sub(sub(gy, mean_gy), mul(y, mean_gyy)))
    if _live(gm):  # d mean / dx = 1/n
        gx = add(gx, mul(gm, inv_n))
    if _live(gv):  # d var / dx = 2 (x - mean) / n, and x - mean = y / r
        gx = add(gx, mul(div(y, r), mul(gv, 2.0 * inv_n)))
    return (gx,)


@def_backward(rsqrt_eps_p, uses=("out",))
def _rsqrt_eps_bwd(ct, v, *, out, eps):
    from ..elementwise import mul
    return (mul(ct, mul(mul(out, mul(out, out)), -0.5)),)


def _affine(y, weight, bias, shape):
    from ..elementwise import add, mul
    from ..shape import reshape
    if weight is not None:
        y = mul(y, reshape(weight, shape))
    if bias is not None:
        y = add(y, reshape(bias, shape))
    return y


def _floats(x, *others):
    """``x`` as a float; parameters and statistics in ``x``'s dtype."""
    from ..dtype import cast
    x = float_operand(x)
    return [x] + [None if o is None else cast(as_operand(o), x.dtype) for o in others]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing ``normalized_shape`` axes, then ``* weight + bias``.

        >>> import numpy as np
        >>> layer_norm(np.array([[1.0, 3.0]], np.float32), 2, eps=0.0)
        array([[-1.,  1.]], dtype=float32)
    """
    x, weight, bias = _floats(input, weight, bias)
    shape = check_shape("layer_norm", normalized_shape, "normalized_shape")
    k = len(shape)
    if k == 0 or k > len(x.shape) or tuple(x.shape[len(x.shape) - k:]) != shape:
        raise ShapeError("normalized_shape is not the input's trailing shape", op="layer_norm",
                         expected=f"input shape ending in {shape}", got=tuple(x.shape))
    axis = tuple(range(len(x.shape) - k, len(x.shape)))
    eps = check_float(eps, "eps", op="layer_norm", min=0.0)
    y = bind(normalize_p, x, axis=axis, eps=eps)[0]
    return _affine(y, weight, bias, shape)


def _channel_shape(op, x, *params):
    if len(x.shape) < 2:
        raise ShapeError("input must have a channel axis", op=op,
                         expected="(N, C, ...)", got=tuple(x.shape))
    c = x.shape[1]
    for p in params:
        if p is not None and tuple(p.shape) != (c,):
            raise ShapeError("per-channel parameter has the wrong shape", op=op,
                             expected=(c,), got=f"{tuple(p.shape)} for input {tuple(x.shape)}")
    return (c,) + (1,) * (len(x.shape) - 2)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Batch normalisation over every axis but the channels (axis 1).

    ``training=False``: normalise with the running statistics, return ``y``.
    ``training=True``: normalise with the batch's, return ``(y, new_running_mean,
    new_running_var)`` (``None`` for running statistics that were ``None``).

        >>> import numpy as np
        >>> x = np.array([[1.0], [3.0]], np.float32)
        >>> y, mean, var = batch_norm(x, np.zeros(1, np.float32), np.ones(1, np.float32),
        ...                           training=True, momentum=0.5, eps=0.0)
        >>> y.ravel(), mean, var
        (array([-1.,  1.], dtype=float32), array([1.], dtype=float32), array([1.5], dtype=float32))
    """
    from ..elementwise import add, mul, neg, sub
    from ..shape import reshape
    x, running_mean, running_var, weight, bias = _floats(input, running_mean, running_var,
                                                         weight, bias)
    shape = _channel_shape("batch_norm", x, running_mean, running_var, weight, bias)
    if not training:
        if running_mean is None or running_var is None:
            raise SporelingError("inference needs the running statistics", op="batch_norm",
                                 expected="running_mean and running_var", got="None")
        scale = bind(rsqrt_eps_p, running_var, eps=float(eps))
        scale = scale if weight is None else mul(scale, weight)
        shift = mul(running_mean, scale)
        shift = sub(bias, shift) if bias is not None else neg(shift)
        return add(mul(x, reshape(scale, shape)), reshape(shift, shape))
    axis = (0,) + tuple(range(2, len(x.shape)))
    n = int(np.prod([x.shape[a] for a in axis]))
    if n < 2:
        raise ShapeError("training needs more than one value per channel", op="batch_norm",
                         expected="N * spatial size > 1", got=tuple(x.shape))
    y, mean, var = bind(normalize_p, x, axis=axis, eps=float(eps))
    y = _affine(y, weight, bias, shape)
    c = (x.shape[1],)
    new_mean = None if running_mean is None else \
        add(mul(running_mean, 1.0 - momentum), mul(reshape(mean, c), float(momentum)))
    new_var = None if running_var is None else \
        add(mul(running_var, 1.0 - momentum), mul(reshape(var, c), momentum * n / (n - 1)))
    return y, new_mean, new_var


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over groups of ``C / num_groups`` channels (and all spatial
    axes), then a per-channel ``* weight + bias``.

        >>> import numpy as np
        >>> group_norm(np.array([[1.0, 3.0, 5.0, 9.0]], np.float32), 2, eps=0.0)
        array([[-1.,  1., -1.,  1.]], dtype=float32)
    """
    from ..shape import reshape
    x, weight, bias = _floats(input, weight, bias)
    shape = _channel_shape("group_norm", x, weight, bias)
    num_groups = check_int(num_groups, "num_groups", op="group_norm")
    if num_groups < 1 or x.shape[1] % num_groups:
        raise ShapeError("num_groups must divide the channels", op="group_norm",
                         expected=f"a divisor of {x.shape[1]} channels",
                         got=f"num_groups={num_groups} for input {tuple(x.shape)}")
    grouped = reshape(x, (x.shape[0], num_groups, -1))
    y = bind(normalize_p, grouped, axis=(2,), eps=float(eps))[0]
    return _affine(reshape(y, tuple(x.shape)), weight, bias, shape)
