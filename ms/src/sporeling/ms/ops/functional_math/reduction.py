"""Reduction functions of ``mindspore.ops`` (r2.3 signatures) over ``sx.ops`` reductions.

Note for PyTorch users: ``ops.max``/``ops.min`` always return ``(values, indices)``, also
without an axis: then the value over all elements and index 0 (MindSpore 2.10's documented
result; use ``argmax``/``argmin`` for the position); ``ops.amax`` returns values only.
Index dtypes are MindSpore 2.10's: ``max``/``min``/``argmax`` int64, ``argmin`` int32.
"""
from __future__ import annotations

import numpy as np

from ._util import (SporelingError, Tensor, axes, float_of, np_dtype, one_axis, ops, result,
                    tensor)

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "aminmax", "argmax",
           "argmin", "all", "any", "logsumexp", "std", "var", "std_mean", "var_mean",
           "nansum", "nanmean", "norm", "fmax", "fmin"]


def _with_dtype(x, dtype):
    dtype = np_dtype(dtype)
    return x if dtype is None else ops.cast(x, dtype)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum over ``dim`` (an int, a tuple, or None for all); ``dtype`` casts first."""
    x = _with_dtype(tensor(input), dtype)
    return result(ops.sum(x, axis=axes(dim), keepdims=keepdim))


def mean(input, axis=None, keep_dims=False):
    """The mean over ``axis`` (integers give float32). Note: the keyword is ``keep_dims``
    here (``ops.sum`` takes ``dim``/``keepdim``, PyTorch ``keepdim``)."""
    return result(ops.mean(float_of(input), axis=axes(axis), keepdims=keep_dims))


def prod(input, axis=None, keep_dims=False, dtype=None):
    """The product over ``axis``."""
    x = _with_dtype(tensor(input), dtype)
    return result(ops.prod(x, axis=axes(axis), keepdims=keep_dims))


def _lowest(x, highest: bool):
    dtype = np.dtype(x.dtype)
    if dtype.kind == "f" or str(dtype) == "bfloat16":
        return np.asarray(np.inf if highest else -np.inf, dtype)
    if dtype == np.bool_:
        return np.asarray(highest, dtype)
    info = np.iinfo(dtype)
    return np.asarray(info.max if highest else info.min, dtype)


def _masked(x, where, initial, largest: bool):
    """``x`` with ``where``-False elements replaced by the reduction's identity, and
    ``initial`` folded in (MindSpore's ``initial``/``where`` of max/min/amax/amin)."""
    if where is not None:
        x = ops.where(tensor(where), x, _lowest(x, highest=not largest))
    return x


def _fold_initial(values, initial, largest: bool):
    if initial is None:
        return values
    return (ops.maximum if largest else ops.minimum)(values, initial)


def _extremum(op, input, axis, keepdims, initial, where, largest):
    x = tensor(input)
    x = _masked(x, where, initial, largest)
    reduce = ops.max if largest else ops.min
    arg = ops.argmax if largest else ops.argmin
    if axis is None:
        # MindSpore 2.10 (documented): over every element, ``keepdims`` ignored, and the
        # index is always int64 0 -- not the flat position of the extremum
        values = reduce(x, axis=None, keepdims=False)
        index = Tensor(np.asarray(0, np.int64))
    else:
        ax = one_axis(op, axis, len(x.shape))
        values = reduce(x, axis=ax, keepdims=keepdims)
        index = arg(x, axis=ax, keepdims=keepdims)
    return result((_fold_initial(values, initial, largest), index))


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``(values, indices)`` (int64) of the maximum along ``axis``. ``where`` masks elements
    out, ``initial`` is a lower bound of the values. ``axis=None``: the maximum of all
    elements (``keepdims`` ignored) and index 0, as MindSpore 2.10 (which also ignores
    ``initial``/``where`` then; here they still apply).
    Note: PyTorch's ``torch.max(x)`` returns only the value; here it is always a pair."""
    return _extremum("ops.max", input, axis, keepdims, initial, where, True)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``(values, indices)`` of the minimum along ``axis`` (see :func:`max`)."""
    return _extremum("ops.min", input, axis, keepdims, initial, where, False)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The maximum over ``axis`` (an int, a tuple, or None for all): values only."""
    x = _masked(tensor(input), where, initial, True)
    return result(_fold_initial(ops.max(x, axis=axes(axis), keepdims=keepdims), initial, True))


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The minimum over ``axis``: values only."""
    x = _masked(tensor(input), where, initial, False)
    return result(_fold_initial(ops.min(x, axis=axes(axis), keepdims=keepdims), initial, False))


def aminmax(input, *, axis=0, keepdims=False):
    """``(min, max)`` along ``axis``."""
    x = tensor(input)
    ax = None if axis is None else one_axis("ops.aminmax", axis, len(x.shape))
    return result((ops.min(x, axis=ax, keepdims=keepdims), ops.max(x, axis=ax, keepdims=keepdims)))


def argmax(input, dim=None, keepdim=False):
    """The index of the maximum along ``dim`` (of the flattened input when None); the
    first one on ties."""
    x = tensor(input)
    if dim is None:
        return result(ops.argmax(ops.reshape(x, (-1,))))
    return result(ops.argmax(x, axis=one_axis("ops.argmax", dim, len(x.shape)), keepdims=keepdim))


def argmin(input, axis=None, keepdims=False):
    """The index (int32, as MindSpore 2.10; ``argmax`` gives int64) of the minimum along
    ``axis`` (of the flattened input when None, ``keepdims`` then ignored). Note: MindSpore
    spells it ``axis``/``keepdims`` here but ``dim``/``keepdim`` in argmax."""
    x = tensor(input)
    if not x.shape:
        return Tensor(np.asarray(0, np.int64))
    if axis is None:
        return result(ops.cast(ops.argmin(ops.reshape(x, (-1,))), np.int32))
    return result(ops.cast(ops.argmin(x, axis=one_axis("ops.argmin", axis, len(x.shape)),
                                      keepdims=keepdims), np.int32))


def all(input, axis=None, keep_dims=False):
    """True where every element along ``axis`` is non-zero."""
    return result(ops.all(tensor(input), axis=axes(axis), keepdims=keep_dims))


def any(input, axis=None, keep_dims=False):
    """True where some element along ``axis`` is non-zero."""
    return result(ops.any(tensor(input), axis=axes(axis), keepdims=keep_dims))


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim``, computed stably (MindSpore 2.10's signature;
    r2.3's ``axis``/``keep_dims`` keywords are gone there too)."""
    return result(ops.logsumexp(float_of(input), axis=axes(dim), keepdims=keepdim))


def var(input, axis=None, ddof=0, keepdims=False):
    """The variance over ``axis``; ``ddof`` (an int, or a bool: True means 1) is subtracted
    from the count. Note: PyTorch's default is unbiased (``ddof=1``); MindSpore's is 0."""
    return result(ops.var(float_of(input), axis=axes(axis), ddof=int(ddof), keepdims=keepdims))


def std(input, axis=None, ddof=0, keepdims=False):
    """The standard deviation over ``axis`` (``ddof`` as :func:`var`; biased by default,
    unlike ``torch.std``)."""
    return result(ops.std(float_of(input), axis=axes(axis), ddof=int(ddof), keepdims=keepdims))


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(var, mean)`` over ``axis``."""
    return (var(input, axis, ddof, keepdims), mean(input, axis, keepdims))


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(std, mean)`` over ``axis``."""
    return (std(input, axis, ddof, keepdims), mean(input, axis, keepdims))


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum over ``axis`` treating NaN as 0."""
    x = tensor(input)
    if np.dtype(x.dtype).kind == "f":
        x = ops.where(ops.isnan(x), np.asarray(0, x.dtype), x)
    return result(ops.sum(_with_dtype(x, dtype), axis=axes(axis), keepdims=keepdims))


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean over ``axis`` of the non-NaN elements (NaN where all are NaN)."""
    x = _with_dtype(float_of(input), dtype)
    keep = ops.logical_not(ops.isnan(x))
    total = ops.sum(ops.where(keep, x, np.asarray(0, x.dtype)), axis=axes(axis), keepdims=keepdims)
    count = ops.sum(ops.cast(keep, x.dtype), axis=axes(axis), keepdims=keepdims)
    return result(ops.div(total, count))


def _vector_norm(x, ord, axis, keepdims):
    a = ops.abs(x)
    if ord == np.inf or ord == "inf":
        return ops.max(a, axis=axis, keepdims=keepdims)
    if ord == -np.inf or ord == "-inf":
        return ops.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return ops.sum(ops.cast(ops.not_equal(x, 0), x.dtype), axis=axis, keepdims=keepdims)
    if ord == 2:
        return ops.sqrt(ops.sum(ops.square(x), axis=axis, keepdims=keepdims))
    return ops.pow(ops.sum(ops.pow(a, float(ord)), axis=axis, keepdims=keepdims), 1.0 / ord)


def _matrix_norm(x, ord, dims, keepdims):
    r, c = dims
    if ord == "fro":
        return ops.sqrt(ops.sum(ops.square(x), axis=dims, keepdims=keepdims))
    if ord in (1, -1):        # max / min column sum
        sums = ops.sum(ops.abs(x), axis=r, keepdims=True)
        pick, ax = (ops.max if ord == 1 else ops.min), c
    elif ord in (np.inf, -np.inf):    # max / min row sum
        sums = ops.sum(ops.abs(x), axis=c, keepdims=True)
        pick, ax = (ops.max if ord == np.inf else ops.min), r
    else:
        raise SporelingError("matrix norm order not supported", op="ops.norm",
                             expected="'fro', 1, -1, inf or -inf (2, -2 and 'nuc' need an "
                                      "SVD, which has no op here)", got=repr(ord))
    out = pick(sums, axis=ax, keepdims=True)
    return out if keepdims else ops.squeeze(out, axis=tuple(sorted(dims)))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm (``torch.linalg.norm`` semantics). ``ord=None``: the 2-norm
    of the flattened input (``dim`` None) or along ``dim``; a 2-tuple ``dim`` (or a 2-D
    input with a numeric ``ord`` and no ``dim``) gives a matrix norm."""
    x = _with_dtype(float_of(A), dtype)
    ndim = len(x.shape)
    if dim is None:
        if ord is None:
            return result(ops.sqrt(ops.sum(ops.square(x), axis=None, keepdims=keepdim)))
        dim = tuple(range(ndim)) if ndim == 2 or ord == "fro" else 0
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        dims = tuple(one_axis("ops.norm", d, ndim) for d in dim)
        return result(_matrix_norm(x, "fro" if ord is None else ord, dims, keepdim))
    ax = one_axis("ops.norm", dim[0] if isinstance(dim, (tuple, list)) else dim, ndim)
    return result(_vector_norm(x, 2 if ord is None else ord, ax, keepdim))


def fmax(input, other):
    """The element-wise maximum ignoring NaN (NaN only where both are NaN)."""
    x, y = tensor(input), tensor(other)
    m = ops.maximum(x, y)
    return result(ops.where(ops.isnan(x), y, ops.where(ops.isnan(y), x, m)))


def fmin(input, other):
    """The element-wise minimum ignoring NaN."""
    x, y = tensor(input), tensor(other)
    m = ops.minimum(x, y)
    return result(ops.where(ops.isnan(x), y, ops.where(ops.isnan(y), x, m)))
