"""Helpers the batching rules share (moving, inserting and broadcasting batch axes), and
the rule of every ``elementwise=True`` primitive."""
from __future__ import annotations

from ..core import bind

__all__ = ["batch_size", "move_axis", "to_front", "at_front", "aligned", "shift_axis",
           "shift_axes", "logical_shape", "reshape", "elementwise_rule", "fold", "unfold"]


def _shape_prims():
    # looked up when a rule runs, not at import: shape.py loads its rules, which import us
    from .shape import broadcast_to_p, reshape_p, transpose_p
    return broadcast_to_p, reshape_p, transpose_p


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
    return bind(_shape_prims()[2], x, axes=tuple(order))


def to_front(x, d):
    """A batched ``x`` with its batch axis first; unbatched values pass through."""
    return x if d is None or d == 0 else move_axis(x, d, 0)


def logical_shape(x, d) -> tuple:
    """The per-example shape of ``x`` (its shape without the batch axis)."""
    shape = tuple(x.shape)
    return shape if d is None else shape[:d] + shape[d + 1:]


def reshape(x, shape):
    shape = tuple(shape)
    return x if tuple(x.shape) == shape else bind(_shape_prims()[1], x, shape=shape)


def at_front(x, d, size: int):
    """``x`` with the batch axis first; an unbatched ``x`` is broadcast over the batch."""
    if d is None:
        return bind(_shape_prims()[0], x, shape=(size,) + tuple(x.shape))
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


def elementwise_rule(prim):
    """The batching rule of a broadcasting elementwise primitive: the batched operands are
    lined up as ``(B, 1.., *example shape)`` so that NumPy broadcasting treats each example
    as it would alone."""
    def rule(args, dims, **params):
        if len(args) == 1:  # nothing to line up: the batch axis stays put
            return bind(prim, args[0], **params), dims[0]
        batched = [d for d in dims if d is not None]
        if len(batched) == 1 and all(d is not None or not a.shape for a, d in zip(args, dims)):
            # one batched operand, the rest scalars: no alignment needed
            return bind(prim, *args, **params), batched[0]
        rank = max(len(logical_shape(a, d)) for a, d in zip(args, dims))
        return bind(prim, *[aligned(a, d, rank) for a, d in zip(args, dims)], **params), 0
    rule.__name__ = f"batch_{prim.name}"
    return rule


def fold(x):
    """``(B, N, ...) -> (B * N, ...)``: a batch of NCHW values as more samples."""
    return reshape(x, (x.shape[0] * x.shape[1],) + tuple(x.shape[2:]))


def unfold(y, size: int):
    """The inverse of :func:`fold`: ``(B * N, ...) -> (B, N, ...)``."""
    return reshape(y, (size, y.shape[0] // size) + tuple(y.shape[1:]))
