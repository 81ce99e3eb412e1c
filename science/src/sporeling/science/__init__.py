"""sporeling.science: scientific computing: physics-informed networks, neural operators, ODE solvers.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
