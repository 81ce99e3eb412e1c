"""ODE solvers: ``odeint`` (RK4, adaptive Dormand-Prince 5(4)) on arrays and Tensors, and
``odeint_adjoint`` (neural ODEs: gradients by the adjoint method, memory constant in the
number of steps)."""
from .errors import ODEError, StepBudgetError, ToleranceError
from .adjoint import odeint_adjoint
from .odeint import METHODS, odeint

__all__ = ["odeint", "odeint_adjoint", "METHODS", "ODEError", "ToleranceError", "StepBudgetError"]
