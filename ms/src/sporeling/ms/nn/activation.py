"""Nonlinear activation cells of ``ms.nn`` (MindSpore 2.x names and defaults).

Where MindSpore differs from PyTorch: ``LeakyReLU``'s default slope is 0.2 (PyTorch 0.01);
``GELU`` defaults to the tanh approximation (``approximate=True``); ``LRN`` follows
TensorFlow (``alpha`` multiplies the plain sum of squares, not its mean).
"""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import (ELU, GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax, Mish,
                                     PReLU, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Softsign, Tanh)
from sporeling.expression.nn import get_activation as _sx_get_activation

from .cell import Cell

ops = sx.ops

__all__ = ["CELU", "ELU", "FastGelu", "GELU", "GLU", "Hardtanh", "HShrink", "HSigmoid",
           "HSwish", "LeakyReLU", "LogSigmoid", "LogSoftmax", "LRN", "Mish", "Softsign",
           "PReLU", "ReLU", "ReLU6", "RReLU", "SeLU", "SiLU", "Sigmoid", "Softmin", "Softmax",
           "Softmax2d", "SoftShrink", "Tanh", "Tanhshrink", "Threshold", "get_activation"]


class CELU(Cell):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def __init__(self, alpha: float = 1.0):
        super().__init__()
        if alpha == 0:
            raise ValueError("CELU: alpha must not be 0")
        self.alpha = float(alpha)

    def construct(self, x):
        neg = ops.mul(ops.expm1(ops.div(ops.minimum(x, 0.0), self.alpha)), self.alpha)
        return ops.add(ops.maximum(x, 0.0), neg)


class FastGelu(Cell):
    """MindSpore's fast GELU: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""

    def construct(self, x):
        ax = ops.abs(x)
        den = ops.add(ops.exp(ops.mul(ax, -1.702)), 1.0)
        return ops.mul(ops.div(x, den), ops.exp(ops.mul(ops.sub(x, ax), 0.851)))


class GLU(Cell):
    """Gated linear unit: split ``axis`` in halves ``a, b`` and return ``a * sigmoid(b)``."""

    def __init__(self, axis: int = -1):
        super().__init__()
        self.axis = int(axis)

    def construct(self, x):
        if x.shape[self.axis] % 2:
            raise ShapeError("odd size on the split axis", op="GLU",
                             expected=f"an even size on axis {self.axis}", got=tuple(x.shape))
        a, b = ops.split(x, 2, self.axis)
        return ops.mul(a, ops.sigmoid(b))


class Hardtanh(Cell):
    """Clip to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0):
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"Hardtanh: min_val {min_val} must be < max_val {max_val}")
        self.min_val, self.max_val = float(min_val), float(max_val)

    def construct(self, x):
        return ops.clip(x, self.min_val, self.max_val)


class HShrink(Cell):
    """Hard shrink: ``x`` where ``|x| > lambd``, else 0."""

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = float(lambd)

    def construct(self, x):
        return ops.where(ops.greater(ops.abs(x), self.lambd), x, ops.mul(x, 0.0))


class LogSigmoid(Cell):
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``."""

    def construct(self, x):
        return ops.neg(ops.softplus(ops.neg(x)))


class LRN(Cell):
    """Local response normalisation across channels (NCHW), TensorFlow's definition:
    ``x / (bias + alpha * sum_{|c'-c| <= depth_radius} x_{c'}^2) ** beta``."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5, norm_region: str = "ACROSS_CHANNELS"):
        super().__init__()
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"LRN: norm_region must be 'ACROSS_CHANNELS', got {norm_region!r}")
        self.depth_radius, self.bias = int(depth_radius), float(bias)
        self.alpha, self.beta = float(alpha), float(beta)

    def construct(self, x):
        if len(x.shape) != 4:
            raise ShapeError("wrong input rank", op="LRN", expected="(N, C, H, W)",
                             got=tuple(x.shape))
        r, c = self.depth_radius, x.shape[1]
        sq = ops.pad(ops.square(x), ((0, 0), (r, r), (0, 0), (0, 0)))
        total = ops.getitem(sq, (slice(None), slice(0, c)))
        for i in range(1, 2 * r + 1):
            total = ops.add(total, ops.getitem(sq, (slice(None), slice(i, i + c))))
        return ops.div(x, ops.pow(ops.add(ops.mul(total, self.alpha), self.bias), self.beta))


class RReLU(Cell):
    """Randomized leaky ReLU: negative slope ~ U(lower, upper) per element while training,
    ``(lower + upper) / 2`` otherwise."""

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3):
        super().__init__()
        if not lower <= upper:
            raise ValueError(f"RReLU: lower {lower} must be <= upper {upper}")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x):
        if self.training:
            slope = ops.cast(ops.uniform(tuple(x.shape), self.lower, self.upper), x.dtype)
        else:
            slope = (self.lower + self.upper) / 2.0
        return ops.where(ops.greater_equal(x, 0.0), x, ops.mul(x, slope))


class SeLU(Cell):
    """``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))``, alpha 1.67326...,
    scale 1.05070..."""
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

    def construct(self, x):
        neg = ops.mul(ops.expm1(ops.minimum(x, 0.0)), self.alpha)
        return ops.mul(ops.add(ops.maximum(x, 0.0), neg), self.scale)


class Softmin(Cell):
    """``softmax(-x)`` along ``axis``."""

    def __init__(self, axis: int = -1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmax(ops.neg(x), self.axis)


class Softmax2d(Cell):
    """Softmax over the channel axis of (C, H, W) or (N, C, H, W) (axis -3)."""

    def construct(self, x):
        if len(x.shape) not in (3, 4):
            raise ShapeError("wrong input rank", op="Softmax2d",
                             expected="(C, H, W) or (N, C, H, W)", got=tuple(x.shape))
        return ops.softmax(x, -3)


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        if lambd < 0:
            raise ValueError(f"SoftShrink: lambd must be >= 0, got {lambd}")
        self.lambd = float(lambd)

    def construct(self, x):
        shrunk = ops.sub(x, ops.mul(ops.sign(x), self.lambd))
        return ops.where(ops.greater(ops.abs(x), self.lambd), shrunk, ops.mul(x, 0.0))


class Tanhshrink(Cell):
    """``x - tanh(x)``."""

    def construct(self, x):
        return ops.sub(x, ops.tanh(x))


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float):
        super().__init__()
        self.threshold, self.value = float(threshold), float(value)

    def construct(self, x):
        return ops.where(ops.greater(x, self.threshold), x,
                         ops.add(ops.mul(x, 0.0), self.value))


_EXTRA = {"celu": CELU, "fast_gelu": FastGelu, "hardtanh": Hardtanh, "hshrink": HShrink,
          "logsigmoid": LogSigmoid, "rrelu": RReLU, "selu": SeLU, "softmin": Softmin,
          "softshrink": SoftShrink, "tanhshrink": Tanhshrink, "glu": GLU}


def get_activation(name, prim_name=None):
    """MindSpore's ``nn.get_activation``: an activation cell from its name (``"relu"``,
    ``"gelu"``, ``"selu"``, ...); ``None`` for ``None``."""
    if isinstance(name, str) and name.lower() in _EXTRA:
        return _EXTRA[name.lower()]()
    return _sx_get_activation(name, prim_name)
