"""Discrete families: ``Bernoulli``, ``Categorical``, ``Poisson``. None is reparameterisable
(``has_rsample`` is False): ``sample`` carries no gradient, so differentiate ``log_prob``
of the samples (score-function / REINFORCE) -- its gradient wrt the parameters flows."""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import ShapeError

from ..errors import ParameterError
from ..incomplete import gammainc
from ..sampling import random_poisson
from ..special import lgamma
from ._util import broadcast_params, float_params
from .distribution import Distribution

__all__ = ["Bernoulli", "Categorical", "Poisson"]


def _probs_or_logits(name, probs, logits):
    if (probs is None) == (logits is None):
        raise ParameterError("give exactly one of probs and logits", op=name,
                             expected="probs=... or logits=...",
                             got=f"probs={probs!r}, logits={logits!r}")


def _is_integer(x):
    return ops.equal(ops.floor(x), x)


class Bernoulli(Distribution):
    """``Bernoulli(probs)`` or ``Bernoulli(logits=...)``: 1 with probability ``probs``.
    Values are floats 0. or 1.; everything is computed from the logits (stable)."""

    support_text = "0 or 1"

    def __init__(self, probs=None, logits=None, *, dtype=None, validate_args=True,
                 name="Bernoulli"):
        _probs_or_logits(name, probs, logits)
        super().__init__((), (), None, validate_args, name)
        if probs is not None:
            (p,) = float_params(probs, dtype=dtype)
            self._check_param("probs", p, lambda a: (a >= 0) & (a <= 1), "0 <= probs <= 1")
            self.probs = p
            # logit = log p - log1p(-p), infinite at 0 and 1 (kept finite for the formulas)
            eps = np.finfo(p.dtype).tiny
            self.logits = ops.sub(ops.log(ops.maximum(p, eps)), ops.log1p(ops.neg(
                ops.minimum(p, 1.0 - np.finfo(p.dtype).epsneg))))
        else:
            (self.logits,) = float_params(logits, dtype=dtype)
            self.probs = ops.sigmoid(self.logits)
        self._batch_shape = tuple(self.logits.shape)
        self.dtype = self.logits.dtype

    def _support(self, value):
        return ops.logical_or(ops.equal(value, 0.0), ops.equal(value, 1.0))

    def _in_support_value(self, value):
        return 0.0

    def _log_prob(self, x):
        # x l - softplus(l): log p for x = 1, log(1 - p) for x = 0
        return ops.sub(ops.mul(x, self.logits), ops.softplus(self.logits))

    def _cdf(self, x):
        zero, one = np.asarray(0.0, self.dtype), np.asarray(1.0, self.dtype)
        return ops.where(ops.less(x, 0.0), zero,
                         ops.where(ops.greater_equal(x, 1.0), one, ops.sub(1.0, self.probs)))

    def _entropy(self):
        return ops.sub(ops.softplus(self.logits), ops.mul(self.probs, self.logits))

    def _sample(self, shape):
        return ops.bernoulli(ops.broadcast_to(self.probs, shape), dtype=self.dtype)

    def _mean(self):
        return self.probs

    def _variance(self):
        return ops.mul(self.probs, ops.sub(1.0, self.probs))


class Categorical(Distribution):
    """``Categorical(probs)`` or ``Categorical(logits=...)`` over ``0..K-1`` (the last axis;
    ``probs`` are normalised). Values are integer class indices (any int or integral float
    dtype); ``batch_shape`` is the parameters' shape without the last axis."""

    def __init__(self, probs=None, logits=None, *, dtype=None, validate_args=True,
                 name="Categorical"):
        _probs_or_logits(name, probs, logits)
        super().__init__((), (), None, validate_args, name)
        if probs is not None:
            (p,) = float_params(probs, dtype=dtype)
            self._check_param("probs", p, lambda a: a >= 0, "probs >= 0")
            p = ops.div(p, ops.sum(p, axis=-1, keepdims=True))
            self.probs = p
            self.logits = ops.log(p)
        else:
            (logits,) = float_params(logits, dtype=dtype)
            self.logits = ops.log_softmax(logits, axis=-1)
            self.probs = ops.softmax(logits, axis=-1)
        if not self.logits.shape:
            raise locate(ShapeError("probabilities need a class axis", op=name,
                                    expected="at least 1-d (..., K)", got="0-d"))
        self.num_classes = int(self.logits.shape[-1])
        self._batch_shape = tuple(self.logits.shape[:-1])
        self.dtype = self.logits.dtype

    @property
    def support_text(self):
        return f"an integer in [0, {self.num_classes})"

    def _support(self, value):
        return ops.logical_and(ops.logical_and(ops.greater_equal(value, 0.0),
                                               ops.less(value, float(self.num_classes))),
                               _is_integer(value))

    def _in_support_value(self, value):
        return 0.0

    def _log_prob(self, x):
        shape = np.broadcast_shapes(tuple(x.shape), self.batch_shape)
        logits = ops.broadcast_to(self.logits, shape + (self.num_classes,))
        index = ops.cast(ops.broadcast_to(x, shape), np.int64)
        return ops.squeeze(ops.take_along_axis(logits, ops.expand_dims(index, -1), -1), -1)

    def _entropy(self):
        plogp = ops.where(ops.greater(self.probs, 0.0), ops.mul(self.probs, self.logits),
                          np.asarray(0.0, self.dtype))
        return ops.neg(ops.sum(plogp, axis=-1))

    def _sample(self, shape):
        # Gumbel-max: argmax(logits + Gumbel noise) is a Categorical draw
        u = ops.uniform(shape + (self.num_classes,), dtype=self.dtype)
        tiny = np.finfo(self.dtype).tiny
        gumbel = ops.neg(ops.log(ops.neg(ops.log(ops.maximum(u, tiny)))))
        return ops.argmax(ops.add(self.logits, gumbel), axis=-1)

    def _mean(self):
        k = np.arange(self.num_classes, dtype=self.dtype)
        return ops.sum(ops.mul(self.probs, k), axis=-1)

    def _variance(self):
        k = np.arange(self.num_classes, dtype=self.dtype)
        m = ops.expand_dims(self._mean(), -1)
        return ops.sum(ops.mul(self.probs, ops.square(ops.sub(k, m))), axis=-1)


class Poisson(Distribution):
    """``Poisson(rate)``, ``rate > 0``, over the counts 0, 1, 2... (floats). ``entropy`` sums
    ``-p log p`` over the counts up to ``rate + 20 sqrt(rate) + 30`` (the tail left out is
    below 1e-15); it needs concrete rates (PyNative)."""

    support_text = "a non-negative integer"

    def __init__(self, rate, *, dtype=None, validate_args=True,
                 name="Poisson"):
        (self.rate,) = float_params(rate, dtype=dtype)
        super().__init__(tuple(self.rate.shape), (), self.rate.dtype, validate_args, name)
        self._check_param("rate", self.rate, lambda a: a > 0, "rate > 0")

    def _support(self, value):
        return ops.logical_and(ops.greater_equal(value, 0.0), _is_integer(value))

    def _in_support_value(self, value):
        return 0.0

    def _log_prob(self, x):
        return ops.sub(ops.sub(ops.mul(x, ops.log(self.rate)), self.rate),
                       lgamma(ops.add(x, 1.0)))

    def _entropy(self):
        from ._util import concrete
        top = float(np.max(concrete(self.rate), initial=0.0))
        n = int(math.ceil(top + 20.0 * math.sqrt(top) + 30.0))
        k = np.arange(n, dtype=self.dtype).reshape((n,) + (1,) * len(self.batch_shape))
        lp = self._log_prob(k)
        return ops.neg(ops.sum(ops.mul(ops.exp(lp), lp), axis=0))

    def _cdf(self, x):
        # P(X <= k) = Q(floor(k) + 1, rate) = 1 - P(floor(k) + 1, rate)
        counts = ops.add(ops.floor(ops.maximum(x, 0.0)), 1.0)
        p = ops.sub(1.0, gammainc(counts, self.rate))
        return ops.where(ops.less(x, 0.0), np.asarray(0.0, self.dtype), p)

    def _sample(self, shape):
        return random_poisson(ops.broadcast_to(self.rate, shape))

    def _mean(self):
        return self.rate

    def _variance(self):
        return self.rate
