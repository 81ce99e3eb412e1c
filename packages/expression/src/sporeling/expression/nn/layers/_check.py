"""Input checks shared by the layers: a wrong shape raises a ShapeError that names the layer
class, the shape it expected and the shape it got."""
from __future__ import annotations

from sporeling.core import ShapeError

__all__ = ["shape_error", "check_last_dim", "check_ndim"]


def shape_error(cell, message: str, expected, got) -> ShapeError:
    """A ShapeError whose ``op`` is the layer's class name."""
    return ShapeError(message, op=type(cell).__name__, expected=expected, got=got)


def check_last_dim(cell, x, size: int, what: str = "input") -> None:
    """``x`` has at least one axis and its last one is ``size``."""
    shape = tuple(x.shape)
    if not shape or shape[-1] != size:
        raise shape_error(cell, f"wrong {what} size", f"shape (..., {size})", shape)


def check_ndim(cell, x, ndims, layout: str) -> None:
    """``x`` has one of ``ndims`` axes (``layout`` describes them, e.g. ``"(N, C, H, W)"``)."""
    shape = tuple(x.shape)
    if len(shape) not in ndims:
        raise shape_error(cell, "wrong number of dimensions", f"{layout}", shape)
