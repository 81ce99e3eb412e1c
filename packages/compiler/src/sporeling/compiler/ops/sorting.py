"""Sorting: one primitive, ``argsort`` (int64 positions, no gradient); ``sort`` and ``topk``
read the values with ``take_along_axis``, so their values are differentiable (the gradient
goes back to the positions the values came from).

    >>> import numpy as np
    >>> sort(np.array([[3.0, 1.0, 2.0]]), axis=1, descending=True)
    (array([[3., 2., 1.]]), array([[0, 2, 1]]))
    >>> topk(np.array([1.0, 5.0, 3.0]), 2)
    (array([5., 3.]), array([1, 2]))
"""
from __future__ import annotations

import builtins

import numpy as np

from sporeling.core import DTypeError, ShapeError

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ..core.batching import def_batching
from ._util import as_operand, check_int
from .indexing import slice as slice_, take_along_axis
from .shape import normalize_axis

__all__ = ["argsort", "sort", "topk"]

argsort_p = Primitive("argsort", core=True)
_INT64 = np.dtype(np.int64)


@argsort_p.def_abstract_eval
def _argsort_aval(x, *, axis, descending):
    if not x.shape:
        raise ShapeError("cannot sort a scalar", op="argsort", expected="a tensor of rank >= 1",
                         got="shape ()")
    if x.dtype.kind == "c":
        raise DTypeError("complex values have no order", op="argsort",
                         expected="a real or bool tensor", got=str(x.dtype))
    return Aval(tuple(x.shape), _INT64)


def_nondifferentiable(argsort_p)


@def_batching(argsort_p)
def _argsort_rule(args, dims, *, axis, descending):
    (x,), (d,) = args, dims
    return bind(argsort_p, x, axis=axis + (axis >= d), descending=descending), d


def argsort(x, axis=-1, descending=False):
    """Positions (int64) that sort ``x`` along ``axis``; equal values keep their order."""
    x = as_operand(x)
    _argsort_aval(x, axis=axis, descending=descending)  # eager kernels skip abstract rules
    axis = normalize_axis("argsort", axis, len(x.shape))
    return bind(argsort_p, x, axis=axis, descending=builtins.bool(descending))


def sort(x, axis=-1, descending=False):
    """``(values, indices)`` of ``x`` sorted along ``axis`` (ascending unless ``descending``)."""
    x = as_operand(x)
    indices = argsort(x, axis, descending)
    return take_along_axis(x, indices, axis), indices


def topk(x, k, axis=-1, largest=True, sorted=True):  # noqa: A002  (NumPy/PyTorch's name)
    """The ``k`` largest (``largest=False``: smallest) values along ``axis`` and their
    positions, in order from the most extreme (``sorted`` is accepted; they are always sorted)."""
    x = as_operand(x)
    if not x.shape:
        _argsort_aval(x, axis=0, descending=largest)
    axis = normalize_axis("topk", axis, len(x.shape))
    k = check_int(k, "k", op="topk")
    if not 0 <= k <= x.shape[axis]:
        raise ShapeError("k out of range", op="topk",
                         expected=f"0 <= k <= {x.shape[axis]} (the size of axis {axis})",
                         got=f"k={k} for shape {tuple(x.shape)}")
    indices = argsort(x, axis, descending=largest)
    begin = [0] * len(x.shape)
    size = list(x.shape)
    size[axis] = k
    indices = slice_(indices, begin, size)
    return take_along_axis(x, indices, axis), indices
