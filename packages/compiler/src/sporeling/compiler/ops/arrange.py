"""Rearranging primitives: tile, repeat, flip, roll, pad (copies, unlike most of .shape).

    >>> import numpy as np
    >>> pad(np.arange(3.0), [(1, 2)], mode="reflect")
    array([1., 0., 1., 2., 1., 0.])
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

from ..core import Aval, Primitive, bind, def_backward
from ..core.sharding import OpDims, labels, shape_of
from ._batching import shift_axes, shift_axis, to_front
from ._util import as_operand, check_axes, check_shape
from .shape import _unary_aval, normalize_axis, reshape

__all__ = ["tile", "repeat", "flip", "roll", "pad"]


tile_p = Primitive("tile")
repeat_p = Primitive("repeat")


@tile_p.def_abstract_eval
def _tile_aval(x, *, reps):
    if len(reps) != len(x.shape) or any(r < 0 for r in reps):
        raise ShapeError("bad repetitions", op="tile",
                         expected=f"{len(x.shape)} counts >= 0", got=tuple(reps))
    return Aval(tuple(n * r for n, r in zip(x.shape, reps)), x.dtype)


@def_backward(tile_p, uses=())
def _tile_bwd(ct, x, *, out, reps):
    from .reduction import sum as reduce_sum
    split_shape = tuple(d for pair in zip(reps, x.shape) for d in pair)
    g = reduce_sum(reshape(ct, split_shape), tuple(range(0, 2 * len(reps), 2)))
    return (reshape(g, tuple(x.shape)),)


def tile(x, reps):
    """``x`` repeated ``reps`` times per axis (``np.tile``).

        >>> tile(np.array([1, 2]), (2, 2))
        array([[1, 2, 1, 2],
               [1, 2, 1, 2]])
    """
    x = as_operand(x)
    reps = check_shape("tile", reps, "reps")
    ndim = len(x.shape)
    if len(reps) > ndim:
        x = reshape(x, (1,) * (len(reps) - ndim) + tuple(x.shape))
    reps = (1,) * (len(x.shape) - len(reps)) + reps
    _tile_aval(x, reps=reps)
    if all(r == 1 for r in reps):
        return x
    return bind(tile_p, x, reps=reps)


@repeat_p.def_abstract_eval
def _repeat_aval(x, *, repeats, axis):
    shape = tuple(x.shape)
    normalize_axis("repeat", axis, len(shape))
    return Aval(shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:], x.dtype)


@def_backward(repeat_p, uses=())
def _repeat_bwd(ct, x, *, out, repeats, axis):
    from .reduction import sum as reduce_sum
    shape = tuple(x.shape)
    g = reshape(ct, shape[:axis] + (shape[axis], repeats) + shape[axis + 1:])
    return (reduce_sum(g, axis + 1),)


def repeat(x, repeats: int, axis=None):
    """Each element repeated ``repeats`` times along ``axis`` (None: of the flattened ``x``).

        >>> repeat(np.array([1, 2]), 2)
        array([1, 1, 2, 2])
    """
    x = as_operand(x)
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)) or repeats < 0:
        raise ShapeError("bad repeat count", op="repeat", expected="an int >= 0",
                         got=repr(repeats))
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = normalize_axis("repeat", axis, len(x.shape))
    if repeats == 1:
        return x
    return bind(repeat_p, x, repeats=int(repeats), axis=axis)


# ---------------------------------------------------------------- flip, roll
flip_p = Primitive("flip", core=True)
roll_p = Primitive("roll")
flip_p.def_abstract_eval(_unary_aval)
roll_p.def_abstract_eval(_unary_aval)


@def_backward(flip_p, uses=())
def _flip_bwd(ct, x, *, out, axis):
    return (flip(ct, axis),)


def flip(x, axis=None):
    """``x`` reversed along ``axis`` (None: every axis; an int or a tuple); a view."""
    x = as_operand(x)
    axes = check_axes("flip", axis, len(x.shape))
    if not axes or not x.shape:
        return x
    return bind(flip_p, x, axis=axes)


@def_backward(roll_p, uses=())
def _roll_bwd(ct, x, *, out, shift, axis):
    return (bind(roll_p, ct, shift=tuple(-s for s in shift), axis=axis),)


def roll(x, shift, axis=None):
    """Elements shifted cyclically by ``shift`` along ``axis`` (``np.roll``; None: the
    flattened ``x``). ``shift`` and ``axis`` may be tuples of one length.

        >>> roll(np.arange(5), 2)
        array([3, 4, 0, 1, 2])
    """
    x = as_operand(x)
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, 0), tuple(x.shape))
    axes = check_shape("roll", axis, "axis")
    shifts = check_shape("roll", shift, "shift")
    shifts = shifts * len(axes) if isinstance(shift, (int, np.integer)) else shifts
    if len(shifts) != len(axes):
        raise ShapeError("shift and axis lengths differ", op="roll",
                         expected=f"{len(axes)} shifts", got=repr(shift))
    axes = tuple(normalize_axis("roll", a, len(x.shape)) for a in axes)
    total = {}
    for a, s in zip(axes, shifts):  # repeated axes add up, as in NumPy
        total[a] = (total.get(a, 0) + int(s)) % max(x.shape[a], 1)
    total = {a: s for a, s in total.items() if s}
    if not total:
        return x
    return bind(roll_p, x, shift=tuple(total.values()), axis=tuple(total))


# ---------------------------------------------------------------- pad
pad_p = Primitive("pad", core=True)


@pad_p.def_abstract_eval
def _pad_aval(x, *, pad_width, mode, value):
    shape = tuple(x.shape)
    if len(pad_width) != len(shape) or any(a < 0 or b < 0 for a, b in pad_width):
        raise ShapeError("bad pad widths", op="pad",
                         expected=f"{len(shape)} pairs of ints >= 0", got=repr(pad_width))
    if mode not in ("constant", "reflect"):
        raise ShapeError("unknown pad mode", op="pad", expected="'constant' or 'reflect'",
                         got=repr(mode))
    if mode == "reflect" and any(max(p) >= n and max(p) > 0
                                 for p, n in zip(pad_width, shape)):
        raise ShapeError("reflect padding wider than the input", op="pad",
                         expected="each pad < the size of its axis",
                         got=f"pad {tuple(pad_width)} for shape {shape}")
    return Aval(tuple(n + a + b for n, (a, b) in zip(shape, pad_width)), x.dtype)


@def_backward(pad_p, uses=())
def _pad_bwd(ct, x, *, out, pad_width, mode, value):
    from .indexing import strided_slice
    shape = tuple(x.shape)
    starts = tuple(a for a, _ in pad_width)
    if mode == "constant":
        return (strided_slice(ct, starts, tuple(a + n for a, n in zip(starts, shape))),)
    from .elementwise import add
    g = ct
    for axis in reversed(range(len(shape))):  # undo the axes in reverse order of padding
        left, right = pad_width[axis]
        if not left and not right:
            continue
        n = shape[axis]

        def part(start, stop):
            return strided_slice(g, (0,) * axis + (start,), g.shape[:axis] + (stop,))

        def put(piece, before):
            widths = [(0, 0)] * len(shape)
            widths[axis] = (before, n - before - piece.shape[axis])
            return pad(flip(piece, axis), widths)

        new = part(left, left + n)
        if left:  # pad[j] = x[left - j]: the reflected rows sit at 1..left
            new = add(new, put(part(0, left), 1))
        if right:  # pad[j] = x[n - 2 - j]: at n - 1 - right .. n - 2
            new = add(new, put(part(left + n, left + n + right), n - 1 - right))
        g = new
    return (g,)


def pad(x, pad_width, mode="constant", value=0):
    """``x`` padded like ``np.pad``: ``pad_width`` is an int, one ``(before, after)`` pair,
    or a pair per axis. ``mode`` is ``"constant"`` (filled with ``value``) or ``"reflect"``
    (mirrored without the edge; each pad must be smaller than its axis).

        >>> pad(np.array([1, 2, 3]), (2, 1), mode="reflect")
        array([3, 2, 1, 2, 3, 2])
    """
    x = as_operand(x)
    ndim = len(x.shape)
    flat = check_shape("pad", np.ravel(np.asarray(pad_width, dtype=object)).tolist(),
                       "pad_width")
    try:
        width = np.broadcast_to(np.asarray(flat, dtype=np.int64).reshape(-1, 2)
                                if np.ndim(pad_width) else np.full((1, 2), flat[0]), (ndim, 2))
    except ValueError:  # neither one pair nor a pair per axis
        raise ShapeError("bad pad widths", op="pad", expected=f"{ndim} pairs of ints >= 0",
                         got=repr(pad_width)) from None
    width = tuple((int(a), int(b)) for a, b in width)
    value = value.item() if isinstance(value, np.generic) else value
    _pad_aval(x, pad_width=width, mode=mode, value=value)
    if not any(a or b for a, b in width):
        return x
    return bind(pad_p, x, pad_width=width, mode=mode, value=value)


# ---------------------------------------------------------------- vmap and sharding rules

@tile_p.def_batching
def _tile_batching(args, dims, *, reps):
    x = to_front(args[0], dims[0])
    return bind(tile_p, x, reps=(1,) + tuple(reps)), 0


@repeat_p.def_batching
def _repeat_batching(args, dims, *, repeats, axis):
    (x,), (d,) = args, dims
    return bind(repeat_p, x, repeats=repeats, axis=shift_axis(axis, d)), d


@flip_p.def_batching
def _flip_batching(args, dims, *, axis):
    (x,), (d,) = args, dims
    return bind(flip_p, x, axis=shift_axes(axis, d)), d


@roll_p.def_batching
def _roll_batching(args, dims, *, shift, axis):
    (x,), (d,) = args, dims
    return bind(roll_p, x, shift=shift, axis=tuple(shift_axis(a, d) for a in axis)), d


@pad_p.def_batching
def _pad_batching(args, dims, *, pad_width, mode, value):
    (x,), (d,) = args, dims
    width = tuple(pad_width[:d]) + ((0, 0),) + tuple(pad_width[d:])
    return bind(pad_p, x, pad_width=width, mode=mode, value=value), d


@pad_p.def_sharding_rule
def _pad_sharding(eq):
    """Padded axes stay whole; the others split."""
    names = labels(len(shape_of(eq.inputs[0])))
    fixed = {lab for lab, width in zip(names, eq.params["pad_width"]) if tuple(width) != (0, 0)}
    return OpDims([names], [names], fixed)
