"""Batching rules of indexing: getitem, add_at, gather, take_along_axis, scatter_add,
embedding and its gradient.

When only the indexed value is batched, a full slice in front of the key keeps the batch
axis. When index arrays are batched, the batch axis becomes an index array of its own
(``arange(B)``, broadcast against the others), so example ``b`` reads its own row; NumPy
then puts the broadcast index axes first, and a transpose moves them to where they fall for
one example.
"""
from __future__ import annotations

import builtins

import numpy as np

from sporeling.core import ShapeError

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ..indexing import OPERAND
from ._util import aligned, at_front, batch_size, logical_shape, move_axis, reshape, to_front

_P = defined_primitives()
_FULL = (None, None, None)


def _layout(key, shape, operands):
    """How NumPy lays out ``x[key]`` for one example: ``(groups, pos, nb)`` -- the number of
    runs of advanced indices (ints count once there is an index array), the output position
    of the run when there is one, and the rank of the advanced indices' broadcast shape."""
    if not any(isinstance(k, str) for k in key):
        return 0, 0, 0
    shapes = []  # of the advanced indices, a mask counting as its positions (1-d)
    ops = iter(operands)
    for k in key:
        if isinstance(k, str):
            a, shp = next(ops)
            shapes.append((len(shp), (1,)) if np.dtype(a.dtype).kind == "b" else (1, shp))
        elif isinstance(k, int):
            shapes.append((1, ()))
        elif isinstance(k, tuple):
            shapes.append((1, None))
        else:
            shapes.append((0, None))
    consumed = builtins.sum(n for n, _ in shapes)
    out_dims, groups, pos, prev = 0, 0, None, False
    for k, (n, shp) in zip(key, shapes):
        if shp is not None:
            if not prev:
                groups += 1
                pos = out_dims if pos is None else pos
            prev = True
            continue
        prev = False
        out_dims += len(shape) - consumed if k is Ellipsis else 1
    advanced = [shp for _, shp in shapes if shp is not None]
    return groups, pos, len(np.broadcast_shapes(*advanced))


def _batched_key(key, indices, dims, size, nb):
    """The key and index operands where ``arange(B)`` selects each example's row first."""
    new_key = [OPERAND]
    new_ops = [np.arange(size).reshape((size,) + (1,) * nb)]
    ops = iter(zip(indices, dims))
    for k in key:
        if not isinstance(k, str):
            new_key.append(k)
            continue
        a, d = next(ops)
        if np.dtype(a.dtype).kind == "b":  # a concrete mask: its positions as int arrays
            if d is not None or not isinstance(a, np.ndarray):
                raise ShapeError("a boolean mask gives a data-dependent shape", op="vmap",
                                 expected="a concrete mask shared by the batch",
                                 got="a mask that varies by example",
                                 hint="mask with where() under vmap")
            for axis_positions in np.nonzero(a):
                new_key.append(OPERAND)
                new_ops.append(axis_positions)
        else:
            new_key.append(OPERAND)
            new_ops.append(aligned(a, d, nb))
    return tuple(new_key), new_ops


def _from_batched_order(pos, nb, rank):
    """Axes taking ``(B, *advanced, *rest)`` to ``(B, *rest[:pos], *advanced, *rest[pos:])``."""
    return (0,) + tuple(range(nb + 1, nb + 1 + pos)) + tuple(range(1, nb + 1)) + \
        tuple(range(nb + 1 + pos, rank + 1))


def _to_batched_order(pos, nb, rank):
    """The inverse of :func:`_from_batched_order`."""
    return (0,) + tuple(range(pos + 1, pos + 1 + nb)) + tuple(range(1, pos + 1)) + \
        tuple(range(pos + 1 + nb, rank + 1))


def _example_layout(x, dx, indices, dims, key):
    operands = [(a, logical_shape(a, d)) for a, d in zip(indices, dims)]
    return _layout(key, logical_shape(x, dx), operands)


@def_batching(_P["getitem"])
def _getitem_rule(args, dims, *, key):
    x, indices, dx, didx = args[0], args[1:], dims[0], dims[1:]
    groups, pos, nb = _example_layout(x, dx, indices, didx, key)
    if all(d is None for d in didx):
        out = bind(_P["getitem"], to_front(x, dx), *indices, key=(_FULL,) + key)
        return out, (nb if groups > 1 else 0)  # separated runs of indices go first
    size = batch_size(args, dims)
    new_key, ops = _batched_key(key, indices, didx, size, nb)
    out = bind(_P["getitem"], at_front(x, dx, size), *ops, key=new_key)
    if groups == 1 and pos:
        out = bind(_P["transpose"], out, axes=_from_batched_order(pos, nb, len(out.shape) - 1))
    return out, 0


@def_batching(_P["add_at"])
def _add_at_rule(args, dims, *, key):
    x, u, indices = args[0], args[1], args[2:]
    dx, du, didx = dims[0], dims[1], dims[2:]
    size = batch_size(args, dims)
    groups, pos, nb = _example_layout(x, dx, indices, didx, key)
    target = _P["getitem"].abstract(_Aval(logical_shape(x, dx), x.dtype),
                                    *[a if d is None else _Aval(logical_shape(a, d), a.dtype)
                                      for a, d in zip(indices, didx)], key=key).shape
    rank = len(target)
    u = aligned(u, du, rank) if du is not None else \
        reshape(u, (1,) * (rank + 1 - len(u.shape)) + tuple(u.shape))
    x = at_front(x, dx, size)
    if all(d is None for d in didx):
        if groups > 1:  # the batch axis sits after the advanced ones
            u = move_axis(u, 0, nb)
        return bind(_P["add_at"], x, u, *indices, key=(_FULL,) + key), 0
    new_key, ops = _batched_key(key, indices, didx, size, nb)
    if groups == 1 and pos:
        u = bind(_P["transpose"], u, axes=_to_batched_order(pos, nb, rank))
    return bind(_P["add_at"], x, u, *ops, key=new_key), 0


class _Aval:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


@def_batching(_P["gather"])
def _gather_rule(args, dims, *, axis):
    (x, idx), (dx, di) = args, dims
    if di is None:
        return bind(_P["gather"], to_front(x, dx), idx, axis=axis + 1), 0
    if dx is None:  # the index axes (batch among them) replace ``axis``
        return bind(_P["gather"], x, idx, axis=axis), axis + di
    x, idx = to_front(x, dx), to_front(idx, di)
    x = move_axis(x, axis + 1, 1)  # (B, n, *others)
    ri = len(idx.shape) - 1
    rows = np.arange(x.shape[0]).reshape((x.shape[0],) + (1,) * ri)
    out = bind(_P["getitem"], x, rows, idx, key=(OPERAND, OPERAND))  # (B, *I, *others)
    return bind(_P["transpose"], out, axes=_from_batched_order(axis, ri,
                                                               len(out.shape) - 1)), 0


def _along_axis_rule(prim):
    def rule(args, dims, *, axis):
        size = batch_size(args, dims)
        return bind(prim, *[at_front(a, d, size) for a, d in zip(args, dims)],
                    axis=axis + 1), 0
    return rule


for _name in ("take_along_axis", "scatter_add"):
    def_batching(_P[_name])(_along_axis_rule(_P[_name]))


@def_batching(_P["embedding"])
def _embedding_rule(args, dims, *, padding_idx):
    (idx, table), (di, dt) = args, dims
    if dt is None:  # rows of a shared table: the index axes, batch among them, stay put
        return bind(_P["embedding"], idx, table, padding_idx=padding_idx), di
    # a table per example (padding_idx only shapes gradients, which this form ignores)
    size = batch_size(args, dims)
    idx, table = at_front(idx, di, size), to_front(table, dt)
    rows = np.arange(size).reshape((size,) + (1,) * (len(idx.shape) - 1))
    return bind(_P["getitem"], table, rows, idx, key=(OPERAND, OPERAND)), 0


@def_batching(_P["embedding_grad"])
def _embedding_grad_rule(args, dims, *, num_embeddings, padding_idx):
    # per example, a table gradient: offset example b's indices by b * num_embeddings and
    # scatter into one (B * num_embeddings, D) table
    from ..comparison import not_equal
    from ..dtype import cast
    from ..elementwise import add, mul
    size = batch_size(args, dims)
    idx, g = (at_front(a, d, size) for a, d in zip(args, dims))
    if padding_idx is not None:
        keep = cast(not_equal(idx, np.asarray(padding_idx, idx.dtype)), g.dtype)
        g = mul(g, reshape(keep, tuple(keep.shape) + (1,)))
    offsets = (np.arange(size) * num_embeddings).astype(idx.dtype)
    idx = add(idx, offsets.reshape((size,) + (1,) * (len(idx.shape) - 1)))
    flat = bind(_P["embedding_grad"], reshape(idx, (-1,)), reshape(g, (-1, g.shape[-1])),
                num_embeddings=size * num_embeddings, padding_idx=None)
    return reshape(flat, (size, num_embeddings, g.shape[-1])), 0
