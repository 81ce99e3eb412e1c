"""Channel-blocked activations as NumPy arrays: oneDNN's ``nChw8c`` / ``nChw16c`` layout of
an ``(N, C, H, W)`` value is the C-contiguous array ``(N, C/b, H, W, b)`` (C a multiple of
``b``, so no padding)."""
from __future__ import annotations

__all__ = ["blocked_shape", "logical_shape"]


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
