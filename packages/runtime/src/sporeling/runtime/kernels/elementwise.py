"""Elementwise kernels: one line per ufunc-backed primitive."""
from __future__ import annotations

import numpy as np

from .table import define, from_ufunc, output

UFUNCS = {
    # unary
    "neg": np.negative, "exp": np.exp, "log": np.log,
    # binary, broadcasting
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "maximum": np.maximum,
    # comparisons
    "equal": np.equal, "greater": np.greater,
}
for _name, _ufunc in UFUNCS.items():
    define(_name, from_ufunc(_name, _ufunc))


@define("relu")
def relu(backend, x, out=None):
    """``max(x, 0)``, keeping ``x``'s dtype."""
    return np.maximum(x, 0, out=output(backend, out, np.shape(x), np.asarray(x).dtype))
