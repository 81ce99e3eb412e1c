"""Linear-algebra functions of 2.10's ``mindspore.ops`` beyond ``linalg``/``solvers``: norms
(``vector_norm``, ``matrix_norm``, ``vecdot``), determinants, QR/LU pieces (``qr``,
``geqrf``, ``orgqr``, ``ormqr``, ``lu_unpack``, ``lu_solve``), ``lstsq``, ``matrix_exp``,
``cholesky_inverse`` and ``quantile``. The factorisations and solvers run in LAPACK (SciPy)
on the NumPy values, matrix by matrix over the batch axes: eager only; the norms, ``vecdot``,
``cholesky_inverse`` and the determinants are composed from ``sx`` ops and differentiable."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ._util import SporelingError, as_numpy, float_of, np_dtype, ops, result, tensor
from .reduction import norm
from .solvers import det, inverse, slogdet

__all__ = ["vecdot", "vector_norm", "matrix_norm", "matrix_determinant",
           "log_matrix_determinant", "matrix_exp", "lstsq", "lu_solve", "lu_unpack", "geqrf",
           "orgqr", "ormqr", "qr", "cholesky_inverse", "quantile", "nanquantile"]


def _prim(name: str, **attrs):
    """An instance of the facade's primitive class ``name`` (imported on use: the
    primitives are built over this package)."""
    from .. import primitives
    return getattr(primitives, name)(**attrs)


def vecdot(x, y, *, axis=-1):
    """The dot product of ``x`` and ``y`` along ``axis`` (broadcast over the other axes)."""
    return result(ops.sum(ops.mul(tensor(x), tensor(y)), axis=int(axis)))


def _cast(x, dtype):
    x = float_of(x)
    return x if dtype is None else ops.cast(x, np_dtype(dtype))


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):  # noqa: A002
    """The vector ``ord``-norm over ``axis`` (an int, a tuple, None: all elements):
    ``sum(|x|^ord)^(1/ord)``; ``inf``/``-inf``: max/min ``|x|``; 0: the count of non-zeros."""
    a = ops.abs(_cast(x, dtype))
    ax = None if axis is None else (tuple(int(v) for v in axis)
                                    if isinstance(axis, (tuple, list)) else int(axis))
    if ord == float("inf"):
        return result(ops.max(a, axis=ax, keepdims=keepdims))
    if ord == float("-inf"):
        return result(ops.min(a, axis=ax, keepdims=keepdims))
    if ord == 0:
        nonzero = ops.cast(ops.not_equal(a, 0), a.dtype)
        return result(ops.sum(nonzero, axis=ax, keepdims=keepdims))
    if not isinstance(ord, (int, float)) or isinstance(ord, bool):
        raise SporelingError("ord must be a number", op="ops.vector_norm",
                             expected="an int, a float, inf or -inf", got=repr(ord))
    if ord == 2:
        return result(ops.sqrt(ops.sum(ops.square(a), axis=ax, keepdims=keepdims)))
    return result(ops.pow(ops.sum(ops.pow(a, float(ord)), axis=ax, keepdims=keepdims),
                          1.0 / ord))


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):  # noqa: A002
    """The matrix norm of the matrices on ``axis`` (two axes): ``'fro'``, 1, -1, inf, -inf
    (differentiable); ``'nuc'``, 2, -2 from the singular values (eager only)."""
    x = _cast(A, dtype)
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise SporelingError("needs two axes", op="ops.matrix_norm",
                             expected="a pair of axes", got=repr(axis))
    if ord in ("nuc", 2, -2):
        return _spectral_norm(x, ord, tuple(int(a) for a in axis), keepdims)
    return norm(x, ord, tuple(axis), keepdims)


@eager_only("ops.matrix_norm", differentiable=())
def _spectral_norm(x, ord, axis, keepdims):  # noqa: A002
    a = np.moveaxis(as_numpy(x), axis, (-2, -1))
    s = np.linalg.svd(a, compute_uv=False)
    out = s.sum(-1) if ord == "nuc" else (s.max(-1) if ord == 2 else s.min(-1))
    if keepdims:
        for ax in sorted(v % x.ndim for v in axis):
            out = np.expand_dims(out, ax)
    return result(np.asarray(out, as_numpy(x).dtype))


def matrix_determinant(input):  # noqa: A002
    """The determinant of each square matrix (:func:`det`)."""
    return det(input)


def log_matrix_determinant(input):  # noqa: A002
    """``(sign, log|det|)`` of each square matrix (:func:`slogdet`)."""
    return slogdet(input)


@eager_only("ops.matrix_exp")
def matrix_exp(input):  # noqa: A002
    """The matrix exponential ``sum_k A^k / k!`` of each square matrix (eager only)."""
    return _prim("MatrixExp")(input)


def _float_matrices(op, x, what="input"):
    """The float NumPy values of a (batch of) matrices (integers: float32)."""
    a = as_numpy(x)
    if a.ndim < 2:
        raise SporelingError("needs (a batch of) matrices", op=op,
                             expected=f"{what} of rank >= 2", got=f"shape {a.shape}")
    return a if a.dtype.kind == "f" else a.astype(np.float32)


def _per_matrix(fn, *arrays, batch):
    """``fn`` on each item of the leading ``batch`` axes of ``arrays``; results stacked."""
    outs = [fn(*(a[i] for a in arrays)) for i in np.ndindex(*batch)]
    if isinstance(outs[0], tuple):
        return tuple(np.stack(part).reshape(batch + part[0].shape) for part in zip(*outs))
    return np.stack(outs).reshape(batch + outs[0].shape)


def _lapack(name, a):
    from scipy.linalg import lapack
    return lapack.get_lapack_funcs(name, (a,))


@eager_only("ops.lstsq")
def lstsq(input, A):  # noqa: A002, N803
    """The least-squares solution ``X`` of ``input @ X = A`` (least-norm when
    under-determined): ``input`` (..., m, n), ``A`` (..., m, k) or (..., m), ``X`` (..., n, k)
    (eager only)."""
    a = _float_matrices("ops.lstsq", input)
    b = as_numpy(A).astype(a.dtype)
    vector = b.ndim == a.ndim - 1
    b = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])
    x = _per_matrix(lambda m, r: np.linalg.lstsq(m, r, rcond=None)[0], a, b, batch=batch)
    return result((x[..., 0] if vector else x).astype(a.dtype))


@eager_only("ops.lu_unpack")
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """``(P, L, U)`` from a packed LU factorisation and its 1-based pivots (eager only)."""
    return _prim("LuUnpack", unpack_data=unpack_data, unpack_pivots=unpack_pivots)(
        LU_data, LU_pivots)


@eager_only("ops.lu_solve")
def lu_solve(b, LU_data, LU_pivots):  # noqa: N803
    """The solution ``x`` of ``A x = b`` from ``A``'s packed LU factors and LAPACK's 1-based
    row swaps (``ops.lu_factor``'s), batches broadcast (eager only)."""
    from scipy.linalg import lu_solve as _solve
    rhs = _float_matrices("ops.lu_solve", b, "b")
    lu = _float_matrices("ops.lu_solve", LU_data, "LU_data").astype(rhs.dtype)
    n = lu.shape[-1]
    pivots = as_numpy(LU_pivots)
    if lu.shape[-2] != n or rhs.shape[-2] != n or pivots.ndim < 1 or pivots.shape[-1] != n \
            or pivots.dtype.kind not in "iu" or (pivots.size and (pivots.min() < 1 or
                                                                  pivots.max() > n)):
        raise SporelingError("bad LU factors", op="ops.lu_solve",
                             expected="LU_data (..., n, n), b (..., n, k) and integer "
                                      "LU_pivots (..., n) in [1, n]",
                             got=f"LU_data {lu.shape}, b {rhs.shape}, LU_pivots "
                                 f"{pivots.dtype} {pivots.shape}")
    piv = pivots.astype(np.int64) - 1
    batch = np.broadcast_shapes(rhs.shape[:-2], lu.shape[:-2], piv.shape[:-1])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    piv = np.broadcast_to(piv, batch + piv.shape[-1:])
    return result(_per_matrix(lambda r, f, p: _solve((f, p), r), rhs, lu, piv, batch=batch)
                  .astype(rhs.dtype))


@eager_only("ops.geqrf")
def geqrf(input):  # noqa: A002
    """LAPACK's ``geqrf`` of each matrix: ``(y, tau)``, R on and above the diagonal, the
    Householder vectors below it and their coefficients in ``tau`` (eager only)."""
    a = _float_matrices("ops.geqrf", input)
    fn = _lapack("geqrf", a)
    y, tau = _per_matrix(lambda m: fn(m)[:2], a, batch=a.shape[:-2])
    return result(y.astype(a.dtype)), result(tau.astype(a.dtype))


@eager_only("ops.orgqr")
def orgqr(input, input2):  # noqa: A002
    """The first ``n`` columns of the product ``Q`` of the Householder reflections that
    :func:`geqrf` returned (``input``: its ``y``, ``input2``: its ``tau``) (eager only)."""
    a = _float_matrices("ops.orgqr", input)
    tau = as_numpy(input2).astype(a.dtype)
    fn = _lapack("orgqr", a)
    return result(_per_matrix(lambda m, t: fn(m, t)[0], a, tau, batch=a.shape[:-2])
                  .astype(a.dtype))


@eager_only("ops.ormqr")
def ormqr(input, tau, other, left=True, transpose=False):  # noqa: A002
    """``Q @ other`` (``left=False``: ``other @ Q``; ``transpose``: ``Q^T``) for the full
    ``Q`` (m x m) of :func:`geqrf`'s reflections (eager only)."""
    a = _float_matrices("ops.ormqr", input)
    t = as_numpy(tau).astype(a.dtype)
    c = as_numpy(other).astype(a.dtype)
    fn = _lapack("ormqr", a)

    def one(m, coefficients, rhs):
        work = max(1, rhs.shape[1] if left else rhs.shape[0]) * 64
        return fn("L" if left else "R", "T" if transpose else "N", m, coefficients, rhs,
                  work)[0]
    return result(_per_matrix(one, a, t, c, batch=a.shape[:-2]).astype(a.dtype))


@eager_only("ops.qr")
def qr(input, mode="reduced"):  # noqa: A002
    """``(Q, R)`` of each matrix; ``mode`` ``"reduced"`` or ``"complete"`` (eager only)."""
    if mode not in ("reduced", "complete"):
        raise SporelingError("unknown mode", op="ops.qr", expected="'reduced' or 'complete'",
                             got=repr(mode))
    a = _float_matrices("ops.qr", input)
    q, r = np.linalg.qr(a, mode)
    return result(q.astype(a.dtype)), result(r.astype(a.dtype))


def cholesky_inverse(input_x, upper=False):
    """The inverse of ``A`` from its Cholesky factor (``A = L L^T``; ``upper``: ``U^T U``)."""
    factor = tensor(input_x)
    t = ops.swap_last_axes(factor)
    return inverse(ops.matmul(t, factor) if upper else ops.matmul(factor, t))


def _quantile(op, fn, input, q, axis, keepdims):  # noqa: A002
    a = as_numpy(input)
    if a.dtype.kind != "f":
        raise SporelingError("needs a float tensor", op=op, expected="float32 or float64",
                             got=str(a.dtype))
    qs = as_numpy(q)
    if np.any((qs < 0) | (qs > 1)):
        raise SporelingError("q must lie in [0, 1]", op=op, expected="0 <= q <= 1",
                             got=qs.tolist())
    out = fn(a, qs, axis=None if axis is None else int(axis), keepdims=keepdims)
    return result(np.asarray(out, a.dtype))


@eager_only("ops.quantile")
def quantile(input, q, axis=None, keepdims=False):  # noqa: A002
    """The ``q``-th quantiles (linear interpolation) over ``axis`` (None: all elements); a
    1-D ``q`` puts its axis first in the result."""
    return _quantile("ops.quantile", np.quantile, input, q, axis, keepdims)


@eager_only("ops.nanquantile")
def nanquantile(input, q, axis=None, keepdims=False):  # noqa: A002
    """:func:`quantile` ignoring NaN (NaN where a slice is all NaN)."""
    return _quantile("ops.nanquantile", np.nanquantile, input, q, axis, keepdims)
