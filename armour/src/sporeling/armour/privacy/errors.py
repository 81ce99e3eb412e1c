"""Named errors of DP training and accounting (all :class:`SporelingError`, and ``ValueError``)."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["PrivacyError", "UnsupportedSamplingError"]


class PrivacyError(SporelingError, ValueError):
    """A DP-SGD or accountant setting out of range (noise multiplier, clip norm, δ, rate...)."""


class UnsupportedSamplingError(PrivacyError):
    """The accountant cannot account for this sampling scheme (it needs Poisson sampling)."""


def check_positive(value, name: str, op: str, *, allow_zero: bool = False) -> float:
    """``value`` as a float, or a :class:`PrivacyError` saying what was expected."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise PrivacyError(f"{name} must be a number", op=op,
                           expected="a real number", got=repr(value)) from None
    ok = v >= 0 if allow_zero else v > 0
    if not ok or v != v:
        raise PrivacyError(f"{name} out of range", op=op,
                           expected=f"{name} {'>= 0' if allow_zero else '> 0'}", got=v)
    return v
