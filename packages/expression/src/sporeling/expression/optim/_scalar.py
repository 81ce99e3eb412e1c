"""Math on a Python number or a Tensor alike: a learning-rate schedule is written once and
runs on the int step eagerly (Python's ``math``: floats) and on the step counter's Tensor in a
compiled step (ops: recorded into the graph)."""
from __future__ import annotations

import math

from ..tensor.tensor import Tensor

__all__ = ["minimum", "maximum", "floor", "ceil", "cos", "exp", "select"]


def _traced(*values) -> bool:
    return any(isinstance(v, Tensor) for v in values)


def _ops():
    from .. import ops
    return ops


def minimum(a, b):
    return _ops().minimum(a, b) if _traced(a, b) else min(a, b)


def maximum(a, b):
    return _ops().maximum(a, b) if _traced(a, b) else max(a, b)


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
