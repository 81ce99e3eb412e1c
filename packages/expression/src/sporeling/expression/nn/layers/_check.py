"""Input checks shared by the layers: a wrong shape raises a ShapeError that names the layer
class, the shape it expected and the shape it got; something that is no tensor at all
(``None``, a string) an ArgumentError."""
from __future__ import annotations

from sporeling.core import ArgumentError, ShapeError

__all__ = ["shape_error", "shape_of", "check_last_dim", "check_ndim"]


def shape_error(cell, message: str, expected, got) -> ShapeError:
    """A ShapeError whose ``op`` is the layer's class name."""
    return ShapeError(message, op=type(cell).__name__, expected=expected, got=got)


def shape_of(cell, x, what: str = "input") -> tuple:
    """``x``'s shape, or an ArgumentError naming the layer when ``x`` is no tensor."""
    shape = getattr(x, "shape", None)
    if shape is None:
        raise ArgumentError(f"{what} is not a tensor", op=type(cell).__name__,
                            expected="a Tensor or an array", got=f"{type(x).__name__} {x!r}"[:80])
    return tuple(shape)


def check_last_dim(cell, x, size: int, what: str = "input") -> None:
    """``x`` has at least one axis and its last one is ``size``."""
    shape = shape_of(cell, x, what)
    if not shape or shape[-1] != size:
        raise shape_error(cell, f"wrong {what} size", f"shape (..., {size})", shape)


def check_ndim(cell, x, ndims, layout: str) -> None:
    """``x`` has one of ``ndims`` axes (``layout`` describes them, e.g. ``"(N, C, H, W)"``)."""
    shape = shape_of(cell, x)
    if len(shape) not in ndims:
        raise shape_error(cell, "wrong number of dimensions", f"{layout}", shape)
