"""The probability package's errors: bad parameters, values outside a support, unknown KL
pairs. Each also derives from the builtin a Python user would catch (``ValueError``,
``NotImplementedError``)."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["ProbabilityError", "ParameterError", "SupportError", "KLNotImplementedError"]


class ProbabilityError(SporelingError, ValueError):
    """Base of the errors of ``sporeling.probability``."""


class ParameterError(ProbabilityError):
    """A distribution's or bijector's parameter is outside its domain (``scale <= 0``...)."""


class SupportError(ProbabilityError):
    """A value given to ``log_prob``/``cdf``/``inverse`` lies outside the support, or has
    the wrong event shape (raised while ``validate_args`` is on)."""


class KLNotImplementedError(SporelingError, NotImplementedError):
    """No closed-form KL divergence is registered for this pair of distributions."""
