"""Exact and quadrature reference solutions the PINNs are measured against (no networks)."""
from .burgers import NU, burgers_grid, burgers_solution
from .analytic import heat_solution, poisson_lshape_solution

__all__ = ["NU", "burgers_grid", "burgers_solution", "heat_solution",
           "poisson_lshape_solution"]
