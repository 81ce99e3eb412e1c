"""Loss scaling: multiply the loss before the backward pass so small float16 gradients do
not flush to zero, divide the gradients after, and (dynamic) adapt the factor to overflows.

MindSpore's ``amp.StaticLossScaler`` / ``amp.DynamicLossScaler`` / ``amp.all_finite``
(PyTorch's ``GradScaler`` is the dynamic one: ``init_scale``, ``growth_factor`` and
``growth_interval`` are ``scale_value``, ``scale_factor`` and ``scale_window``).

    >>> import numpy as np
    >>> scaler = DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1000)
    >>> grads = (np.array([1.0, np.nan], np.float32),)
    >>> finite = all_finite(grads)
    >>> bool(finite)
    False
    >>> scaler.adjust(finite)
    False
    >>> scaler.scale_value
    512.0
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.core import SporelingError, dtypes
from sporeling.expression import Parameter, Tensor, ops
from sporeling.expression.graph.tracing import is_tracing

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite"]


def _map(fn, value):
    if isinstance(value, (tuple, list)):
        return type(value)(_map(fn, v) for v in value)
    return None if value is None else fn(value)


def _positive(name: str, value, op: str, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not value > minimum:
        raise SporelingError(f"bad {name}", op=op, expected=f"a finite number > {minimum:g}",
                             got=repr(value))
    return float(value)


def all_finite(inputs):
    """True (a bool Tensor) when no array of ``inputs`` (a tuple/list of Tensors or arrays,
    None entries skipped) holds an inf or NaN."""
    result = None
    for x in inputs:
        if x is None:
            continue
        ok = ops.all(ops.isfinite(x))
        result = ok if result is None else ops.logical_and(result, ok)
    return Tensor(np.array(True)) if result is None else result


class LossScaler:
    """Base: ``scale(loss)``, ``unscale(grads)``, ``adjust(grads_finite)``."""

    scale_value: float = 1.0

    def scale(self, inputs):
        """``inputs`` (a Tensor or a tuple/list of them) times :attr:`scale_value`."""
        s = self.scale_value
        return _map(lambda x: x * s, inputs)

    def unscale(self, inputs):
        """``inputs`` divided by :attr:`scale_value`."""
        s = self.scale_value
        return _map(lambda x: x / s, inputs)

    def adjust(self, grads_finite):
        """Update the scale after a step; returns whether the step's gradients were finite
        (the update should be applied; inside a Graph-mode trace the bool Tensor)."""
        return grads_finite if is_tracing() else bool(grads_finite)


class StaticLossScaler(LossScaler):
    """A fixed ``scale_value``."""

    def __init__(self, scale_value: float):
        self.scale_value = _positive("scale_value", scale_value, "StaticLossScaler")

    def __repr__(self) -> str:
        return f"StaticLossScaler(scale_value={self.scale_value:g})"


class DynamicLossScaler(LossScaler):
    """A scale that adapts: after ``scale_window`` finite steps in a row it is multiplied by
    ``scale_factor``; an overflow divides it by ``scale_factor`` (not below 1) and restarts
    the count.

    The scale and the count live in two Parameters (``scale_value``, ``counter``), as in
    MindSpore: inside a Graph-mode trace ``scale_value`` is that Parameter and ``adjust``
    writes them with ops, so a compiled step that scales, checks and adjusts (MindSpore's
    loss-scaling tutorial: ``if is_finite: optimizer(grads)`` then
    ``loss_scaler.adjust(is_finite)``) reads and updates the scale of each call; eagerly
    ``scale_value`` is a float and ``counter`` an int."""

    def __init__(self, scale_value: float = 2.0 ** 16, scale_factor: float = 2.0,
                 scale_window: int = 2000):
        op = "DynamicLossScaler"
        value = _positive("scale_value", scale_value, op)
        self.scale_factor = _positive("scale_factor", scale_factor, op, 1.0)
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or \
                scale_window < 1:
            raise SporelingError("bad scale_window", op=op, expected="an int >= 1",
                                 got=repr(scale_window))
        self.scale_window = scale_window
        self._scale = Parameter(np.array(value, np.float32), name="scale_value",
                                requires_grad=False)
        self._counter = Parameter(np.array(0, np.int32), name="counter",  # finite steps
                                  requires_grad=False)                   # since a change

    @property
    def scale_value(self):
        """The current scale: a float; inside a Graph-mode trace the Parameter holding it."""
        return self._scale if is_tracing() else float(self._scale.asnumpy())

    @property
    def counter(self):
        """Finite steps since the scale last changed (the Parameter inside a trace)."""
        return self._counter if is_tracing() else int(self._counter.asnumpy())

    def adjust(self, grads_finite):
        """Update the scale after a step; returns whether the step's gradients were finite
        (a bool; inside a trace the bool Tensor)."""
        if is_tracing():
            return self._adjust_traced(grads_finite)
        finite = bool(grads_finite)
        scale, counter = float(self._scale.asnumpy()), int(self._counter.asnumpy()) + 1
        if not finite:
            scale, counter = max(1.0, scale / self.scale_factor), 0
        elif counter >= self.scale_window:
            grown = scale * self.scale_factor
            scale, counter = (grown if math.isfinite(grown) else scale), 0
        self._scale.set_data(np.array(scale, np.float32))
        self._counter.set_data(np.array(counter, np.int32))
        return finite

    def _adjust_traced(self, finite):
        """The same rule as ops on the two Parameters (selects, no Python branch)."""
        finite = ops.cast(finite, dtypes.bool_)
        scale, counter = self._scale, self._counter + 1
        grow = ops.logical_and(finite, counter >= self.scale_window)
        grown = scale * self.scale_factor
        grown = ops.where(ops.isfinite(grown), grown, scale)
        shrunk = ops.maximum(scale / self.scale_factor, 1.0)
        self._scale.set_data(ops.where(finite, ops.where(grow, grown, scale), shrunk))
        self._counter.set_data(ops.where(ops.logical_and(finite, ops.logical_not(grow)),
                                         counter, 0))
        return finite

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(scale_value={float(self._scale.asnumpy()):g}, "
                f"scale_factor={self.scale_factor:g}, scale_window={self.scale_window})")
