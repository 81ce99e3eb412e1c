"""The probability package's errors: bad parameters, values outside a support, unknown KL
pairs. Each also derives from the builtin a Python user would catch (``ValueError``,
``NotImplementedError``)."""
from __future__ import annotations

from sporeling.compiler.core import user_location
from sporeling.core import SporelingError

__all__ = ["ProbabilityError", "ParameterError", "SupportError", "KLNotImplementedError"]


class _Located(SporelingError):
    """An error that names the user's line (the innermost frame outside Sporeling) unless
    given a ``where``."""

    def __init__(self, message: str = "", *, where: str | None = None, **kw):
        super().__init__(message, where=where or user_location(), **kw)


class ProbabilityError(_Located, ValueError):
    """Base of the errors of ``sporeling.probability``."""


class ParameterError(ProbabilityError):
    """A distribution's or bijector's parameter is outside its domain (``scale <= 0``...)."""


class SupportError(ProbabilityError):
    """A value given to ``log_prob``/``cdf``/``inverse`` lies outside the support, or has
    the wrong event shape (raised while ``validate_args`` is on)."""


class KLNotImplementedError(_Located, NotImplementedError):
    """No closed-form KL divergence is registered for this pair of distributions."""
