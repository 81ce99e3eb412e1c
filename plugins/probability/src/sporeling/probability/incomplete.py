"""Regularised incomplete gamma and beta functions as primitives, for the cdfs of Gamma,
Beta and Poisson: ``probability_gammainc(a, x) = P(a, x)`` and
``probability_betainc(a, b, x) = I_x(a, b)`` (SciPy's ``gammainc``/``betainc`` kernels).

Gradients: wrt ``x`` exactly (the density, written with ops, so it differentiates again);
wrt the shape parameters by a central difference in the kernel
(``probability_gammainc_da``, ``probability_betainc_dab``; ~1e-8 relative, first order only:
differentiating them again raises ``MissingRuleError``).

    >>> import numpy as np
    >>> round(float(gammainc(np.array(1.0), np.array(2.0))), 6)     # 1 - exp(-2)
    0.864665
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import Primitive, bind, def_backward, ops
from sporeling.compiler.core import Aval
from sporeling.compiler.ops._util import float_operand, promote

from ._rules import first_order_only
from .special import lgamma

__all__ = ["gammainc", "betainc", "INCOMPLETE_PRIMITIVES"]

_TRAITS = dict(elementwise=True, amp="black")
gammainc_p = Primitive("probability_gammainc", doc="regularised lower incomplete gamma",
                       **_TRAITS)
gammainc_da_p = Primitive("probability_gammainc_da", doc="d/da of gammainc(a, x)", **_TRAITS)
betainc_p = Primitive("probability_betainc", doc="regularised incomplete beta", **_TRAITS)
betainc_dab_p = Primitive("probability_betainc_dab", doc="d/da or d/db (wrt=0, 1) of betainc",
                          **_TRAITS)
INCOMPLETE_PRIMITIVES = (gammainc_p, gammainc_da_p, betainc_p, betainc_dab_p)

for _p in INCOMPLETE_PRIMITIVES:
    _p.def_abstract_eval(lambda *xs, **params: Aval(tuple(xs[0].shape), xs[0].dtype))


def _same_shape(*xs):
    """Float operands of one dtype broadcast to one shape (the primitives take equal shapes;
    broadcast_to carries the gradients back)."""
    xs = promote("incomplete", *map(float_operand, xs))
    shape = np.broadcast_shapes(*(tuple(x.shape) for x in xs))
    return [x if tuple(x.shape) == shape else ops.broadcast_to(x, shape) for x in xs]


def gammainc(a, x):
    """``P(a, x) = gamma(a, x) / Gamma(a)``, the Gamma(a, 1) cdf at ``x``."""
    return bind(gammainc_p, *_same_shape(a, x))


def betainc(a, b, x):
    """``I_x(a, b)``, the Beta(a, b) cdf at ``x``."""
    return bind(betainc_p, *_same_shape(a, b, x))


@def_backward(gammainc_p, uses=(0, 1), selective=True)
def _gammainc_bwd(ct, a, x, *, out, needs):
    da = ops.mul(ct, bind(gammainc_da_p, a, x)) if needs[0] else None
    if not needs[1]:
        return da, None
    # dP/dx = x^(a-1) exp(-x) / Gamma(a)
    density = ops.exp(ops.sub(ops.sub(ops.mul(ops.sub(a, 1.0), ops.log(x)), x), lgamma(a)))
    return da, ops.mul(ct, density)


@def_backward(betainc_p, uses=(0, 1, 2), selective=True)
def _betainc_bwd(ct, a, b, x, *, out, needs):
    da, db = (ops.mul(ct, bind(betainc_dab_p, a, b, x, wrt=i)) if needs[i] else None
              for i in (0, 1))
    if not needs[2]:
        return da, db, None
    # dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b)
    log_b = ops.sub(ops.add(lgamma(a), lgamma(b)), lgamma(ops.add(a, b)))
    density = ops.exp(ops.sub(ops.add(ops.mul(ops.sub(a, 1.0), ops.log(x)),
                                      ops.mul(ops.sub(b, 1.0), ops.log1p(ops.neg(x)))), log_b))
    return da, db, ops.mul(ct, density)


first_order_only(gammainc_da_p, "of gammainc wrt a")
first_order_only(betainc_dab_p, "of betainc wrt a or b")
