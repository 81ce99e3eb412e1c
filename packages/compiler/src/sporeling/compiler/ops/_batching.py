"""Helpers the batching rules share: moving, inserting and broadcasting batch axes."""
from __future__ import annotations

from ...core import bind
from ..shape import broadcast_to_p, reshape_p, transpose_p

__all__ = ["batch_size", "move_axis", "to_front", "at_front", "aligned", "shift_axis",
           "shift_axes", "logical_shape"]


def batch_size(args, dims) -> int:
    """The batch size, read off the first batched operand."""
    for a, d in zip(args, dims):
        if d is not None:
            return a.shape[d]
    raise ValueError("no batched operand")


def move_axis(x, src: int, dst: int):
    """``x`` with axis ``src`` moved to position ``dst`` (the others keep their order)."""
    if src == dst:
        return x
    order = [i for i in range(len(x.shape)) if i != src]
    order.insert(dst, src)
    return bind(transpose_p, x, axes=tuple(order))


def to_front(x, d):
    """A batched ``x`` with its batch axis first; unbatched values pass through."""
    return x if d is None or d == 0 else move_axis(x, d, 0)


def logical_shape(x, d) -> tuple:
    """The per-example shape of ``x`` (its shape without the batch axis)."""
    shape = tuple(x.shape)
    return shape if d is None else shape[:d] + shape[d + 1:]


def reshape(x, shape):
    shape = tuple(shape)
    return x if tuple(x.shape) == shape else bind(reshape_p, x, shape=shape)


def at_front(x, d, size: int):
    """``x`` with the batch axis first; an unbatched ``x`` is broadcast over the batch."""
    if d is None:
        return bind(broadcast_to_p, x, shape=(size,) + tuple(x.shape))
    return to_front(x, d)


def aligned(x, d, rank: int):
    """A batched ``x`` as ``(B, 1, ..., 1, *per-example shape)`` of rank ``rank + 1``, so it
    broadcasts against per-example shapes of rank ``rank`` the way the example would;
    unbatched values pass through (NumPy aligns them on the right already)."""
    if d is None:
        return x
    x = to_front(x, d)
    inner = tuple(x.shape[1:])
    if len(inner) == rank:
        return x
    return reshape(x, (x.shape[0],) + (1,) * (rank - len(inner)) + inner)


def shift_axis(axis: int, d: int) -> int:
    """A per-example axis as an axis of the batched value whose batch axis is ``d``."""
    return axis if axis < d else axis + 1


def shift_axes(axes, d: int) -> tuple:
    return tuple(sorted(shift_axis(a, d) for a in axes))
