"""Math on Python numbers, NumPy arrays or Tensors alike, so an update rule or a learning-rate
schedule is written once: eagerly it runs on numbers (Python's ``math``) and NumPy arrays
(NumPy: no op dispatch, which costs ~15 us a call against ~1 us), in a compiled step on
Tensors (ops: recorded into the graph)."""
from __future__ import annotations

import math

import numpy as np

from ..tensor.tensor import Tensor

__all__ = ["minimum", "maximum", "floor", "ceil", "cos", "exp", "sqrt", "where", "select"]


def _traced(*values) -> bool:
    return any(isinstance(v, Tensor) for v in values)


def _ops():
    from .. import ops
    return ops


def _arrays(*values) -> bool:
    return any(isinstance(v, (np.ndarray, np.generic)) for v in values)


def minimum(a, b):
    if _traced(a, b):
        return _ops().minimum(a, b)
    return np.minimum(a, b) if _arrays(a, b) else min(a, b)


def maximum(a, b):
    if _traced(a, b):
        return _ops().maximum(a, b)
    return np.maximum(a, b) if _arrays(a, b) else max(a, b)


def sqrt(x):
    if _traced(x):
        return _ops().sqrt(x)
    return np.sqrt(x) if _arrays(x) else math.sqrt(x)


def where(condition, if_true, if_false):
    """Elementwise select, on arrays or Tensors."""
    if _traced(condition, if_true, if_false):
        return _ops().where(condition, if_true, if_false)
    return np.where(condition, if_true, if_false)


def floor(x):
    return _ops().floor(x) if _traced(x) else math.floor(x)


def ceil(x):
    return _ops().ceil(x) if _traced(x) else math.ceil(x)


def cos(x):
    return _ops().cos(x) if _traced(x) else math.cos(x)


def exp(x):
    return _ops().exp(x) if _traced(x) else math.exp(x)


def select(condition, if_true, if_false):
    """``if_true if condition else if_false``; elementwise on a traced condition."""
    if _traced(condition, if_true, if_false):
        return _ops().where(condition, if_true, if_false)
    return if_true if condition else if_false
