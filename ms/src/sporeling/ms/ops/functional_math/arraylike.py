"""Functions that MindSpore r2.3 files under Element-wise Operations although they reshape or
combine whole tensors: ``ravel``, ``t``, ``rot90``, ``roll``, ``diag_embed``,
``combinations``, ``tril_indices``/``triu_indices``, ``cov``, ``cosine_similarity``,
``conj``, ``addmv``, ``addr`` -- composed from ``sx`` ops (differentiable, Graph-mode ready)."""
from __future__ import annotations

import itertools

import numpy as np

from ._util import ShapeError, SporelingError, Tensor, float_of, np_dtype, one_axis, ops, result, tensor
from .complex_parts import complex_input, complex_part

__all__ = ["ravel", "t", "rot90", "roll", "diag_embed", "combinations", "tril_indices",
           "triu_indices", "cov", "cosine_similarity", "conj", "addmv", "addr"]


def ravel(input):
    """``input`` flattened to 1-D."""
    return result(ops.reshape(tensor(input), (-1,)))


def t(input):
    """The transpose of a 2-D tensor (a 1-D tensor is returned as is)."""
    x = tensor(input)
    if len(x.shape) > 2:
        raise ShapeError("needs at most 2 dimensions", op="ops.t", expected="1-D or 2-D",
                         got=tuple(x.shape))
    return result(ops.transpose(x) if len(x.shape) == 2 else x)


def rot90(input, k=1, dims=(0, 1)):
    """``input`` rotated by 90 degrees ``k`` times in the plane ``dims``, from the first
    toward the second axis (``numpy.rot90``)."""
    x = tensor(input)
    d0, d1 = (one_axis("ops.rot90", d, len(x.shape)) for d in dims)
    if d0 == d1:
        raise SporelingError("the two dims must differ", op="ops.rot90",
                             expected="two different axes", got=repr(dims))
    order = list(range(len(x.shape)))
    order[d0], order[d1] = order[d1], order[d0]
    k = int(k) % 4
    if k == 1:
        return result(ops.transpose(ops.flip(x, axis=d1), tuple(order)))
    if k == 2:
        return result(ops.flip(ops.flip(x, axis=d0), axis=d1))
    if k == 3:
        return result(ops.flip(ops.transpose(x, tuple(order)), axis=d1))
    return result(x)


def roll(input, shifts, dims=None):
    """Elements shifted by ``shifts`` along ``dims`` (the flattened tensor when None),
    wrapping around."""
    return result(ops.roll(tensor(input), shifts, dims))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A batch of matrices whose ``offset`` diagonal (in the plane ``dim1``, ``dim2`` of
    the output) holds the last axis of ``input``; zeros elsewhere."""
    x = tensor(input)
    n = x.shape[-1]
    m = n + abs(int(offset))
    place = np.zeros((n, m, m), np.dtype(x.dtype))
    rows = np.arange(n) + max(0, -int(offset))
    place[np.arange(n), rows, rows + int(offset)] = 1
    out = ops.reshape(ops.matmul(x, place.reshape(n, m * m)), (*x.shape[:-1], m, m))
    nd = len(out.shape)
    a, b = dim1 % nd, dim2 % nd
    if (a, b) != (nd - 2, nd - 1):
        rest = iter(range(nd - 2))
        order = [nd - 2 if d == a else nd - 1 if d == b else next(rest) for d in range(nd)]
        out = ops.transpose(out, tuple(order))
    return result(out)


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the 1-D ``input``'s elements (``itertools``
    order), as rows of an ``(count, r)`` tensor."""
    x = tensor(input)
    if len(x.shape) != 1:
        raise ShapeError("needs a 1-D tensor", op="ops.combinations", expected="(n,)",
                         got=tuple(x.shape))
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(range(x.shape[0]), int(r))), np.int64).reshape(-1, int(r))
    if index.size == 0:
        return Tensor(np.zeros((0,), np.dtype(x.dtype)))
    return result(ops.reshape(ops.gather(x, index.reshape(-1), axis=0), index.shape))


def _triangle_indices(op, row, col, offset, dtype, lower):
    keep = (np.tril if lower else np.triu)(np.ones((int(row), int(col)), bool), int(offset))
    return Tensor(np.stack(np.nonzero(keep)).astype(np_dtype(dtype) or np.int64))


def tril_indices(row, col, offset=0, *, dtype=None):
    """The ``(2, N)`` coordinates of the lower triangle (up to diagonal ``offset``) of a
    ``row x col`` matrix, row by row."""
    return _triangle_indices("ops.tril_indices", row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=None):
    """The ``(2, N)`` coordinates of the upper triangle (from diagonal ``offset``)."""
    return _triangle_indices("ops.triu_indices", row, col, offset, dtype, False)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in
    columns), with ``numpy.cov``'s frequency/analytic weights and ``correction`` (ddof)."""
    x = float_of(input)
    if len(x.shape) == 1:
        x = ops.expand_dims(x, 0)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = ops.cast(tensor(fweights), x.dtype)
    if aweights is not None:
        aw = ops.cast(tensor(aweights), x.dtype)
        w = aw if w is None else ops.mul(w, aw)
    if w is None:
        centred = ops.sub(x, ops.mean(x, axis=1, keepdims=True))
        out = ops.div(ops.matmul(centred, ops.transpose(centred)), float(n - correction))
    else:
        total = ops.sum(w)
        avg = ops.div(ops.sum(ops.mul(x, w), axis=1, keepdims=True), total)
        centred = ops.sub(x, avg)
        if aweights is None:
            norm = ops.sub(total, float(correction))
        else:
            norm = ops.sub(total, ops.mul(float(correction),
                                          ops.div(ops.sum(ops.mul(w, aw)), total)))
        out = ops.div(ops.matmul(ops.mul(centred, w), ops.transpose(centred)), norm)
    return result(ops.squeeze(out) if len(tensor(input).shape) == 1 else out)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """``x1 . x2 / max(|x1| |x2|, eps)`` along ``dim`` (inputs broadcast)."""
    a, b = float_of(x1), float_of(x2)
    dot = ops.sum(ops.mul(a, b), axis=dim)
    norms = ops.mul(ops.sqrt(ops.sum(ops.square(a), axis=dim)),
                    ops.sqrt(ops.sum(ops.square(b), axis=dim)))
    return result(ops.div(dot, ops.maximum(norms, eps)))


def conj(input):
    """The complex conjugate (a real input is itself)."""
    x = tensor(input)
    if complex_input(x):
        return complex_part("ops.conj", np.conj, x)
    return result(x)


def _scaled(x, s):
    return x if s == 1 else ops.mul(x, s)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return result(ops.add(_scaled(tensor(input), beta),
                          _scaled(ops.matmul(tensor(mat), tensor(vec)), alpha)))


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``."""
    return result(ops.add(_scaled(tensor(x), beta),
                          _scaled(ops.outer(tensor(vec1), tensor(vec2)), alpha)))
