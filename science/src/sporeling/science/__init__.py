"""sporeling.science: scientific computing: physics-informed networks, neural operators, ODE solvers.

Subpackages: ``pinn`` (physics-informed networks), ``reference`` (reference solutions),
``operators`` (Fourier transforms as primitives, FNO-1D, DeepONet, Burgers data) and
``ode`` (``odeint``, ``odeint_adjoint``); see the README.
"""
