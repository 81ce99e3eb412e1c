"""Comparisons, logic and ``where``: boolean results (no gradient), except ``where``, which
passes the cotangent to the branch it took.

    >>> import numpy as np
    >>> where(less(np.array([1, 5]), 3), 0, np.array([1, 5]))
    array([0, 5])
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, dtypes

from ..core import Aval, Primitive, bind, def_backward, def_nondifferentiable
from ._util import as_operand, broadcast_shapes, promote, same_dtype, unbroadcast
from .dtype import cast

__all__ = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not",
           "isnan", "isinf", "isfinite", "where"]

_BOOL = np.dtype(bool)


# Comparisons and predicates are elementwise but never recast by AMP: a 16-bit copy can
# change the answer (isfinite(1e5) is True in float32, False in float16).

def _comparison(name: str) -> Primitive:
    prim = Primitive(name, elementwise=True, core=True,
                     amp=None if name.startswith("logical") else "never")

    @prim.def_abstract_eval
    def rule(x, y):
        same_dtype(name, x, y)
        return Aval(broadcast_shapes(name, x.shape, y.shape), _BOOL)
    def_nondifferentiable(prim)
    return prim


def _predicate(name: str) -> Primitive:
    prim = Primitive(name, elementwise=True, core=True,
                     amp=None if name == "logical_not" else "never")
    prim.def_abstract_eval(lambda x: Aval(tuple(x.shape), _BOOL))
    def_nondifferentiable(prim)
    return prim


(equal_p, not_equal_p, greater_p, greater_equal_p, less_p, less_equal_p, logical_and_p,
 logical_or_p, logical_xor_p) = map(_comparison, (
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
    "logical_or", "logical_xor"))
logical_not_p, isnan_p, isinf_p, isfinite_p = map(_predicate, (
    "logical_not", "isnan", "isinf", "isfinite"))


def _binary_op(prim: Primitive, doc: str):
    name = prim.name

    def op(x, y):
        return bind(prim, *promote(name, x, y))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


equal = _binary_op(equal_p, "``x == y`` elementwise.")
not_equal = _binary_op(not_equal_p, "``x != y`` elementwise.")
greater = _binary_op(greater_p, "``x > y`` elementwise.")
greater_equal = _binary_op(greater_equal_p, "``x >= y`` elementwise.")
less = _binary_op(less_p, "``x < y`` elementwise.")
less_equal = _binary_op(less_equal_p, "``x <= y`` elementwise.")
logical_and = _binary_op(logical_and_p, "Both true (non-zero) elementwise; a bool result.")
logical_or = _binary_op(logical_or_p, "Either true (non-zero) elementwise; a bool result.")
logical_xor = _binary_op(logical_xor_p, "Exactly one true (non-zero); a bool result.")


def logical_not(x):
    """``x`` is false (zero) elementwise; a bool result."""
    return bind(logical_not_p, as_operand(x))


def isnan(x):
    """Where ``x`` is NaN (never for integers)."""
    return bind(isnan_p, as_operand(x))


def isinf(x):
    """Where ``x`` is +inf or -inf."""
    return bind(isinf_p, as_operand(x))


def isfinite(x):
    """Where ``x`` is neither infinite nor NaN."""
    return bind(isfinite_p, as_operand(x))


where_p = Primitive("where", core=True, elementwise=True, fusible=True, amp="promote")


@where_p.def_abstract_eval
def _where_aval(cond, x, y):
    if np.dtype(cond.dtype) != _BOOL:
        raise DTypeError("the condition must be boolean", op="where", expected="bool",
                         got=str(np.dtype(cond.dtype)))
    return Aval(broadcast_shapes("where", cond.shape, x.shape, y.shape),
                same_dtype("where", x, y))


@def_backward(where_p, uses=(0,))
def _where_bwd(ct, cond, x, y, *, out):
    return (None, unbroadcast(where(cond, ct, 0), x.shape),
            unbroadcast(where(cond, 0, ct), y.shape))


def where(cond, x, y):
    """``x`` where ``cond`` holds, else ``y`` (the three broadcast); a non-bool ``cond``
    means "non-zero". Differentiable in ``x`` and ``y``.

        >>> import numpy as np
        >>> where(np.array([True, False]), np.array([1.0, 2.0]), 0.0)
        array([1., 0.])
    """
    cond = as_operand(cond)
    if cond.dtype != _BOOL:
        cond = cast(cond, dtypes.bool_)
    return bind(where_p, cond, *promote("where", x, y))
