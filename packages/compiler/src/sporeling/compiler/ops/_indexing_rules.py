"""vmap and operator-parallel rules of :mod:`.indexing`'s primitives (getitem, add_at,
gather, take_along_axis, scatter_add, slice, one_hot), beside them but in a file of their own
to keep ``indexing.py`` short; ``indexing.py`` imports this module at its end.

vmap: when only the indexed value is batched, a full slice in front of the key keeps the
batch axis. When index arrays are batched, the batch axis becomes an index array of its own
(``arange(B)``, broadcast against the others), so example ``b`` reads its own row; NumPy
then puts the broadcast index axes first, and a transpose moves them to where they fall for
one example.
"""
from __future__ import annotations

import builtins

import numpy as np

from sporeling.core import ShapeError

from ..core import bind
from ..core.sharding import OpDims, labels, shape_of
from ._batching import (aligned, at_front, batch_size, elementwise_rule, logical_shape,
                        move_axis, reshape, to_front)
from .indexing import (OPERAND, add_at_p, gather_p, getitem_p, one_hot_p, scatter_add_p,
                       slice_p, take_along_axis_p)
from .shape import transpose_p

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


@getitem_p.def_batching
def _getitem_batching(args, dims, *, key):
    x, indices, dx, didx = args[0], args[1:], dims[0], dims[1:]
    groups, pos, nb = _example_layout(x, dx, indices, didx, key)
    if all(d is None for d in didx):
        out = bind(getitem_p, to_front(x, dx), *indices, key=(_FULL,) + key)
        return out, (nb if groups > 1 else 0)  # separated runs of indices go first
    size = batch_size(args, dims)
    new_key, ops = _batched_key(key, indices, didx, size, nb)
    out = bind(getitem_p, at_front(x, dx, size), *ops, key=new_key)
    if groups == 1 and pos:
        out = bind(transpose_p, out, axes=_from_batched_order(pos, nb, len(out.shape) - 1))
    return out, 0


@add_at_p.def_batching
def _add_at_batching(args, dims, *, key):
    x, u, indices = args[0], args[1], args[2:]
    dx, du, didx = dims[0], dims[1], dims[2:]
    size = batch_size(args, dims)
    groups, pos, nb = _example_layout(x, dx, indices, didx, key)
    target = getitem_p.abstract(_Aval(logical_shape(x, dx), x.dtype),
                                    *[a if d is None else _Aval(logical_shape(a, d), a.dtype)
                                      for a, d in zip(indices, didx)], key=key).shape
    rank = len(target)
    u = aligned(u, du, rank) if du is not None else \
        reshape(u, (1,) * (rank + 1 - len(u.shape)) + tuple(u.shape))
    x = at_front(x, dx, size)
    if all(d is None for d in didx):
        if groups > 1:  # the batch axis sits after the advanced ones
            u = move_axis(u, 0, nb)
        return bind(add_at_p, x, u, *indices, key=(_FULL,) + key), 0
    new_key, ops = _batched_key(key, indices, didx, size, nb)
    if groups == 1 and pos:
        u = bind(transpose_p, u, axes=_to_batched_order(pos, nb, rank))
    return bind(add_at_p, x, u, *ops, key=new_key), 0


class _Aval:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


@gather_p.def_batching
def _gather_batching(args, dims, *, axis):
    (x, idx), (dx, di) = args, dims
    if di is None:
        return bind(gather_p, to_front(x, dx), idx, axis=axis + 1), 0
    if dx is None:  # the index axes (batch among them) replace ``axis``
        return bind(gather_p, x, idx, axis=axis), axis + di
    x, idx = to_front(x, dx), to_front(idx, di)
    x = move_axis(x, axis + 1, 1)  # (B, n, *others)
    ri = len(idx.shape) - 1
    rows = np.arange(x.shape[0]).reshape((x.shape[0],) + (1,) * ri)
    out = bind(getitem_p, x, rows, idx, key=(OPERAND, OPERAND))  # (B, *I, *others)
    return bind(transpose_p, out, axes=_from_batched_order(axis, ri,
                                                               len(out.shape) - 1)), 0


def _along_axis_rule(prim):
    def rule(args, dims, *, axis):
        size = batch_size(args, dims)
        return bind(prim, *[at_front(a, d, size) for a, d in zip(args, dims)],
                    axis=axis + 1), 0
    return rule


for _prim in (take_along_axis_p, scatter_add_p):
    _prim.def_batching(_along_axis_rule(_prim))


@slice_p.def_batching
def _slice_batching(args, dims, *, slices):
    (x,), (d,) = args, dims
    full = ((0, x.shape[d], 1),)
    return bind(slice_p, x, slices=tuple(slices[:d]) + full + tuple(slices[d:])), d


one_hot_p.def_batching(elementwise_rule(one_hot_p))  # one new trailing axis: batch stays put


# ---- sharding -------------------------------------------------------------------------------

@gather_p.def_sharding_rule
def _gather_sharding(eq):
    """The gathered axis stays whole; the others, and the index axes, split."""
    xs, idx = shape_of(eq.inputs[0]), shape_of(eq.inputs[1])
    axis = eq.params["axis"]
    x, ind = labels(len(xs), "x"), labels(len(idx), "i")
    return OpDims([x, ind], [x[:axis] + ind + x[axis + 1:]], {x[axis]})


@slice_p.def_sharding_rule
def _slice_sharding(eq):
    """Axes taken whole (start 0, stop at the end, step 1) may split; sliced ones stay whole."""
    shape = shape_of(eq.inputs[0])
    names = labels(len(shape))
    fixed = {lab for lab, (start, stop, step), n in zip(names, eq.params["slices"], shape)
             if (start, stop, step) != (0, n, 1)}
    return OpDims([names], [names], fixed)


@one_hot_p.def_sharding_rule
def _one_hot_sharding(eq):
    names = labels(len(shape_of(eq.inputs[0])))
    return OpDims([names], [names + ("depth",)], {"depth"})
