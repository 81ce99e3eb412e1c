"""Special functions as primitives: ``lgamma``, ``digamma``, ``polygamma(n, x)``.

The compiler has none of them, so this plugin contributes them through
``sporeling_add_primitives`` as ``probability_lgamma``, ``probability_digamma`` and
``probability_polygamma`` (kernels: SciPy's, through ``sporeling_add_kernels``). Each is
elementwise, keeps its float dtype, and differentiates to any order::

    d lgamma(x)      = digamma(x)
    d digamma(x)     = polygamma(1, x)
    d polygamma(n, x) = polygamma(n + 1, x)

    >>> import numpy as np
    >>> float(lgamma(np.array(5.0)))          # log(4!)
    3.1780538303479458
"""
from __future__ import annotations

from sporeling.compiler import Primitive, bind, def_backward
from sporeling.compiler.core import Aval
from sporeling.compiler.ops import mul
from sporeling.compiler.ops._util import float_operand
from sporeling.compiler.core import locate
from sporeling.core import SporelingError

__all__ = ["lgamma", "digamma", "polygamma", "SPECIAL_PRIMITIVES"]

# plugin primitives carry the plugin's prefix, so they never clash with another package's;
# elementwise: vmap and operator parallel need no rule of their own; fusible: the fusion
# pass may chain them (the kernels write out=); AMP "black": float32 (lgamma(171) overflows
# float16, digamma loses its digits)
_TRAITS = dict(elementwise=True, fusible=True, amp="black")
lgamma_p = Primitive("probability_lgamma", doc="log |Gamma(x)|", **_TRAITS)
digamma_p = Primitive("probability_digamma", doc="d/dx lgamma(x)", **_TRAITS)
polygamma_p = Primitive("probability_polygamma", doc="the n-th derivative of digamma",
                        **_TRAITS)
SPECIAL_PRIMITIVES = (lgamma_p, digamma_p, polygamma_p)

for _p in SPECIAL_PRIMITIVES:
    _p.def_abstract_eval(lambda x, **params: Aval(tuple(x.shape), x.dtype))


def lgamma(x):
    """``log |Gamma(x)|`` elementwise (``scipy.special.gammaln``)."""
    return bind(lgamma_p, float_operand(x))


def digamma(x):
    """``psi(x) = d/dx lgamma(x)`` elementwise (``scipy.special.digamma``)."""
    return bind(digamma_p, float_operand(x))


def polygamma(n: int, x):
    """The ``n``-th derivative of ``digamma`` (``n >= 0``; ``polygamma(0, x) == digamma(x)``).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise locate(SporelingError("bad order", op="polygamma", expected="an int n >= 0",
                                    got=repr(n)))
    if n == 0:
        return digamma(x)
    return bind(polygamma_p, float_operand(x), n=n)


@def_backward(lgamma_p, uses=(0,))
def _lgamma_bwd(ct, x, *, out):
    return (mul(ct, digamma(x)),)


@def_backward(digamma_p, uses=(0,))
def _digamma_bwd(ct, x, *, out):
    return (mul(ct, polygamma(1, x)),)


@def_backward(polygamma_p, uses=(0,))
def _polygamma_bwd(ct, x, *, out, n):
    return (mul(ct, polygamma(n + 1, x)),)
