"""Matrix decompositions, solvers and determinants of ``mindspore.ops`` (r2.3).

``sx`` has no primitive for them, so they compute with ``numpy.linalg`` on the tensors'
values: PyNative only (``EagerOnlyError`` under a Graph-mode trace). ``inverse`` and ``det``
still give PyNative gradients through a custom backward written with ``sx`` ops; the others
return constants.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.ms.common import eager_only

from ._util import ShapeError, SporelingError, Tensor, as_numpy, ops, tensor

__all__ = ["inverse", "det", "slogdet", "logdet", "matrix_solve", "cholesky",
           "cholesky_solve", "svd", "pinv", "cond"]


def _square(op: str, a: np.ndarray) -> np.ndarray:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ShapeError("needs square matrices", op=op, expected="(..., n, n)", got=a.shape)
    if a.dtype.kind != "f":
        a = a.astype(np.float32)
    return a


def _linalg(op: str, fn, *args):
    try:
        return fn(*args)
    except np.linalg.LinAlgError as exc:
        raise SporelingError("the matrix has no such decomposition", op=op,
                             expected="a non-singular (positive definite for cholesky) "
                                      "matrix", got=str(exc)) from None


def _inverse_bprop(x, out, dout):
    inv_t = ops.swap_last_axes(out)
    return (ops.neg(ops.matmul(ops.matmul(inv_t, dout), inv_t)),)


@sx.custom_bprop(_inverse_bprop)
def _inverse_value(x):
    a = _square("ops.inverse", as_numpy(x))
    return Tensor(_linalg("ops.inverse", np.linalg.inv, a).astype(a.dtype))


@eager_only("ops.inverse")
def inverse(input):
    """The inverse of each square matrix ``(..., n, n)``; differentiable in PyNative."""
    return _inverse_value(tensor(input))


def _det_bprop(x, out, dout):
    inv_t = ops.swap_last_axes(_inverse_value(x))
    scale = ops.expand_dims(ops.expand_dims(ops.mul(dout, out), -1), -1)
    return (ops.mul(scale, inv_t),)


@sx.custom_bprop(_det_bprop)
def _det_value(x):
    a = _square("ops.det", as_numpy(x))
    return Tensor(np.asarray(np.linalg.det(a), a.dtype))


@eager_only("ops.det")
def det(input):
    """The determinant of each square matrix; differentiable in PyNative (where the matrix
    is invertible)."""
    return _det_value(tensor(input))


@eager_only("ops.slogdet")
def slogdet(input):
    """``(sign, log|det|)`` of each square matrix. (PyNative only, no gradient.)"""
    a = _square("ops.slogdet", as_numpy(input))
    sign, logabs = np.linalg.slogdet(a)
    return Tensor(np.asarray(sign, a.dtype)), Tensor(np.asarray(logabs, a.dtype))


@eager_only("ops.logdet")
def logdet(input):
    """``log(det)``: NaN for a negative determinant, -inf for a singular matrix.
    (PyNative only, no gradient.)"""
    a = _square("ops.logdet", as_numpy(input))
    sign, logabs = np.linalg.slogdet(a)
    with np.errstate(invalid="ignore"):
        out = np.where(sign < 0, np.nan, logabs)
    return Tensor(np.asarray(out, a.dtype))


@eager_only("ops.matrix_solve")
def matrix_solve(matrix, rhs, adjoint=False):
    """``X`` with ``matrix @ X = rhs`` (``matrix^T`` with ``adjoint``). (PyNative only.)"""
    a = _square("ops.matrix_solve", as_numpy(matrix))
    if adjoint:
        a = np.swapaxes(a, -1, -2)
    b = as_numpy(rhs).astype(a.dtype)
    return Tensor(_linalg("ops.matrix_solve", np.linalg.solve, a, b).astype(a.dtype))


@eager_only("ops.cholesky")
def cholesky(input_x, upper=False):
    """The Cholesky factor ``L`` (``A = L L^T``), or ``U = L^T`` with ``upper``.
    (PyNative only, no gradient.)"""
    a = _square("ops.cholesky", as_numpy(input_x))
    low = _linalg("ops.cholesky", np.linalg.cholesky, a).astype(a.dtype)
    return Tensor(np.swapaxes(low, -1, -2) if upper else low)


@eager_only("ops.cholesky_solve")
def cholesky_solve(input, input2, upper=False):
    """``X`` with ``A X = input`` given the Cholesky factor ``input2`` of ``A`` (lower,
    or upper with ``upper``). (PyNative only.)"""
    b = as_numpy(input)
    factor = _square("ops.cholesky_solve", as_numpy(input2))
    low = np.swapaxes(factor, -1, -2) if upper else factor
    a = low @ np.swapaxes(low, -1, -2)
    return Tensor(_linalg("ops.cholesky_solve", np.linalg.solve, a, b.astype(a.dtype)))


@eager_only("ops.svd")
def svd(input, full_matrices=False, compute_uv=True):
    """``(s, u, v)`` with ``input = u @ diag(s) @ v^T`` -- note the order and that ``v`` is
    not transposed (``torch.linalg.svd`` returns ``(U, S, Vh)``); only ``s`` when
    ``compute_uv=False``. (PyNative only, no gradient.)"""
    a = as_numpy(input)
    a = a if a.dtype.kind == "f" else a.astype(np.float32)
    if not compute_uv:
        return Tensor(np.linalg.svd(a, compute_uv=False).astype(a.dtype))
    u, s, vh = _linalg("ops.svd", np.linalg.svd, a, full_matrices)
    return (Tensor(s.astype(a.dtype)), Tensor(u.astype(a.dtype)),
            Tensor(np.swapaxes(vh, -1, -2).astype(a.dtype)))


@eager_only("ops.pinv")
def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse; singular values below
    ``max(atol, rtol * s_max)`` count as zero. (PyNative only, no gradient.)"""
    a = as_numpy(x)
    a = a if a.dtype.kind == "f" else a.astype(np.float32)
    s_max = np.linalg.svd(a, compute_uv=False).max(axis=-1, keepdims=True)
    eps = np.finfo(a.dtype).eps * max(a.shape[-2:])
    cutoff = np.maximum(atol or 0.0, (eps if rtol is None and atol is None else rtol or 0.0)
                        * s_max)
    rcond = np.where(s_max > 0, cutoff / np.where(s_max > 0, s_max, 1), 0)
    return Tensor(np.linalg.pinv(a, rcond=rcond[..., 0], hermitian=hermitian).astype(a.dtype))


@eager_only("ops.cond")
def cond(A, p=None):
    """The condition number of ``A`` in the norm ``p`` (None: the 2-norm, ratio of extreme
    singular values). (PyNative only, no gradient.)"""
    a = as_numpy(A)
    a = a if a.dtype.kind == "f" else a.astype(np.float32)
    return Tensor(np.asarray(np.linalg.cond(a, p), a.dtype))

