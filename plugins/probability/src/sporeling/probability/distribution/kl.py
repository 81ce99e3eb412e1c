"""Closed-form KL divergences, ``kl_divergence(p, q) = KL(p || q)``, looked up by the pair
of types (the most specific registered pair along both classes' MROs, as in PyTorch).
Add one with ``@register_kl(P, Q)``.

    >>> import numpy as np
    >>> from sporeling.probability import Normal
    >>> float(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 1.0)).asnumpy())
    0.5
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import ShapeError

from ..errors import KLNotImplementedError
from ..special import digamma, lgamma
from .discrete import Bernoulli, Categorical, Poisson
from .gamma import Beta, Dirichlet, Gamma, lbeta
from .normal import MultivariateNormalDiag, Normal
from .uniform import Uniform

__all__ = ["kl_divergence", "register_kl"]

_KL: dict[tuple[type, type], callable] = {}


def register_kl(p_type: type, q_type: type):
    """Decorator: ``fn(p, q)`` becomes ``KL(p || q)`` for these types (and subclasses)."""
    def put(fn):
        _KL[(p_type, q_type)] = fn
        return fn
    return put


def _lookup(p_type, q_type):
    for i, a in enumerate(p_type.__mro__):
        for j, b in enumerate(q_type.__mro__):
            if (a, b) in _KL:
                return _KL[(a, b)]
    return None


def kl_divergence(p, q):
    """``KL(p || q)`` over the batch (event axes summed), broadcasting the two batches."""
    fn = _lookup(type(p), type(q))
    if fn is None:
        raise KLNotImplementedError("no closed-form KL divergence for this pair",
                                    op="kl_divergence",
                                    expected="a pair registered with register_kl: "
                                    + ", ".join(f"{a.__name__}||{b.__name__}"
                                                for a, b in _KL),
                                    got=f"{type(p).__name__}||{type(q).__name__}")
    if p.event_shape != q.event_shape:
        raise locate(ShapeError("the event shapes differ", op="kl_divergence",
                                expected=f"{p.event_shape} for both", got=f"{p.event_shape} and "
                                f"{q.event_shape}"))
    return fn(p, q)


def _normal_terms(m1, s1, m2, s2):
    ratio = ops.div(s1, s2)
    return ops.sub(ops.mul(ops.add(ops.square(ratio),
                                   ops.square(ops.div(ops.sub(m1, m2), s2))), 0.5),
                   ops.add(ops.log(ratio), 0.5))


@register_kl(Normal, Normal)
def _kl_normal(p, q):
    return _normal_terms(p.loc, p.scale, q.loc, q.scale)


@register_kl(MultivariateNormalDiag, MultivariateNormalDiag)
def _kl_mvn_diag(p, q):
    return ops.sum(_normal_terms(p.loc, p.scale_diag, q.loc, q.scale_diag), axis=-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli(p, q):
    return ops.sub(ops.add(ops.mul(p.probs, ops.sub(p.logits, q.logits)),
                           ops.softplus(q.logits)), ops.softplus(p.logits))


@register_kl(Categorical, Categorical)
def _kl_categorical(p, q):
    terms = ops.mul(p.probs, ops.sub(p.logits, q.logits))
    terms = ops.where(ops.greater(p.probs, 0.0), terms, np.asarray(0.0, terms.dtype))
    return ops.sum(terms, axis=-1)


@register_kl(Uniform, Uniform)
def _kl_uniform(p, q):
    inside = ops.logical_and(ops.greater_equal(p.low, q.low), ops.less_equal(p.high, q.high))
    value = ops.log(ops.div(ops.sub(q.high, q.low), ops.sub(p.high, p.low)))
    return ops.where(inside, value, np.asarray(math.inf, value.dtype))


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    width = ops.sub(p.high, p.low)
    second = ops.add(ops.div(ops.square(width), 12.0),
                     ops.square(ops.sub(p.mean, q.loc)))  # E_p[(x - loc)^2]
    return ops.add(ops.sub(ops.log(ops.div(q.scale, width)), -0.5 * math.log(2 * math.pi)),
                   ops.div(second, ops.mul(ops.square(q.scale), 2.0)))


@register_kl(Gamma, Gamma)
def _kl_gamma(p, q):
    a1, b1, a2, b2 = p.concentration, p.rate, q.concentration, q.rate
    return ops.add(ops.add(ops.mul(ops.sub(a1, a2), digamma(a1)),
                           ops.sub(lgamma(a2), lgamma(a1))),
                   ops.add(ops.mul(a2, ops.sub(ops.log(b1), ops.log(b2))),
                           ops.mul(a1, ops.div(ops.sub(b2, b1), b1))))


@register_kl(Beta, Beta)
def _kl_beta(p, q):
    a1, b1, a2, b2 = p.concentration1, p.concentration0, q.concentration1, q.concentration0
    total = ops.add(a1, b1)
    return ops.add(ops.add(ops.sub(lbeta(a2, b2), lbeta(a1, b1)),
                           ops.mul(ops.sub(a1, a2), digamma(a1))),
                   ops.add(ops.mul(ops.sub(b1, b2), digamma(b1)),
                           ops.mul(ops.sub(ops.add(a2, b2), total), digamma(total))))


@register_kl(Poisson, Poisson)
def _kl_poisson(p, q):
    r1, r2 = p.rate, q.rate
    return ops.add(ops.mul(r1, ops.sub(ops.log(r1), ops.log(r2))), ops.sub(r2, r1))


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p, q):
    a, b = p.concentration, q.concentration
    a0 = ops.sum(a, axis=-1)
    lead = ops.add(ops.sub(lgamma(a0), ops.sum(lgamma(a), axis=-1)),
                   ops.sub(ops.sum(lgamma(b), axis=-1), lgamma(ops.sum(b, axis=-1))))
    psi = ops.sub(digamma(a), ops.expand_dims(digamma(a0), -1))
    return ops.add(lead, ops.sum(ops.mul(ops.sub(a, b), psi), axis=-1))
