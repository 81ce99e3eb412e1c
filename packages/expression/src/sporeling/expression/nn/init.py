"""Parameter initialisers (MindSpore's ``mindspore.common.initializer``).

An :class:`Initializer` fills a NumPy array in place; :func:`initializer` builds a Tensor of
a shape and dtype from an initialiser, its name (``"normal"``, ``"he_uniform"``, ...), a
number or an array. Random ones draw from ``sporeling.core.generator("init")``, so
``set_seed`` makes them reproducible without disturbing the random ops' stream.

    >>> from sporeling.core import set_seed
    >>> set_seed(1)
    >>> a = initializer(HeUniform(), (4, 3))
    >>> set_seed(1)
    >>> b = initializer("he_uniform", (4, 3))
    >>> bool((a.asnumpy() == b.asnumpy()).all()), a.shape, str(a.dtype)
    (True, (4, 3), 'float32')

Fans are PyTorch's and MindSpore's: for a weight of shape ``(out, in, *kernel)``,
``fan_in = in * prod(kernel)`` and ``fan_out = out * prod(kernel)``.
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.core import SporelingError, dtypes, generator

__all__ = ["Initializer", "Normal", "Uniform", "TruncatedNormal", "XavierUniform",
           "XavierNormal", "HeUniform", "HeNormal", "Zero", "One", "Zeros", "Ones",
           "Constant", "initializer", "calculate_gain", "compute_fans"]


def compute_fans(shape) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight shaped ``(out, in, *kernel)``."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise SporelingError("fans need a weight with at least 2 dimensions",
                             op="compute_fans", expected="shape (out, in, *kernel)",
                             got=shape)
    receptive = int(np.prod(shape[2:], dtype=np.int64))
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for ``nonlinearity`` (PyTorch's and MindSpore's table)."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise SporelingError("unsupported nonlinearity", op="calculate_gain",
                         expected="linear, conv*, sigmoid, tanh, relu, leaky_relu or selu",
                         got=repr(nonlinearity))


def _fan(shape, mode: str) -> int:
    fan_in, fan_out = compute_fans(shape)
    if mode not in ("fan_in", "fan_out"):
        raise SporelingError("bad mode", op="initializer", expected="'fan_in' or 'fan_out'",
                             got=repr(mode))
    return fan_in if mode == "fan_in" else fan_out


class Initializer:
    """Base: ``init(array)`` fills a NumPy array in place and returns it. A subclass
    defines ``_values(shape) -> array`` or, MindSpore-style, ``_initialize(arr)``."""

    def _values(self, shape: tuple) -> np.ndarray:
        arr = np.zeros(shape)
        self._initialize(arr)
        return arr

    def _initialize(self, arr: np.ndarray) -> None:
        raise NotImplementedError(f"{type(self).__name__} defines neither _values(shape) "
                                  "nor _initialize(arr)")

    def __call__(self, arr: np.ndarray) -> np.ndarray:
        arr[...] = self._values(tuple(arr.shape))
        return arr

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Constant(Initializer):
    """Every element ``value``."""

    def __init__(self, value):
        self.value = value

    def _values(self, shape):
        return np.full(shape, self.value)


class Zero(Constant):
    """Zeros (MindSpore's ``Zero``; ``Zeros`` is the same)."""

    def __init__(self):
        super().__init__(0)


class One(Constant):
    """Ones (MindSpore's ``One``; ``Ones`` is the same)."""

    def __init__(self):
        super().__init__(1)


Zeros, Ones = Zero, One


class Normal(Initializer):
    """``N(mean, sigma**2)``; MindSpore's default ``sigma`` is 0.01."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0):
        self.sigma, self.mean = sigma, mean

    def _values(self, shape):
        return generator("init").normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    """``U(-scale, scale)``; MindSpore's default ``scale`` is 0.07."""

    def __init__(self, scale: float = 0.07):
        self.scale = scale

    def _values(self, shape):
        return generator("init").uniform(-self.scale, self.scale, shape)


class TruncatedNormal(Initializer):
    """``N(mean, sigma**2)`` redrawn until inside ``[a, b]`` (absolute bounds, as in 2.x)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0,
                 b: float = 2.0):
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _values(self, shape):
        gen = generator("init")
        out = gen.normal(self.mean, self.sigma, shape)
        bad = (out < self.a) | (out > self.b)
        while bad.any():
            out[bad] = gen.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        return out


class XavierUniform(Initializer):
    """Glorot uniform: ``U(-b, b)`` with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1.0):
        self.gain = gain

    def _values(self, shape):
        fan_in, fan_out = compute_fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return generator("init").uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    """Glorot normal: ``N(0, s**2)`` with ``s = gain * sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1.0):
        self.gain = gain

    def _values(self, shape):
        fan_in, fan_out = compute_fans(shape)
        return generator("init").normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)),
                                        shape)


class HeUniform(Initializer):
    """Kaiming uniform: ``U(-b, b)``, ``b = gain * sqrt(3 / fan)``, gain from
    ``nonlinearity`` and ``negative_slope`` (``HeUniform(math.sqrt(5))`` is the default
    weight init of Dense and Conv: ``b = 1 / sqrt(fan_in)``)."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu"):
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _values(self, shape):
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        bound = gain * math.sqrt(3.0 / _fan(shape, self.mode))
        return generator("init").uniform(-bound, bound, shape)


class HeNormal(Initializer):
    """Kaiming normal: ``N(0, s**2)``, ``s = gain / sqrt(fan)``."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu"):
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _values(self, shape):
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        return generator("init").normal(0.0, gain / math.sqrt(_fan(shape, self.mode)), shape)


_BY_NAME = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal,
    "uniform": Uniform, "truncatednormal": TruncatedNormal, "truncated_normal": TruncatedNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform, "he_normal": HeNormal,
    "henormal": HeNormal,
}


def initializer(init, shape, dtype=dtypes.float32):
    """A Tensor of ``shape`` and ``dtype`` filled by ``init``: an :class:`Initializer`, its
    name (``"zeros"``, ``"ones"``, ``"normal"``, ``"uniform"``, ``"xavier_uniform"``,
    ``"he_uniform"``, ...; case-insensitive), a number (constant) or an array/Tensor (copied;
    its shape must be ``shape``)."""
    from ..tensor import Tensor
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    dtype = dtypes.dtype(dtype)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise SporelingError("unknown initializer", op="initializer",
                                 expected=f"one of {', '.join(sorted(_BY_NAME))}",
                                 got=repr(init))
        init = cls()
    if isinstance(init, (bool, int, float)):
        init = Constant(init)
    if isinstance(init, Initializer):
        values = init._values(shape)
        return Tensor(np.asarray(values).astype(dtype))
    array = init.asnumpy() if hasattr(init, "asnumpy") else np.asarray(init)
    if tuple(array.shape) != shape:
        raise SporelingError("initial value has the wrong shape", op="initializer",
                             expected=shape, got=tuple(array.shape))
    return Tensor(array.astype(dtype))
