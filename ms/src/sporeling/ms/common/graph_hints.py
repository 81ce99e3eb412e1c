"""Top-level helpers MindSpore 2.10 gives its graph compiler: ``mutable``, ``Symbol``,
``lazy_inline``, ``no_inline``, ``enable_dynamic``, ``recompute`` and the syntax levels
``STRICT``/``COMPATIBLE``/``LAX``; and ``frombuffer``.

Sporeling traces each input signature and caches its graph, so the hints that steer
MindSpore's compiler (what is a constant, what is inlined, which shapes vary) change no
result here: they are validated as MindSpore validates them and the values pass through."""
from __future__ import annotations

from enum import IntEnum

import numpy as np

from sporeling.expression import Tensor

__all__ = ["mutable", "Symbol", "lazy_inline", "no_inline", "enable_dynamic", "recompute",
           "JitSyntaxLevel", "STRICT", "COMPATIBLE", "LAX", "frombuffer"]


class JitSyntaxLevel(IntEnum):
    """``set_context(jit_syntax_level=...)``'s values."""
    STRICT = 0
    COMPATIBLE = 1
    LAX = 2


STRICT, COMPATIBLE, LAX = JitSyntaxLevel.STRICT, JitSyntaxLevel.COMPATIBLE, JitSyntaxLevel.LAX


def _mutable_ok(value) -> bool:
    if isinstance(value, (Tensor, int, float)) and not isinstance(value, bool):
        return True
    if isinstance(value, (tuple, list)):
        return all(_mutable_ok(v) for v in value)
    if isinstance(value, dict):
        return all(_mutable_ok(v) for v in value.values())
    return False


def mutable(input_data, dynamic_len=False):
    """Mark ``input_data`` (a Tensor, number, or tuple/list/dict of them) as a variable
    graph input; returned unchanged (see the module doc)."""
    if not _mutable_ok(input_data):
        raise TypeError(f"For 'mutable', the 'input_data' must be a Tensor, int, float or a "
                        f"tuple/list/dict of them, but got {type(input_data).__name__}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', 'dynamic_len' must be bool, but got "
                        f"{type(dynamic_len).__name__}.")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError("For 'mutable', 'dynamic_len' needs a tuple or list input_data.")
    return input_data


class Symbol:
    """A symbolic dimension for ``Cell.set_inputs``/``Tensor(shape=...)`` declarations:
    ``Symbol(max=0, min=1, divisor=1, remainder=0, unique=False)`` (``max=0``: unbounded);
    a size ``n`` fits when ``min <= n <= max`` and ``n % divisor == remainder``."""

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):
        for name, value in (("max", max), ("min", min), ("divisor", divisor),
                            ("remainder", remainder)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Symbol', '{name}' must be an int, but got "
                                f"{type(value).__name__}.")
        if min <= 0:
            raise ValueError(f"For 'Symbol', 'min' must be positive, but got {min}.")
        if max > 0 and max < min:
            raise ValueError(f"For 'Symbol', 'max' ({max}) must be >= 'min' ({min}).")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', 'divisor' must be positive, but got {divisor}.")
        if not 0 <= remainder < divisor:
            raise ValueError(f"For 'Symbol', 'remainder' must be in [0, {divisor}), but got "
                             f"{remainder}.")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', 'unique' must be bool, but got "
                            f"{type(unique).__name__}.")
        self.max, self.min, self.divisor = max, min, divisor
        self.remainder, self.unique = remainder, unique

    def fits(self, size: int) -> bool:
        """Whether a dimension of ``size`` satisfies the constraints."""
        return (self.min <= size and (self.max <= 0 or size <= self.max)
                and size % self.divisor == self.remainder)

    def __repr__(self) -> str:
        return (f"Symbol(max={self.max}, min={self.min}, divisor={self.divisor}, "
                f"remainder={self.remainder}, unique={self.unique})")


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorator for a Cell's ``__init__`` (MindSpore reuses the compiled sub-graph);
    returns it unchanged."""
    if fn is None:
        return lambda f: f
    return fn


def no_inline(fn=None):
    """Decorator keeping a function a separate sub-graph in MindSpore; returns it unchanged."""
    if fn is None:
        return lambda f: f
    return fn


def enable_dynamic(**kwargs):
    """Decorator declaring which arguments of a compiled function have dynamic shapes
    (Tensors with None dimensions or ``Symbol``s); the function is returned unchanged."""
    for name, value in kwargs.items():
        values = value if isinstance(value, (tuple, list)) else (value,)
        if not all(v is None or isinstance(v, Tensor) for v in values):
            raise TypeError(f"For 'enable_dynamic', the value of {name!r} must be a Tensor or "
                            f"a tuple/list of Tensors, but got {type(value).__name__}.")
    return lambda fn: fn


def recompute(block, *args, **kwargs):
    """``block(*args, **kwargs)``, recomputed in the backward pass by MindSpore instead of
    keeping its activations: the same result and gradients."""
    if not callable(block):
        raise TypeError(f"For 'recompute', 'block' must be callable, but got "
                        f"{type(block).__name__}.")
    return block(*args, **kwargs)


def frombuffer(buffer, dtype, count=-1, offset=0) -> Tensor:
    """A 1-D Tensor over ``buffer``'s bytes read as ``dtype``: ``count`` items (-1: all)
    from byte ``offset`` (the data are copied)."""
    from .dtype import to_numpy
    array = np.frombuffer(buffer, dtype=to_numpy(dtype), count=count, offset=offset)
    return Tensor(array.copy())
