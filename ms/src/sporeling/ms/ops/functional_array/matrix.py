"""Diagonals and small matrix builders of MindSpore r2.3 ``mindspore.ops`` (array
operations): diag, diagflat, diagonal, diagonal_scatter, block_diag, cross, renorm. Built from
sx ops (Graph mode and gradients included)."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, canonical_axis, float_like, full_like, ops, tensor

__all__ = ["diag", "diagflat", "diagonal", "diagonal_scatter", "block_diag", "cross", "renorm"]


def diag(input):  # noqa: A002
    """A tensor of shape ``input.shape * 2`` with ``input`` on its diagonal (a 1-d input
    gives the diagonal matrix)."""
    x = tensor(input)
    n = int(np.prod(x.shape))
    flat = ops.reshape(x, (n, 1))
    eye = tensor(np.eye(n, dtype=x.dtype if x.dtype.kind != "b" else np.bool_))
    full = ops.where(eye, ops.broadcast_to(flat, (n, n)), full_like(eye if x.dtype.kind == "b"
                                                                    else ops.cast(eye, x.dtype), 0))
    return ops.reshape(full, tuple(x.shape) * 2)


def diagflat(input, offset=0):  # noqa: A002
    """The flattened input on diagonal ``offset`` of a square matrix."""
    x = ops.reshape(tensor(input), (-1,))
    n = x.shape[0]
    m = n + abs(int(offset))
    rows = np.arange(n) + max(-int(offset), 0)
    cols = np.arange(n) + max(int(offset), 0)
    zeros = ops.broadcast_to(ops.mul(ops.reshape(ops.getitem(x, slice(0, 1)), (1, 1)), 0),
                             (m, m)) if n else tensor(np.zeros((m, m), x.dtype))
    return ops.add_at(zeros, (tensor(rows), tensor(cols)), x)


def _diag_positions(shape_, offset, dim1, dim2, op):
    ndim = len(shape_)
    d1, d2 = canonical_axis(dim1, ndim, op), canonical_axis(dim2, ndim, op)
    if d1 == d2:
        raise SporelingError("dim1 and dim2 must differ", op=op, expected="two axes",
                             got=(dim1, dim2))
    n1, n2 = shape_[d1], shape_[d2]
    start1, start2 = max(-offset, 0), max(offset, 0)
    length = max(0, min(n1 - start1, n2 - start2))
    return d1, d2, np.arange(length) + start1, np.arange(length) + start2


def diagonal(input, offset=0, dim1=0, dim2=1):  # noqa: A002
    """The diagonal over axes ``dim1``, ``dim2`` (moved to the end), shifted by ``offset``."""
    x = tensor(input)
    d1, d2, r, c = _diag_positions(x.shape, int(offset), dim1, dim2, "ops.diagonal")
    rest = [a for a in range(x.ndim) if a not in (d1, d2)]
    moved = ops.transpose(x, tuple(rest) + (d1, d2))
    return ops.getitem(moved, (Ellipsis, tensor(r), tensor(c)))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):  # noqa: A002
    """``input`` with its ``diagonal(offset, dim1, dim2)`` replaced by ``src``."""
    x, s = tensor(input), tensor(src)
    d1, d2, r, c = _diag_positions(x.shape, int(offset), dim1, dim2, "ops.diagonal_scatter")
    rest = [a for a in range(x.ndim) if a not in (d1, d2)]
    perm = tuple(rest) + (d1, d2)
    moved = ops.transpose(x, perm)
    mask = np.zeros(moved.shape[-2:], bool)
    mask[r, c] = True
    scattered = ops.add_at(full_like(moved, 0), (Ellipsis, tensor(r), tensor(c)), s)
    out = ops.where(tensor(mask), scattered, moved)
    return ops.transpose(out, tuple(int(i) for i in np.argsort(perm)))


def block_diag(*inputs):
    """The tensors (2-d, or lower) as blocks along the diagonal of one matrix."""
    ts = [tensor(t) for t in inputs]
    ts = [ops.reshape(t, (1, -1)) if t.ndim < 2 else t for t in ts]
    dtype = ts[0].dtype
    total = sum(t.shape[1] for t in ts)
    rows, col = [], 0
    for t in ts:
        left, right = col, total - col - t.shape[1]
        rows.append(ops.pad(ops.cast(t, dtype), [(0, 0), (left, right)]))
        col += t.shape[1]
    return ops.concat(rows, axis=0)


def cross(input, other, dim=None):  # noqa: A002
    """The 3-d cross product along ``dim`` (the first axis of size 3 when None)."""
    a, b = tensor(input), tensor(other)
    if dim is None:
        dim = next((i for i, n in enumerate(a.shape) if n == 3), None)
        if dim is None:
            raise SporelingError("no axis of size 3", op="ops.cross", expected="an axis of 3",
                                 got=f"shape {list(a.shape)}")
    dim = canonical_axis(dim, a.ndim, "ops.cross")
    ax = [ops.getitem(a, (slice(None),) * dim + (i,)) for i in range(3)]
    bx = [ops.getitem(b, (slice(None),) * dim + (i,)) for i in range(3)]
    return ops.stack([ax[1] * bx[2] - ax[2] * bx[1], ax[2] * bx[0] - ax[0] * bx[2],
                      ax[0] * bx[1] - ax[1] * bx[0]], axis=dim)


def renorm(input_x, p, axis, maxnorm):
    """Each slice along ``axis`` rescaled so its ``p``-norm is at most ``maxnorm``."""
    x = float_like(input_x)
    axis = canonical_axis(axis, x.ndim, "ops.renorm")
    others = tuple(a for a in range(x.ndim) if a != axis)
    norms = ops.pow(ops.sum(ops.pow(ops.abs(x), float(p)), axis=others, keepdims=True),
                    1.0 / float(p))
    scale = ops.where(norms > float(maxnorm), float(maxnorm) / (norms + 1e-7),
                      full_like(norms, 1.0))
    return x * scale
