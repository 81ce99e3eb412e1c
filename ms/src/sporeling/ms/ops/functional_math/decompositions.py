"""The iterative decompositions of ``mindspore.ops`` (r2.3): ``svd``, ``pinv``, ``cond``.

They need an iterative SVD, which has no ``sx`` primitive, so they compute with
``numpy.linalg`` on the tensors' values: PyNative only (``EagerOnlyError`` under a
Graph-mode trace), no gradient. Determinants, inverses and solves are in :mod:`.solvers`.
"""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ._util import SporelingError, Tensor, as_numpy

__all__ = ["svd", "pinv", "cond"]


def _linalg(op: str, fn, *args):
    try:
        return fn(*args)
    except np.linalg.LinAlgError as exc:
        raise SporelingError("the matrix has no such decomposition", op=op,
                             expected="a non-singular (positive definite for cholesky) "
                                      "matrix", got=str(exc)) from None


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

