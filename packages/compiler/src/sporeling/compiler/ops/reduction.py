"""Reductions over axes (None: all; an int; a tuple), optionally keeping them as size 1.

Sums and products of bool and small integers accumulate in int64, as in PyTorch; means,
variances and norms of integers are float32.

    >>> import numpy as np
    >>> x = np.array([[1.0, 5.0], [3.0, 2.0]], np.float32)
    >>> mean(x, axis=0)
    array([2. , 3.5], dtype=float32)
    >>> argmax(x, axis=1, keepdims=True)
    array([[1],
           [0]])
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from sporeling.core import ShapeError, SporelingError

from ..core import Aval, Primitive, bind, def_backward, def_nondifferentiable
from ..core.sharding import Fresh, OpDims, def_sharding_rule, labels, norm_axes, shape_of
from ._batching import reshape as batch_reshape, shift_axes, shift_axis, to_front
from ._util import as_operand, check_axes, float_operand
from .comparison import equal, logical_and, where
from .dtype import cast
from .elementwise import abs, div, exp, mul, sign, sub
from .shape import broadcast_to, reshape

__all__ = ["sum", "mean", "prod", "max", "min", "argmax", "argmin", "logsumexp", "var",
           "std", "norm", "all", "any", "cumsum"]

_INT64, _BOOL = np.dtype(np.int64), np.dtype(bool)


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _reduction(name: str, dtype=None, differentiable: bool = True, amp=None,
               core: bool = False) -> Primitive:
    prim = Primitive(name, amp=amp, core=core)

    @prim.def_abstract_eval
    def rule(x, *, axis, keepdims, **params):
        axes = check_axes(name, axis, len(x.shape))
        return Aval(_reduced_shape(x.shape, axes, keepdims), dtype or np.dtype(x.dtype))
    if not differentiable:
        def_nondifferentiable(prim)
    return prim


# sums, means, products and norms accumulate error 16 bits do not hold: float32 under AMP
sum_p, prod_p = (_reduction(n, amp="black", core=True) for n in ("sum", "prod"))
mean_p, logsumexp_p, var_p, std_p, norm_p = (_reduction(n, amp="black") for n in (
    "mean", "logsumexp", "var", "std", "norm"))
max_p, min_p = _reduction("max", core=True), _reduction("min", core=True)
all_p, any_p = (_reduction(n, _BOOL, False, core=True) for n in ("all", "any"))


def _accumulator(x):
    """``x`` as int64 when it is bool or a narrower integer (its sums would overflow)."""
    if x.dtype.kind in "biu" and x.dtype != _INT64:
        return cast(x, _INT64)
    return x


def _bind(prim, x, axis, keepdims, **params):
    axes = check_axes(prim.name, axis, len(x.shape))
    return bind(prim, x, axis=axes, keepdims=builtins.bool(keepdims), **params)


def sum(x, axis=None, keepdims=False):
    """Sum over ``axis``. Bool and ints sum as int64."""
    return _bind(sum_p, _accumulator(as_operand(x)), axis, keepdims)


def mean(x, axis=None, keepdims=False):
    """Arithmetic mean over ``axis``; integers give float32."""
    return _bind(mean_p, float_operand(x), axis, keepdims)


def prod(x, axis=None, keepdims=False):
    """Product over ``axis``; the gradient is exact where a slice holds one zero."""
    return _bind(prod_p, _accumulator(as_operand(x)), axis, keepdims)


def max(x, axis=None, keepdims=False):
    """Largest value over ``axis``; tied maxima share the gradient evenly (like ``amax``)."""
    return _bind(max_p, as_operand(x), axis, keepdims)


def min(x, axis=None, keepdims=False):
    """Smallest value over ``axis``; tied minima share the gradient evenly (like ``amin``)."""
    return _bind(min_p, as_operand(x), axis, keepdims)


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis``, shifted by the maximum so that it never overflows.

        >>> import numpy as np
        >>> logsumexp(np.array([1e4, 1e4]))
        array(10000.69314718)
    """
    return _bind(logsumexp_p, float_operand(x), axis, keepdims)


def _ddof(op: str, ddof, correction) -> int:
    value = ddof if correction is None else correction
    if not isinstance(value, (int, np.integer)):  # bool is an int: True -> 1 (Bessel)
        raise SporelingError("ddof must be an integer", op=op, expected="int or bool",
                             got=repr(value))
    return int(value)


def var(x, axis=None, ddof=0, keepdims=False, *, correction=None):
    """Variance over ``axis`` with divisor ``N - ddof``. The default ``ddof=0`` (biased) is
    MindSpore's and NumPy's; PyTorch's default is ``correction=1`` (accepted as an alias)."""
    return _bind(var_p, float_operand(x), axis, keepdims, ddof=_ddof("var", ddof, correction))


def std(x, axis=None, ddof=0, keepdims=False, *, correction=None):
    """Standard deviation, ``sqrt(var(x, axis, ddof))`` (same ``ddof`` convention as var)."""
    return _bind(std_p, float_operand(x), axis, keepdims, ddof=_ddof("std", ddof, correction))


_ORDS = {None: 2, "fro": 2, 2: 2, 1: 1, math.inf: math.inf}


def norm(x, ord=2, axis=None, keepdims=False):
    """Vector norm of the entries over ``axis`` (several axes count as one flattened vector):
    ``ord`` 2 (Euclidean; None and "fro" mean 2), 1 (sum of ``|x|``) or ``inf`` (max
    ``|x|``). The 2-norm's gradient ``x / norm`` needs a non-zero input."""
    try:
        order = _ORDS[ord]
    except (KeyError, TypeError):
        raise SporelingError("unsupported norm order", op="norm",
                             expected="1, 2 or inf", got=repr(ord)) from None
    return _bind(norm_p, float_operand(x), axis, keepdims, ord=order)


def all(x, axis=None, keepdims=False):
    """Whether every element over ``axis`` is true (non-zero); bool."""
    return _bind(all_p, as_operand(x), axis, keepdims)


def any(x, axis=None, keepdims=False):
    """Whether some element over ``axis`` is true (non-zero); bool."""
    return _bind(any_p, as_operand(x), axis, keepdims)


def _kept(v, x, axis, keepdims):
    """A reduction's result (or cotangent) with the reduced axes back as size 1."""
    return v if keepdims else reshape(v, _reduced_shape(x.shape, axis, True))


def _count(x, axis) -> int:
    return math.prod(x.shape[a] for a in axis)


@def_backward(sum_p, uses=())
def _sum_bwd(ct, x, *, out, axis, keepdims):
    kept = ct if not ct.shape else _kept(ct, x, axis, keepdims)  # 0-d: broadcasts as it is
    return (broadcast_to(kept, tuple(x.shape)),)


@def_backward(mean_p, uses=())
def _mean_bwd(ct, x, *, out, axis, keepdims):
    scaled = mul(_kept(ct, x, axis, keepdims), 1.0 / builtins.max(_count(x, axis), 1))
    return (broadcast_to(scaled, tuple(x.shape)),)


@def_backward(prod_p, uses=(0,))
def _prod_bwd(ct, x, *, out, axis, keepdims):
    # d prod / d x_i = product of the others: p / x_i without zeros; with exactly one zero
    # only that entry gets a gradient (the product of the rest); with two or more none does.
    zero = equal(x, 0)
    zeros = sum(cast(zero, x.dtype), axis, keepdims=True)
    safe = where(zero, 1, x)
    rest = prod(safe, axis, keepdims=True)
    lone_zero = logical_and(zero, equal(zeros, 1))
    g = where(equal(zeros, 0), div(rest, safe), where(lone_zero, rest, 0))
    return (mul(_kept(ct, x, axis, keepdims), g),)


def _extremum_bwd(ct, x, *, out, axis, keepdims):
    hit = cast(equal(x, _kept(out, x, axis, keepdims)), ct.dtype)
    share = div(_kept(ct, x, axis, keepdims), sum(hit, axis, keepdims=True))
    return (mul(share, hit),)


def_backward(max_p, uses=(0, "out"))(_extremum_bwd)
def_backward(min_p, uses=(0, "out"))(_extremum_bwd)


@def_backward(logsumexp_p, uses=(0, "out"))
def _logsumexp_bwd(ct, x, *, out, axis, keepdims):
    softmax = exp(sub(x, _kept(out, x, axis, keepdims)))
    return (mul(_kept(ct, x, axis, keepdims), softmax),)


@def_backward(var_p, uses=(0,))
def _var_bwd(ct, x, *, out, axis, keepdims, ddof):
    centred = sub(x, mean(x, axis, keepdims=True))
    scale = mul(_kept(ct, x, axis, keepdims), 2.0 / (_count(x, axis) - ddof))
    return (mul(scale, centred),)


@def_backward(std_p, uses=(0, "out"))
def _std_bwd(ct, x, *, out, axis, keepdims, ddof):
    centred = sub(x, mean(x, axis, keepdims=True))
    scale = div(_kept(ct, x, axis, keepdims), mul(_kept(out, x, axis, keepdims),
                                                  float(_count(x, axis) - ddof)))
    return (mul(scale, centred),)


@def_backward(norm_p, uses=(0, "out"))
def _norm_bwd(ct, x, *, out, axis, keepdims, ord):
    ct = _kept(ct, x, axis, keepdims)
    if ord == 2:
        return (mul(div(ct, _kept(out, x, axis, keepdims)), x),)
    if ord == 1:
        return (mul(ct, sign(x)),)
    hit = cast(equal(abs(x), _kept(out, x, axis, keepdims)), ct.dtype)
    return (mul(div(ct, sum(hit, axis, keepdims=True)), mul(hit, sign(x))),)


# ---- argmax / argmin ---------------------------------------------------------------------

def _arg_reduction(name: str) -> Primitive:
    # amp: a 16-bit copy may tie values and move the index
    prim = Primitive(name, amp="never", core=True)

    @prim.def_abstract_eval
    def rule(x, *, axis, keepdims):
        ndim = len(x.shape)
        if axis is None:
            return Aval((1,) * ndim if keepdims else (), _INT64)
        return Aval(_reduced_shape(x.shape, _one_axis(name, axis, ndim), keepdims), _INT64)
    def_nondifferentiable(prim)
    return prim


def _one_axis(op: str, axis, ndim: int) -> tuple[int]:
    if not isinstance(axis, (int, np.integer)):
        raise ShapeError("one axis expected", op=op, expected="None or an int", got=repr(axis))
    return check_axes(op, axis, ndim)


argmax_p, argmin_p = _arg_reduction("argmax"), _arg_reduction("argmin")


def argmax(x, axis=None, keepdims=False):
    """Index (int64) of the first maximum along ``axis`` (None: of the flattened input)."""
    x = as_operand(x)
    axis = None if axis is None else _one_axis("argmax", axis, len(x.shape))[0]
    return bind(argmax_p, x, axis=axis, keepdims=builtins.bool(keepdims))


def argmin(x, axis=None, keepdims=False):
    """Index (int64) of the first minimum along ``axis`` (None: of the flattened input)."""
    x = as_operand(x)
    axis = None if axis is None else _one_axis("argmin", axis, len(x.shape))[0]
    return bind(argmin_p, x, axis=axis, keepdims=builtins.bool(keepdims))


# ---- cumsum ------------------------------------------------------------------------------

cumsum_p = Primitive("cumsum", core=True, amp="black")


@cumsum_p.def_abstract_eval
def _cumsum_aval(x, *, axis, reverse):
    _one_axis("cumsum", axis, len(x.shape))
    return Aval(tuple(x.shape), x.dtype)


@def_backward(cumsum_p, uses=())
def _cumsum_bwd(ct, x, *, out, axis, reverse):
    return (cumsum(ct, axis, reverse=not reverse),)


def cumsum(x, axis, reverse=False):
    """Running sum along ``axis``; ``reverse=True`` sums from the end. Bool and ints
    accumulate as int64.

        >>> import numpy as np
        >>> cumsum(np.array([1, 2, 3]), 0), cumsum(np.array([1, 2, 3]), 0, reverse=True)
        (array([1, 3, 6]), array([6, 5, 3]))
    """
    x = _accumulator(as_operand(x))
    (axis,) = _one_axis("cumsum", axis, len(x.shape))
    if not x.shape:  # a scalar is its own running sum
        return x
    return bind(cumsum_p, x, axis=axis, reverse=builtins.bool(reverse))


# ---- batching and sharding rules -----------------------------------------------------------
# vmap: the per-example axes shift past the batch axis, which stays where it is (or moves
# left past reduced axes). Operator parallel: a summed, averaged, max'd or min'd axis may
# split (each device reduces its block, a collective finishes); the others must stay whole.

def _reduction_batching(prim):
    def rule(args, dims, *, axis, keepdims, **params):
        (x,), (d,) = args, dims
        axes = shift_axes(axis, d)
        out_dim = d if keepdims else d - builtins.sum(1 for a in axes if a < d)
        return bind(prim, x, axis=axes, keepdims=keepdims, **params), out_dim
    return rule


for _prim in (sum_p, mean_p, prod_p, max_p, min_p, logsumexp_p, var_p, std_p, norm_p, all_p,
              any_p):
    _prim.def_batching(_reduction_batching(_prim))


def _arg_batching(prim):
    def rule(args, dims, *, axis, keepdims):
        (x,), (d,) = args, dims
        if axis is not None:
            a = shift_axis(axis, d)
            out = bind(prim, x, axis=a, keepdims=keepdims)
            return out, (d if keepdims or d < a else d - 1)
        x = to_front(x, d)  # over the flattened example: flatten all but the batch
        rank = len(x.shape) - 1
        out = bind(prim, batch_reshape(x, (x.shape[0], -1) if rank else (x.shape[0], 1)),
                   axis=1, keepdims=False)
        return (batch_reshape(out, (x.shape[0],) + (1,) * rank) if keepdims else out), 0
    return rule


for _prim in (argmax_p, argmin_p):
    _prim.def_batching(_arg_batching(_prim))


@cumsum_p.def_batching
def _cumsum_batching(args, dims, *, axis, **params):
    (x,), (d,) = args, dims
    return bind(cumsum_p, x, axis=shift_axis(axis, d), **params), d


_REDUCE_KIND = {"sum": "sum", "mean": "mean", "max": "max", "min": "min"}


@def_sharding_rule(sum_p, mean_p, max_p, min_p, logsumexp_p, argmax_p, argmin_p)
def _reduction_sharding(eq):
    shape = shape_of(eq.inputs[0])
    axes = norm_axes(eq.params.get("axis"), len(shape))
    keep = eq.params.get("keepdims", False)
    ins = labels(len(shape))
    kind = _REDUCE_KIND.get(eq.prim.name)
    fixed: set[str] = set() if kind else {ins[a] for a in axes}
    out, fresh = [], Fresh()
    for i, label in enumerate(ins):
        if i not in axes:
            out.append(label)
        elif keep:
            out.append(fresh())
            fixed.add(out[-1])
    reduce = {ins[a]: kind for a in axes} if kind else {}
    return OpDims([ins], [tuple(out)], fixed, reduce)


@cumsum_p.def_sharding_rule
def _cumsum_sharding(eq):
    names = labels(len(shape_of(eq.inputs[0])))
    return OpDims([names], [names], {names[eq.params["axis"] % len(names)]})
