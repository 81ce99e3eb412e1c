"""Elementwise kernels: one line per ufunc-backed primitive, a few lines for the rest."""
from __future__ import annotations

import numpy as np

from .table import broadcast_shape, define, define_ufunc, output, writes_out

UFUNCS = {
    # unary
    "neg": np.negative, "exp": np.exp, "log": np.log, "abs": np.absolute, "sign": np.sign,
    "expm1": np.expm1, "log1p": np.log1p, "sqrt": np.sqrt, "square": np.square,
    "reciprocal": np.reciprocal, "sin": np.sin, "cos": np.cos,
    "floor": np.floor, "ceil": np.ceil, "round": np.rint,  # rint: half to even
    # binary, broadcasting
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "maximum": np.maximum, "minimum": np.minimum, "floordiv": np.floor_divide,
    "mod": np.remainder, "pow": np.power, "atan2": np.arctan2,
    # comparisons and logic (bool results)
    "equal": np.equal, "not_equal": np.not_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "less": np.less, "less_equal": np.less_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor, "logical_not": np.logical_not,
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
}
for _name, _ufunc in UFUNCS.items():
    define_ufunc(_name, _ufunc)


@define("relu", memory=writes_out(0))
def relu(backend, x, out=None):
    """``max(x, 0)``, keeping ``x``'s dtype."""
    return np.maximum(x, 0, out=output(backend, out, np.shape(x), np.asarray(x).dtype))


@define("rsqrt", memory=writes_out(0))
def rsqrt(backend, x, out=None):
    """``1 / sqrt(x)``."""
    out = np.sqrt(x, out=output(backend, out, np.shape(x), np.asarray(x).dtype))
    return np.reciprocal(out, out=out)


@define("pow_scalar", memory=writes_out(0))
def pow_scalar(backend, x, out=None, *, exponent):
    """``x ** exponent`` for a Python-number exponent, keeping ``x``'s dtype."""
    out = output(backend, out, np.shape(x), np.asarray(x).dtype)
    if exponent == 2:
        return np.square(x, out=out)
    return np.power(x, exponent, out=out)


@define("clip", memory=writes_out(0))
def clip(backend, x, *bounds, out=None, has_min=True, has_max=True):
    """``x`` limited to ``[min, max]`` (each bound optional, scalar or broadcasting array);
    with ``min > max`` the result is ``max``, as in NumPy."""
    lo = bounds[0] if has_min else None
    hi = bounds[-1] if has_max else None
    if out is None:
        shape = broadcast_shape("clip", *(np.shape(a) for a in (x, *bounds)))
        out = backend.allocate(shape, np.asarray(x).dtype)
    return np.clip(x, lo, hi, out=out)


@define("clip_scalar", memory=writes_out(0))
def clip_scalar(backend, x, out=None, *, min=None, max=None):
    """``x`` limited to Python-number bounds (None: unbounded), keeping ``x``'s dtype."""
    return np.clip(x, min, max, out=output(backend, out, np.shape(x), np.asarray(x).dtype))


# copyto(out, y) then copyto(out, x, where=cond): out may only be y
@define("where", memory=writes_out(2))
def where(backend, cond, x, y, out=None):
    """``x`` where ``cond`` is true, else ``y`` (all three broadcast)."""
    if out is None:
        shape = broadcast_shape("where", np.shape(cond), np.shape(x), np.shape(y))
        out = backend.allocate(shape, np.asarray(x).dtype)
    np.copyto(out, y)
    np.copyto(out, x, where=cond)
    return out
