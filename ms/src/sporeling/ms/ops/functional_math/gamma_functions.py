"""``digamma``, ``lgamma`` and ``mvlgamma`` composed from ``sx`` ops (differentiable, Graph-mode ready):
the argument is shifted up by the recurrences ``psi(x) = psi(x + 1) - 1/x`` and
``lgamma(x) = lgamma(x + 1) - log(x)`` until the asymptotic (Stirling) series is accurate to
~1e-13; below 1/2 ``digamma`` reflects with ``psi(1 - x) - pi / tan(pi x)`` and ``lgamma``
with ``log(pi / |sin(pi x)|) - lgamma(1 - x)``.
"""
from __future__ import annotations

import math

import numpy as np

from ._util import SporelingError, as_numpy, float_of, ops, result

__all__ = ["digamma", "mvlgamma"]

_SHIFT = 8
# psi(z) ~ log z - 1/(2z) - sum_n B_2n / (2n z^2n), n = 1..7
_PSI_TERMS = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)
# lgamma(z) ~ (z - 1/2) log z - z + log(2 pi)/2 + sum_n B_2n / (2n (2n-1) z^(2n-1))
_LGAMMA_TERMS = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188)


def _shifted(z):
    """``z + _SHIFT`` and the list ``z + k`` for ``k < _SHIFT``."""
    return ops.add(z, float(_SHIFT)), [ops.add(z, float(k)) for k in range(_SHIFT)]


def _digamma_positive(z):
    big, steps = _shifted(z)
    inv2 = ops.reciprocal(ops.square(big))
    series, power = 0.0, inv2
    for c in _PSI_TERMS:
        series = ops.add(series, ops.mul(power, c))
        power = ops.mul(power, inv2)
    psi = ops.sub(ops.sub(ops.log(big), ops.div(0.5, big)), series)
    for s in steps:
        psi = ops.sub(psi, ops.reciprocal(s))
    return psi


def digamma(input):
    """The digamma function ``psi = d/dx lgamma(x)``; poles (NaN/inf) at 0, -1, -2, ..."""
    x = float_of(input)
    reflect = ops.less(x, 0.5)
    z = ops.where(reflect, ops.sub(1.0, x), x)
    psi = _digamma_positive(z)
    safe = ops.where(reflect, x, np.asarray(0.25, x.dtype))     # keeps the other branch finite
    cot = ops.div(ops.cos(ops.mul(safe, math.pi)), ops.sin(ops.mul(safe, math.pi)))
    return result(ops.where(reflect, ops.sub(psi, ops.mul(cot, math.pi)), psi))


def _lgamma_positive(x):
    big, steps = _shifted(x)
    inv = ops.reciprocal(big)
    inv2 = ops.square(inv)
    series, power = 0.0, inv
    for c in _LGAMMA_TERMS:
        series = ops.add(series, ops.mul(power, c))
        power = ops.mul(power, inv2)
    out = ops.add(ops.sub(ops.mul(ops.sub(big, 0.5), ops.log(big)), big),
                  ops.add(series, 0.5 * math.log(2 * math.pi)))
    for s in steps:
        out = ops.sub(out, ops.log(s))
    return out


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension ``p``:
    ``p(p-1)/4 log(pi) + sum_j lgamma(x - j/2)``; every element must exceed ``(p - 1) / 2``
    (checked in PyNative; a compiled graph gives NaN there)."""
    from sporeling.expression.graph import is_tracing
    x = float_of(input)
    p = int(p)
    if p < 1:
        raise SporelingError("p must be >= 1", op="ops.mvlgamma", expected="an int >= 1", got=p)
    if not is_tracing() and np.any(as_numpy(x) <= (p - 1) / 2):
        raise SporelingError("every element must exceed (p - 1) / 2", op="ops.mvlgamma",
                             expected=f"input > {(p - 1) / 2}", got=f"min {as_numpy(x).min()}")
    total = p * (p - 1) / 4 * math.log(math.pi)
    out = None
    for j in range(p):
        term = _lgamma_positive(ops.sub(x, j / 2))
        out = term if out is None else ops.add(out, term)
    return result(ops.add(out, total))


def lgamma_real(x):
    """``log|Gamma(x)|`` of a float tensor for every real ``x``: +inf at the poles
    (0, -1, -2, ...) and at +-inf, the reflection below 1/2."""
    one = np.asarray(1.0, x.dtype)
    infinite = ops.isinf(x)
    x_finite = ops.where(infinite, one, x)                      # no inf - inf in either branch
    frac = ops.sub(ops.abs(x_finite), ops.floor(ops.abs(x_finite)))
    pole = ops.logical_or(ops.logical_and(ops.less_equal(x, 0.0), ops.equal(frac, 0.0)),
                          infinite)
    z = ops.where(pole, one, x)                                 # poles computed at 1, replaced
    reflect = ops.less(z, 0.5)
    positive = _lgamma_positive(ops.where(reflect, ops.sub(1.0, z), z))  # >= 1/2 both ways
    r = ops.where(reflect, z, np.asarray(0.5, x.dtype))         # sin(pi r) != 0 both ways
    sin_pi = ops.abs(ops.sin(ops.mul(ops.sub(ops.abs(r), ops.floor(ops.abs(r))), math.pi)))
    # near 0, pi*r is subnormal and rounds coarsely: log|sin(pi r)| = log(pi) + log|r| there
    tiny = ops.less(ops.abs(r), 1e-8)
    log_sin_pi = ops.where(tiny, ops.add(ops.log(ops.abs(r)), math.log(math.pi)),
                           ops.log(sin_pi))
    out = ops.where(reflect, ops.sub(ops.sub(math.log(math.pi), log_sin_pi), positive),
                    positive)
    return ops.where(pole, np.asarray(math.inf, x.dtype), out)
