"""Activation layers (MindSpore's names and defaults) and ``get_activation`` by name.

Defaults that differ from PyTorch: ``LeakyReLU`` has ``alpha=0.2`` (PyTorch 0.01);
``GELU`` has ``approximate=True`` -- the tanh form (PyTorch's default is exact);
``Softmax``/``LogSoftmax`` take ``axis=-1`` (PyTorch ``dim``, no default).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> nn.LeakyReLU()(np.array([-1.0, 2.0], np.float32))
    array([-0.2,  2. ], dtype=float32)
"""
from __future__ import annotations

from sporeling.compiler import ops

from ..cell import Cell
from ..init import initializer

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Softplus", "ELU", "Mish", "HSigmoid", "HSwish", "Softsign",
           "PReLU", "get_activation"]


class ReLU(Cell):
    """``max(x, 0)``."""

    def construct(self, x):
        return ops.relu(x)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``."""

    def construct(self, x):
        return ops.clip(x, 0.0, 6.0)


class LeakyReLU(Cell):
    """``x`` where positive, else ``alpha * x``; MindSpore's default ``alpha`` is 0.2."""

    def __init__(self, alpha: float = 0.2):
        super().__init__()
        self.alpha = float(alpha)

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)

    def extend_repr(self) -> str:
        return f"alpha={self.alpha}"


class GELU(Cell):
    """Gaussian error linear unit; ``approximate=True`` (MindSpore's default) is the tanh
    approximation, ``False`` the exact erf form (PyTorch's default)."""

    def __init__(self, approximate: bool = True):
        super().__init__()
        self.approximate = bool(approximate)
        self._mode = "tanh" if self.approximate else "none"

    def construct(self, x):
        return ops.gelu(x, self._mode)

    def extend_repr(self) -> str:
        return f"approximate={self.approximate}"


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def construct(self, x):
        return ops.silu(x)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    """Hyperbolic tangent."""

    def construct(self, x):
        return ops.tanh(x)


class Softmax(Cell):
    """Softmax along ``axis`` (default -1)."""

    def __init__(self, axis: int = -1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmax(x, self.axis)

    def extend_repr(self) -> str:
        return f"axis={self.axis}"


class LogSoftmax(Softmax):
    """Log of the softmax along ``axis`` (default -1), computed stably."""

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta, self.threshold = float(beta), float(threshold)

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)

    def extend_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class ELU(Cell):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = float(alpha)

    def construct(self, x):
        negative = ops.mul(ops.expm1(ops.minimum(x, 0.0)), self.alpha)
        return ops.where(ops.greater(x, 0.0), x, negative)

    def extend_repr(self) -> str:
        return f"alpha={self.alpha}"


class Mish(Cell):
    """``x * tanh(softplus(x))``."""

    def construct(self, x):
        return ops.mul(x, ops.tanh(ops.softplus(x)))


class HSigmoid(Cell):
    """Hard sigmoid ``relu6(x + 3) / 6``."""

    def construct(self, x):
        return ops.div(ops.clip(ops.add(x, 3.0), 0.0, 6.0), 6.0)


class HSwish(Cell):
    """Hard swish ``x * relu6(x + 3) / 6``."""

    def construct(self, x):
        return ops.mul(x, ops.div(ops.clip(ops.add(x, 3.0), 0.0, 6.0), 6.0))


class Softsign(Cell):
    """``x / (1 + |x|)``."""

    def construct(self, x):
        return ops.div(x, ops.add(ops.abs(x), 1.0))


class PReLU(Cell):
    """Leaky ReLU with a learned slope ``w`` per channel (axis 1), or one shared slope
    (``channel=1``); MindSpore's default initial slope is 0.25."""

    def __init__(self, channel: int = 1, w=0.25):
        from ...tensor import Parameter
        super().__init__()
        self.channel = int(channel)
        self.w = Parameter(initializer(w, (self.channel,)), name="w")

    def construct(self, x):
        w = self.w
        if self.channel > 1 and len(x.shape) > 2:
            w = ops.reshape(w, (self.channel,) + (1,) * (len(x.shape) - 2))
        return ops.where(ops.greater(x, 0.0), x, ops.mul(x, w))

    def extend_repr(self) -> str:
        return f"channel={self.channel}"


_BY_NAME = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "gelu": GELU,
            "silu": SiLU, "swish": SiLU, "sigmoid": Sigmoid, "tanh": Tanh,
            "softmax": Softmax, "logsoftmax": LogSoftmax, "softplus": Softplus, "elu": ELU,
            "mish": Mish, "hsigmoid": HSigmoid, "hswish": HSwish, "softsign": Softsign,
            "prelu": PReLU}


def get_activation(name, prim_name=None):
    """An activation Cell from its name (``"relu"``, ``"gelu"``, ``"leakyrelu"``, ...);
    ``None`` gives ``None``, a Cell is returned as is."""
    if name is None or isinstance(name, Cell):
        return name
    if not isinstance(name, str) or name.lower() not in _BY_NAME:
        from sporeling.core import SporelingError
        raise SporelingError("unknown activation", op=prim_name or "get_activation",
                             expected=f"one of {', '.join(sorted(_BY_NAME))}",
                             got=repr(name))
    return _BY_NAME[name.lower()]()
