"""The ODE solvers' errors: each says what was expected, what came, and where (the solver,
the time reached, the user's line)."""
from __future__ import annotations

from sporeling.core.errors import SporelingError

__all__ = ["ODEError", "ToleranceError", "StepBudgetError"]


class ODEError(SporelingError):
    """A problem ``odeint`` cannot solve as asked."""


class ToleranceError(ODEError, ValueError):
    """A tolerance that is not a positive finite number (or one too small to reach)."""


class StepBudgetError(ODEError, RuntimeError):
    """The solver used ``max_steps`` steps (or its step size fell below round-off) before
    reaching the last output time: typically a stiff problem for an explicit method."""
