"""``clip_by_global_norm``: scale a set of gradients so their joint L2 norm is at most
``clip_norm`` (each ``g * clip_norm / max(global_norm, clip_norm)``).

    >>> import numpy as np
    >>> clipped, norm = clip_by_global_norm((np.array([3.0]), np.array([4.0])), 1.0,
    ...                                     return_norm=True)
    >>> norm, clipped
    (5.0, (array([0.6]), array([0.8])))

Inputs may be NumPy arrays or Tensors; each result has its input's kind. Runs on values
(not recorded for autodiff): it is meant for gradients, between ``grad`` and the optimiser.
Inside a Graph-mode trace it is written with ops (the norm is then a Tensor), so a jitted
training step clips in its graph.
"""
from __future__ import annotations

import math

import numpy as np

from ._arrays import to_numpy

__all__ = ["clip_by_global_norm", "global_norm"]


def global_norm(grads) -> float:
    """The L2 norm of all gradients together (``None`` entries are skipped)."""
    total = 0.0
    for g in grads:
        if g is not None:
            a = to_numpy(g)
            a = a.astype(np.float64) if a.dtype.itemsize < 4 else a
            total += float(np.vdot(a.ravel(), a.ravel()).real)
    return math.sqrt(total)


def _like(original, value: np.ndarray):
    if isinstance(original, np.ndarray) or not hasattr(original, "asnumpy"):
        return value
    from ..tensor import Tensor
    return Tensor(value)


def clip_by_global_norm(grads, clip_norm: float = 1.0, use_norm: float | None = None,
                        return_norm: bool = False):
    """Clip ``grads`` (a tuple/list of arrays or Tensors) to global norm ``clip_norm``.

    ``use_norm`` supplies a precomputed global norm (MindSpore's argument). Returns the
    clipped tuple, or ``(clipped, global_norm)`` with ``return_norm``. A non-finite norm
    leaves the gradients as they are (the loss scaler's overflow check sees them).
    """
    if isinstance(clip_norm, bool) or not clip_norm > 0:
        raise ValueError(f"clip_by_global_norm: clip_norm must be > 0, got {clip_norm!r}")
    grads = tuple(grads)
    from ..graph.tracing import is_tracing
    if is_tracing():
        return _clip_traced(grads, float(clip_norm), use_norm, return_norm)
    norm = global_norm(grads) if use_norm is None else float(use_norm)
    if norm > clip_norm and math.isfinite(norm):
        scale = clip_norm / norm
        out = []
        for g in grads:
            if g is None:
                out.append(None)
                continue
            a = to_numpy(g)
            out.append(_like(g, (a * scale).astype(a.dtype, copy=False)))
        grads = tuple(out)
    return (grads, norm) if return_norm else grads


def _clip_traced(grads, clip_norm: float, use_norm, return_norm: bool):
    """The same inside a Graph-mode trace, with ops (the norm is a float64 Tensor; the
    scale is 1 unless the norm is finite and above ``clip_norm``)."""
    from .. import ops
    from ..tensor import Tensor
    grads = tuple(None if g is None else (g if isinstance(g, Tensor) else Tensor(g))
                  for g in grads)
    if use_norm is None:
        squares = [(g * g).sum().astype(np.float64) for g in grads if g is not None]
        total = squares[0] if squares else Tensor(np.zeros((), np.float64))
        for sq in squares[1:]:
            total = total + sq
        norm = ops.sqrt(total)
    else:
        norm = use_norm if isinstance(use_norm, Tensor) else Tensor(np.float64(use_norm))
    clip = ops.logical_and(norm > clip_norm, ops.isfinite(norm))
    scale = ops.where(clip, clip_norm / norm, 1.0)
    out = tuple(None if g is None else g * scale.astype(g.dtype) for g in grads)
    return (out, norm) if return_norm else out
