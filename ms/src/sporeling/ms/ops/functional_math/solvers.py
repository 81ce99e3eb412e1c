"""Determinants, inverses, linear solves and the Cholesky factor of ``mindspore.ops`` (r2.3),
composed from ``sx`` ops: Gauss-Jordan elimination with partial pivoting and a column-by-column
Cholesky, unrolled over the (static) matrix size ``n``. They batch over leading axes, compile
in Graph mode and are differentiated through the elimination (the exact derivative of what was
computed). Cost: ``n`` steps of O(n^2) batched element-wise work -- meant for the small and
medium matrices facade users invert (covariances, Jacobians), not for n in the thousands.

A singular (or, for ``cholesky``, non-positive-definite) matrix raises in PyNative; a
compiled graph cannot look at the data and returns inf/NaN there.
"""
from __future__ import annotations

import numpy as np

from ._util import ShapeError, SporelingError, as_numpy, float_of, ops, result

__all__ = ["inverse", "det", "slogdet", "logdet", "matrix_solve", "cholesky", "cholesky_solve"]


def _square(op: str, x):
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ShapeError("needs square matrices", op=op, expected="(..., n, n)",
                         got=tuple(x.shape))
    return x


def _eager_check(op: str, bad, what: str):
    """Raise in PyNative when ``bad`` (a bool tensor) holds anywhere."""
    from sporeling.expression.graph import is_tracing
    if not is_tracing() and bool(np.any(as_numpy(bad))):
        raise SporelingError(f"the matrix is {what}", op=op,
                             expected="an invertible matrix" if what == "singular" else
                             "a symmetric positive-definite matrix", got=f"a {what} matrix")


def _at(x, *key):
    return ops.getitem(x, (Ellipsis, *key))


def _eliminate(a, b):
    """Gauss-Jordan on ``[a | b]`` with partial pivoting: ``(a^-1 b or None, pivots,
    sign)`` with ``det(a) = sign * prod(pivots)``. A zero pivot (singular ``a``) is replaced
    by 1 while eliminating, so the determinant comes out 0 and the solution inf/NaN."""
    n = a.shape[-1]
    aug = a if b is None else ops.concat([a, b], axis=-1)
    eye = np.eye(n, dtype=np.dtype(a.dtype))
    one, minus_one = np.asarray(1, a.dtype), np.asarray(-1, a.dtype)
    sign, pivots = None, []
    for k in range(n):
        below = ops.abs(_at(aug, slice(k, None), k))                   # (..., n-k)
        p = ops.add(ops.argmax(below, axis=-1), np.int64(k))           # the pivot rows
        onehot = ops.one_hot(p, n, dtype=np.dtype(a.dtype))            # (..., n)
        row_p = ops.matmul(ops.expand_dims(onehot, -2), aug)           # (..., 1, width)
        row_k = _at(aug, slice(k, k + 1), slice(None))
        # swap rows k and p: row k gains (row_p - row_k), row p loses it
        aug = ops.add(aug, ops.mul(ops.expand_dims(ops.sub(eye[k], onehot), -1),
                                   ops.sub(row_p, row_k)))
        flip = ops.where(ops.equal(p, k), one, minus_one)
        sign = flip if sign is None else ops.mul(sign, flip)
        pivot = _at(aug, k, k)
        pivots.append(pivot)
        safe = ops.where(ops.equal(pivot, 0), one, pivot)
        factors = ops.mul(ops.div(_at(aug, slice(None), k), ops.expand_dims(safe, -1)),
                          1 - eye[k])                                   # every row but k
        aug = ops.sub(aug, ops.mul(ops.expand_dims(factors, -1),
                                   _at(aug, slice(k, k + 1), slice(None))))
    pivots = ops.stack(pivots, axis=-1)
    solution = None
    if b is not None:
        solution = ops.div(_at(aug, slice(None), slice(n, None)), ops.expand_dims(pivots, -1))
    return solution, pivots, sign


def _solve(op: str, a, b):
    solution, pivots, _ = _eliminate(a, b)
    _eager_check(op, ops.equal(pivots, 0), "singular")
    return result(solution)


def inverse(input):
    """The inverse of each square matrix ``(..., n, n)``."""
    a = _square("ops.inverse", float_of(input))
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=np.dtype(a.dtype)), tuple(a.shape))
    return _solve("ops.inverse", a, eye)


def det(input):
    """The determinant of each square matrix (0 for a singular one)."""
    a = _square("ops.det", float_of(input))
    _, pivots, sign = _eliminate(a, None)
    return result(ops.mul(ops.prod(pivots, axis=-1), sign))


def slogdet(input):
    """``(sign, log|det|)`` of each square matrix (sign 0 and -inf for a singular one)."""
    a = _square("ops.slogdet", float_of(input))
    _, pivots, sign = _eliminate(a, None)
    sign = ops.mul(sign, ops.prod(ops.sign(pivots), axis=-1))
    return result((sign, ops.sum(ops.log(ops.abs(pivots)), axis=-1)))


def logdet(input):
    """``log(det)``: NaN for a negative determinant, -inf for a singular matrix."""
    sign, logabs = slogdet(input)
    return result(ops.where(ops.less(sign, 0), np.asarray(np.nan, logabs.dtype), logabs))


def matrix_solve(matrix, rhs, adjoint=False):
    """``X`` with ``matrix @ X = rhs`` (``matrix^T`` with ``adjoint``); ``rhs`` is
    ``(..., n, k)``."""
    a = _square("ops.matrix_solve", float_of(matrix))
    if adjoint:
        a = ops.swap_last_axes(a)
    return _solve("ops.matrix_solve", a, ops.cast(float_of(rhs), a.dtype))


def cholesky(input_x, upper=False):
    """The Cholesky factor ``L`` (``A = L L^T``, lower triangular), or ``U = L^T`` with
    ``upper``."""
    a = _square("ops.cholesky", float_of(input_x))
    n = a.shape[-1]
    columns, diagonal = [], []
    for j in range(n):
        s = _at(a, slice(None), j)                                     # (..., n)
        if columns:
            done = ops.stack(columns, axis=-1)                         # (..., n, j)
            row_j = ops.expand_dims(_at(done, j, slice(None)), -1)    # (..., j, 1)
            s = ops.sub(s, ops.squeeze(ops.matmul(done, row_j), -1))
        d = _at(s, j)
        diagonal.append(d)
        below = np.arange(n) >= j
        root = ops.sqrt(ops.where(ops.greater(d, 0), d, np.asarray(1, a.dtype)))
        col = ops.where(below, ops.div(s, ops.expand_dims(root, -1)), np.asarray(0, a.dtype))
        columns.append(col)
    _eager_check("ops.cholesky", ops.less_equal(ops.stack(diagonal, axis=-1), 0),
                 "not positive definite")
    low = ops.stack(columns, axis=-1)
    return result(ops.swap_last_axes(low) if upper else low)


def cholesky_solve(input, input2, upper=False):
    """``X`` with ``A X = input`` given the Cholesky factor ``input2`` of ``A`` (lower, or
    upper with ``upper``)."""
    factor = _square("ops.cholesky_solve", float_of(input2))
    low = ops.swap_last_axes(factor) if upper else factor
    a = ops.matmul(low, ops.swap_last_axes(low))
    return _solve("ops.cholesky_solve", a, ops.cast(float_of(input), a.dtype))
