"""ODE solvers: ``odeint`` (RK4, adaptive Dormand-Prince 5(4)) on arrays and Tensors, and
``odeint_adjoint`` (neural ODEs: gradients by the adjoint method, memory constant in the
number of steps).

    >>> import numpy as np
    >>> ys = odeint(lambda t, y: -y, np.array([1.0]), [0.0, 1.0], rtol=1e-10, atol=1e-12)
    >>> round(float(ys[-1, 0]), 8) == round(float(np.exp(-1.0)), 8)
    True
"""
from .errors import ODEError, StepBudgetError, ToleranceError
from .adjoint import odeint_adjoint
from .odeint import METHODS, odeint

__all__ = ["odeint", "odeint_adjoint", "METHODS", "ODEError", "ToleranceError", "StepBudgetError"]
