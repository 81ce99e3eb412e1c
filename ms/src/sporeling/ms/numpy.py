"""``ms.numpy``: the array-creation functions of MindSpore 2.10's ``mindspore.numpy`` that
model code imports (mindcv's ``DropPath``: ``from mindspore.numpy import ones``), over the
facade's ``ops``. Defaults as 2.10's: ``ones``/``zeros`` float32, ``ones_like``/``zeros_like``
the input's dtype."""
from __future__ import annotations

from . import ops as _ops
from .common import dtype as _mstype

__all__ = ["ones", "zeros", "ones_like", "zeros_like"]


def ones(shape, dtype=_mstype.float32):
    """Ones of ``shape`` (an int or a tuple), float32 unless ``dtype``."""
    return _ops.ones(shape, dtype)


def zeros(shape, dtype=_mstype.float32):
    """Zeros of ``shape`` (an int or a tuple), float32 unless ``dtype``."""
    return _ops.zeros(shape, dtype)


def ones_like(a, dtype=None, shape=None):
    """Ones of ``a``'s shape (or ``shape``) and dtype (or ``dtype``)."""
    return ones(tuple(a.shape) if shape is None else shape, a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, shape=None):
    """Zeros of ``a``'s shape (or ``shape``) and dtype (or ``dtype``)."""
    return zeros(tuple(a.shape) if shape is None else shape,
                 a.dtype if dtype is None else dtype)
