"""Argument checks shared by the attacks: bad values are named errors saying what was expected."""
from __future__ import annotations

import math

import numpy as np

from sporeling.core.errors import SporelingError

__all__ = ["AttackConfigError", "check_eps", "check_bounds", "check_norm", "check_positive_int",
           "as_batch"]


class AttackConfigError(SporelingError, ValueError):
    """An attack was given a value outside what it accepts (ε < 0, bounds inverted, ...)."""


def check_eps(value, name: str, op: str, allow_zero: bool = True) -> float:
    """A finite real ``value`` >= 0 (> 0 when ``allow_zero`` is False)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise AttackConfigError(f"{name} must be a real number", op=op,
                                expected="a float", got=type(value).__name__)
    v = float(value)
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise AttackConfigError(f"{name} out of range", op=op,
                                expected=f"{name} >= 0" if allow_zero else f"{name} > 0",
                                got=repr(value))
    return v


def check_bounds(bounds, op: str) -> tuple[float, float]:
    """``(low, high)`` with ``low < high``, both finite."""
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise AttackConfigError("bounds must be a pair (low, high)", op=op,
                                expected="(low, high)", got=repr(bounds)) from None
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise AttackConfigError("bounds inverted or empty", op=op,
                                expected="finite low < high", got=repr(tuple(bounds)))
    return low, high


def check_norm(norm, op: str) -> float:
    """``np.inf`` (also "inf", "linf") or 2 (also "l2")."""
    aliases = {"inf": math.inf, "linf": math.inf, "l2": 2.0, "2": 2.0}
    v = aliases.get(norm.lower(), None) if isinstance(norm, str) else norm
    if v is not None and not isinstance(v, bool) and v in (math.inf, 2):
        return float(v)
    raise AttackConfigError("unsupported norm", op=op, expected="np.inf or 2", got=repr(norm))


def check_positive_int(value, name: str, op: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise AttackConfigError(f"{name} must be an int >= 1", op=op,
                                expected=f"{name} >= 1", got=repr(value))
    return int(value)


def as_batch(inputs, labels, op: str):
    """Inputs as a float array and labels as an int32 vector of the same length."""
    x = np.asarray(inputs.asnumpy() if hasattr(inputs, "asnumpy") else inputs)
    y = np.asarray(labels.asnumpy() if hasattr(labels, "asnumpy") else labels)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float32)
    if y.ndim != 1 or len(y) != len(x):
        raise AttackConfigError("labels must be one class index per input", op=op,
                                expected=f"shape ({len(x)},)", got=f"shape {y.shape}")
    return x, y.astype(np.int32)
