"""Batching rules of matmul and einsum."""
from __future__ import annotations

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ..linalg import _LETTERS
from ._util import logical_shape, reshape, to_front

_P = defined_primitives()


@def_batching(_P["matmul"])
def _matmul_rule(args, dims, **params):
    (x, y), (dx, dy) = args, dims
    xs, ys = logical_shape(x, dx), logical_shape(y, dy)
    out_shape = _P["matmul"].abstract(_Shape(xs, x.dtype), _Shape(ys, y.dtype)).shape
    # vectors become 1-row / 1-column matrices, then every operand has its batch dims
    x = _as_matrix(x, dx, xs, row=True)
    y = _as_matrix(y, dy, ys, row=False)
    rank = max(len(xs), len(ys), 2)
    x, y = _pad(x, dx, rank), _pad(y, dy, rank)
    out = bind(_P["matmul"], x, y)
    return reshape(out, (out.shape[0],) + tuple(out_shape)), 0


class _Shape:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


def _as_matrix(v, d, shape, row):
    if d is None:
        if len(shape) == 1:
            return reshape(v, (1,) + shape if row else shape + (1,))
        return v
    v = to_front(v, d)
    if len(shape) == 1:
        return reshape(v, (v.shape[0],) + ((1,) + shape if row else shape + (1,)))
    return v


def _pad(v, d, rank):
    if d is None:
        return v  # NumPy aligns an unbatched operand on the right already
    inner = tuple(v.shape[1:])
    return reshape(v, (v.shape[0],) + (1,) * (rank - len(inner)) + inner)


@def_batching(_P["einsum"])
def _einsum_rule(args, dims, *, subscripts):
    letter = next(c for c in _LETTERS if c not in subscripts)  # a fresh index: the batch
    ins, out = subscripts.split("->")
    subs, xs = [], []
    for sub, x, d in zip(ins.split(","), args, dims):
        if d is None:
            subs.append(sub)
            xs.append(x)
        else:
            subs.append(letter + sub)
            xs.append(to_front(x, d))
    return bind(_P["einsum"], *xs, subscripts=",".join(subs) + "->" + letter + out), 0
