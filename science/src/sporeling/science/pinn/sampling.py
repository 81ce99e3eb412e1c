"""Points in the unit cube: uniform random, Latin hypercube and scrambled Sobol.

Every geometry maps these onto itself, so a sampler's stratification (Latin hypercube,
Sobol's low discrepancy) carries over to rectangles, disks and time slabs.
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy.stats import qmc

from .errors import GeometryError

__all__ = ["SAMPLERS", "sample_unit"]

SAMPLERS = ("uniform", "lhs", "sobol")


def sample_unit(n: int, dim: int, method: str = "uniform", seed=None) -> np.ndarray:
    """``n`` points of ``[0, 1)^dim`` (float64, shape ``(n, dim)``) drawn by ``method``:
    ``"uniform"`` (i.i.d.), ``"lhs"`` (Latin hypercube) or ``"sobol"`` (scrambled Sobol,
    best with ``n`` a power of two)."""
    if method not in SAMPLERS:
        raise GeometryError("unknown sampler", op="sample", expected=" | ".join(SAMPLERS),
                            got=repr(method))
    if int(n) < 1 or int(dim) < 1:
        raise GeometryError("need at least one point in at least one dimension", op="sample",
                            expected="n >= 1 and dim >= 1", got=f"n={n}, dim={dim}")
    n, dim = int(n), int(dim)
    if method == "uniform":
        return np.random.default_rng(seed).random((n, dim))
    if method == "lhs":
        return qmc.LatinHypercube(d=dim, seed=seed).random(n)
    with warnings.catch_warnings():  # n not a power of two: balance is lost, documented
        warnings.simplefilter("ignore", UserWarning)
        return qmc.Sobol(d=dim, scramble=True, seed=seed).random(n)
