"""``ms.mint.linalg`` (MindSpore 2.10's, PyTorch's ``torch.linalg`` names) over ``ms.ops``:
``inv``, ``norm``, ``vector_norm``, ``matrix_norm``. (``qr`` is left out: Sporeling has no QR
decomposition.)"""
from __future__ import annotations

from .. import ops as _ops

__all__ = ["inv", "norm", "vector_norm", "matrix_norm"]


def _cast(x, dtype):
    return x if dtype is None else x.astype(dtype)


def inv(input):  # noqa: A002
    """The inverse of each square matrix of ``input`` (..., n, n)."""
    return _ops.inverse(input)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    """A vector or matrix norm, as ``torch.linalg.norm`` (``ord=None``: 2-norm of the
    flattened input, Frobenius over a 2-tuple ``dim``)."""
    return _ops.norm(_cast(A, dtype), ord, dim, keepdim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The ``ord``-norm of ``x`` as a vector over ``dim`` (every dimension for None; several
    dimensions are flattened together)."""
    x = _cast(x, dtype)
    ndim = x.ndim
    dims = tuple(range(ndim)) if dim is None else ((dim,) if isinstance(dim, int) else
                                                   tuple(dim))
    dims = tuple(sorted(d % max(ndim, 1) for d in dims))
    rest = [d for d in range(ndim) if d not in dims]
    moved = _ops.permute(x, (*rest, *dims)) if ndim else x
    flat = _ops.reshape(moved, tuple(x.shape[d] for d in rest) + (-1,))
    out = _ops.norm(flat, ord, -1, False)
    if keepdim:
        out = _ops.reshape(out, tuple(1 if d in dims else x.shape[d] for d in range(ndim)))
    return out


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002,N803
    """The ``ord`` matrix norm ('fro', inf, -inf, 1, -1; 'nuc' and 2, -2 need an SVD, which
    Sporeling lacks: ``ops.norm`` refuses them) over the two ``dim``."""
    return _ops.norm(_cast(A, dtype), ord, tuple(dim), keepdim)
