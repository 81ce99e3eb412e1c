"""Channel-blocked activations as NumPy arrays: oneDNN's ``nChw8c`` / ``nChw16c`` layout of
an ``(N, C, H, W)`` value is the C-contiguous array ``(N, C/b, H, W, b)`` (C a multiple of
``b``, so no padding)."""
from __future__ import annotations

__all__ = ["blocked_shape", "logical_shape", "numpy_reorder"]


def blocked_shape(shape, block) -> tuple:
    """The array holding an ``(N, C, H, W)`` value: itself, or ``(N, C/block, H, W,
    block)``."""
    if not block:
        return tuple(shape)
    n, c, h, w = shape
    return (n, c // block, h, w, block)


def logical_shape(shape, block) -> tuple:
    """The ``(N, C, H, W)`` a blocked array ``(N, C/b, H, W, b)`` holds (itself if not)."""
    if not block:
        return tuple(shape)
    n, cb, h, w, b = shape
    return (n, cb * b, h, w)


def numpy_reorder(x, block, to):
    """``x`` into the channel-blocked array (``to="blocked"``, a view) or back (a copy)."""
    if to == "blocked":
        n, c, h, w = x.shape
        return x.reshape(n, c // block, block, h, w).transpose(0, 1, 3, 4, 2)
    n, cb, h, w, b = x.shape
    return x.transpose(0, 1, 4, 2, 3).reshape(n, cb * b, h, w)
