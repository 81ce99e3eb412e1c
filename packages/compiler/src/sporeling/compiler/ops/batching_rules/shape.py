"""Batching rules of the shape and rearranging primitives: reshape, broadcast_to, transpose,
concat, split, tile, repeat, flip, roll, pad, slice, tril/triu."""
from __future__ import annotations

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ._util import at_front, batch_size, reshape, shift_axes, shift_axis, to_front

_P = defined_primitives()


@def_batching(_P["reshape"])
def _reshape_rule(args, dims, *, shape):
    x = to_front(args[0], dims[0])
    return reshape(x, (x.shape[0],) + tuple(shape)), 0


@def_batching(_P["broadcast_to"])
def _broadcast_to_rule(args, dims, *, shape):
    x = to_front(args[0], dims[0])
    inner = tuple(x.shape[1:])
    x = reshape(x, (x.shape[0],) + (1,) * (len(shape) - len(inner)) + inner)
    return bind(_P["broadcast_to"], x, shape=(x.shape[0],) + tuple(shape)), 0


@def_batching(_P["transpose"])
def _transpose_rule(args, dims, *, axes):
    x = to_front(args[0], dims[0])
    return bind(_P["transpose"], x, axes=(0,) + tuple(a + 1 for a in axes)), 0


@def_batching(_P["concat"])
def _concat_rule(args, dims, *, axis):
    size = batch_size(args, dims)
    xs = [at_front(x, d, size) for x, d in zip(args, dims)]
    return bind(_P["concat"], *xs, axis=axis + 1), 0


@def_batching(_P["split"])
def _split_rule(args, dims, *, indices, axis):
    (x,), (d,) = args, dims
    outs = bind(_P["split"], x, indices=indices, axis=shift_axis(axis, d))
    return outs, (d,) * len(outs)


@def_batching(_P["tile"])
def _tile_rule(args, dims, *, reps):
    x = to_front(args[0], dims[0])
    return bind(_P["tile"], x, reps=(1,) + tuple(reps)), 0


@def_batching(_P["repeat"])
def _repeat_rule(args, dims, *, repeats, axis):
    (x,), (d,) = args, dims
    return bind(_P["repeat"], x, repeats=repeats, axis=shift_axis(axis, d)), d


@def_batching(_P["flip"])
def _flip_rule(args, dims, *, axis):
    (x,), (d,) = args, dims
    return bind(_P["flip"], x, axis=shift_axes(axis, d)), d


@def_batching(_P["roll"])
def _roll_rule(args, dims, *, shift, axis):
    (x,), (d,) = args, dims
    return bind(_P["roll"], x, shift=shift, axis=tuple(shift_axis(a, d) for a in axis)), d


@def_batching(_P["pad"])
def _pad_rule(args, dims, *, pad_width, mode, value):
    (x,), (d,) = args, dims
    width = tuple(pad_width[:d]) + ((0, 0),) + tuple(pad_width[d:])
    return bind(_P["pad"], x, pad_width=width, mode=mode, value=value), d


@def_batching(_P["slice"])
def _slice_rule(args, dims, *, slices):
    (x,), (d,) = args, dims
    full = ((0, x.shape[d], 1),)
    return bind(_P["slice"], x, slices=tuple(slices[:d]) + full + tuple(slices[d:])), d


def _triangle_rule(prim):
    def rule(args, dims, *, k):
        (x,), (d,) = args, dims
        if d >= len(x.shape) - 2:  # the batch axis sits among the matrix axes: move it out
            x, d = to_front(x, d), 0
        return bind(prim, x, k=k), d
    return rule


for _name in ("tril", "triu"):
    def_batching(_P[_name])(_triangle_rule(_P[_name]))
