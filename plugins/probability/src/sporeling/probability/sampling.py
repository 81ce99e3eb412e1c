"""Samplers the compiler lacks, as primitives with a seed operand (the compiler's random
ops' convention: ``sporeling.core.set_seed`` makes them reproducible, eager or compiled):

Primitive names carry the plugin's prefix (``probability_random_gamma``...).

* ``random_gamma(alpha, seed)``: standard Gamma(``alpha``, rate 1) samples, one per element
  of ``alpha``. **Reparameterised implicitly** (Figurnov et al., 2018): the sample ``z``
  depends on ``alpha`` through ``F(z; alpha) = u`` with ``F`` the Gamma CDF, so
  ``dz/dalpha = -(dF/dalpha) / p(z; alpha)``; ``random_gamma_grad(z, alpha)`` computes it
  (``dF/dalpha`` by a central difference of SciPy's regularised incomplete gamma, ~1e-8
  relative). Beta and Dirichlet samples are ratios of Gamma samples, so they inherit it.
  Only first-order gradients flow through a sample (differentiating ``random_gamma_grad``
  raises ``MissingRuleError``).
* ``random_poisson(rate, seed)``: Poisson counts (float, in ``rate``'s dtype); not
  differentiable.
"""
from __future__ import annotations

from sporeling.compiler import Primitive, bind, def_backward, def_nondifferentiable
from sporeling.compiler.core import Aval
from sporeling.compiler.ops import mul
from sporeling.compiler.ops._util import float_operand
from sporeling.compiler.ops.random import check_seed, draw_seed

from ._rules import first_order_only

__all__ = ["random_gamma", "random_poisson", "SAMPLING_PRIMITIVES"]

random_gamma_p = Primitive("probability_random_gamma", doc="standard Gamma(alpha) samples")
random_gamma_grad_p = Primitive("probability_random_gamma_grad",
                                doc="d sample / d alpha of a standard Gamma sample")
random_poisson_p = Primitive("probability_random_poisson", doc="Poisson(rate) counts")
SAMPLING_PRIMITIVES = (random_gamma_p, random_gamma_grad_p, random_poisson_p)
def_nondifferentiable(random_poisson_p)


def _sampler_aval(op):
    def rule(param, seed):
        check_seed(op, seed)
        return Aval(tuple(param.shape), param.dtype)
    return rule


random_gamma_p.def_abstract_eval(_sampler_aval("random_gamma"))
random_poisson_p.def_abstract_eval(_sampler_aval("random_poisson"))
random_gamma_grad_p.def_abstract_eval(lambda z, alpha: Aval(tuple(z.shape), z.dtype))


def random_gamma(alpha):
    """One standard Gamma(``alpha``) sample per element of ``alpha`` (float)."""
    return bind(random_gamma_p, float_operand(alpha), draw_seed())


def random_poisson(rate):
    """One Poisson(``rate``) count per element of ``rate``, as floats of ``rate``'s dtype."""
    return bind(random_poisson_p, float_operand(rate), draw_seed())


@def_backward(random_gamma_p, uses=(0, "out"))
def _random_gamma_bwd(ct, alpha, seed, *, out):
    return mul(ct, bind(random_gamma_grad_p, out, alpha)), None


first_order_only(random_gamma_grad_p, "through a Gamma sample")
