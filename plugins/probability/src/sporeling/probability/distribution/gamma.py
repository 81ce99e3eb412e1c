"""``Gamma``, ``Beta`` and ``Dirichlet``: reparameterised implicitly (``rsample`` through
:func:`sporeling.probability.sampling.random_gamma`; Beta and Dirichlet are normalised Gamma
samples), with ``lgamma``/``digamma`` from :mod:`sporeling.probability.special`."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import ShapeError

from ..incomplete import betainc, gammainc
from ..sampling import random_gamma
from ..special import digamma, lgamma
from ._util import broadcast_params, float_params
from .distribution import Distribution

__all__ = ["Gamma", "Beta", "Dirichlet", "lbeta"]


def _positive(a):
    return a > 0


def _wide_gammas(concentration, shape):
    """Standard Gamma samples of ``shape`` drawn and kept in float64: ratios of float32
    samples of small concentrations underflow to 0/0 (Beta and Dirichlet normalise them)."""
    wide = ops.cast(ops.broadcast_to(concentration, shape), np.float64)
    return random_gamma(wide)


def _inside_open_unit(x, dtype):
    """``x`` cast to ``dtype`` and kept inside ``(0, 1)`` (rounding can reach 0 or 1)."""
    info = np.finfo(dtype)
    return ops.clip(ops.cast(x, dtype), float(info.tiny), float(1.0 - info.epsneg))


def lbeta(a, b):
    """``log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)``."""
    return ops.sub(ops.add(lgamma(a), lgamma(b)), lgamma(ops.add(a, b)))


class Gamma(Distribution):
    """``Gamma(concentration, rate)`` (shape ``alpha``, rate ``beta``; mean ``alpha/beta``),
    both ``> 0``, on ``x > 0``."""

    has_rsample = True
    support_text = "value > 0"

    def __init__(self, concentration, rate=1.0, *, dtype=None, validate_args=True,
                 name="Gamma"):
        a, b = float_params(concentration, rate, dtype=dtype)
        shape, (self.concentration, self.rate) = broadcast_params(a, b)
        super().__init__(shape, (), a.dtype, validate_args, name)
        self._check_param("concentration", self.concentration, _positive, "concentration > 0")
        self._check_param("rate", self.rate, _positive, "rate > 0")

    def _support(self, value):
        return ops.greater(value, 0.0)

    def _in_support_value(self, value):
        return 1.0

    def _log_prob(self, x):
        a, b = self.concentration, self.rate
        return ops.sub(ops.add(ops.mul(a, ops.log(b)), ops.mul(ops.sub(a, 1.0), ops.log(x))),
                       ops.add(ops.mul(b, x), lgamma(a)))

    def _entropy(self):
        a = self.concentration
        return ops.add(ops.sub(a, ops.log(self.rate)),
                       ops.add(lgamma(a), ops.mul(ops.sub(1.0, a), digamma(a))))

    def _cdf(self, x):
        positive = ops.greater(x, 0.0)
        inside = ops.where(positive, x, np.asarray(1.0, self.dtype))
        p = gammainc(self.concentration, ops.mul(inside, self.rate))
        return ops.where(positive, p, np.asarray(0.0, self.dtype))

    def _rsample(self, shape):
        return ops.div(random_gamma(ops.broadcast_to(self.concentration, shape)), self.rate)

    def _mean(self):
        return ops.div(self.concentration, self.rate)

    def _variance(self):
        return ops.div(self.concentration, ops.square(self.rate))


class Beta(Distribution):
    """``Beta(concentration1, concentration0)`` (``alpha``, ``beta``; PyTorch's and
    MindSpore's names), both ``> 0``, on ``0 < x < 1``."""

    has_rsample = True
    support_text = "0 < value < 1"

    def __init__(self, concentration1, concentration0, *, dtype=None, validate_args=True,
                 name="Beta"):
        a, b = float_params(concentration1, concentration0, dtype=dtype)
        shape, (self.concentration1, self.concentration0) = broadcast_params(a, b)
        super().__init__(shape, (), a.dtype, validate_args, name)
        self._check_param("concentration1", a, _positive, "concentration1 > 0")
        self._check_param("concentration0", b, _positive, "concentration0 > 0")

    def _support(self, value):
        return ops.logical_and(ops.greater(value, 0.0), ops.less(value, 1.0))

    def _in_support_value(self, value):
        return 0.5

    def _log_prob(self, x):
        a, b = self.concentration1, self.concentration0
        return ops.sub(ops.add(ops.mul(ops.sub(a, 1.0), ops.log(x)),
                               ops.mul(ops.sub(b, 1.0), ops.log1p(ops.neg(x)))), lbeta(a, b))

    def _entropy(self):
        a, b = self.concentration1, self.concentration0
        total = ops.add(a, b)
        return ops.add(ops.sub(ops.sub(lbeta(a, b), ops.mul(ops.sub(a, 1.0), digamma(a))),
                               ops.mul(ops.sub(b, 1.0), digamma(b))),
                       ops.mul(ops.sub(total, 2.0), digamma(total)))

    def _cdf(self, x):
        zero, one = np.asarray(0.0, self.dtype), np.asarray(1.0, self.dtype)
        inside = ops.logical_and(ops.greater(x, 0.0), ops.less(x, 1.0))
        p = betainc(self.concentration1, self.concentration0,
                    ops.where(inside, x, np.asarray(0.5, self.dtype)))
        return ops.where(inside, p, ops.where(ops.greater_equal(x, 1.0), one, zero))

    def _rsample(self, shape):
        x = _wide_gammas(self.concentration1, shape)
        y = _wide_gammas(self.concentration0, shape)
        return _inside_open_unit(ops.div(x, ops.add(x, y)), self.dtype)

    def _mean(self):
        return ops.div(self.concentration1, ops.add(self.concentration1, self.concentration0))

    def _variance(self):
        a, b = self.concentration1, self.concentration0
        total = ops.add(a, b)
        return ops.div(ops.mul(a, b), ops.mul(ops.square(total), ops.add(total, 1.0)))


class Dirichlet(Distribution):
    """``Dirichlet(concentration)`` over the simplex: event shape ``(K,)``, the last axis of
    ``concentration`` (``> 0``). A value's entries must be positive and sum to 1 (within
    ``1e-6``; ``1e-4`` for float32 and narrower)."""

    has_rsample = True
    support_text = "positive entries summing to 1"

    def __init__(self, concentration, *, dtype=None, validate_args=True,
                 name="Dirichlet"):
        (self.concentration,) = float_params(concentration, dtype=dtype)
        shape = tuple(self.concentration.shape)
        if not shape:
            raise locate(ShapeError("concentration needs an event axis", op=name,
                                    expected="at least 1-d (..., K)", got="0-d"))
        super().__init__(shape[:-1], shape[-1:], self.concentration.dtype, validate_args, name)
        self._check_param("concentration", self.concentration, _positive, "concentration > 0")

    def _support(self, value):
        tol = 1e-6 if np.finfo(self.dtype).bits >= 64 else 1e-4
        positive = ops.all(ops.greater(value, 0.0), axis=-1)
        sums = ops.less_equal(ops.abs(ops.sub(ops.sum(value, axis=-1), 1.0)), tol)
        return ops.logical_and(positive, sums)

    def _in_support_value(self, value):
        k = self.event_shape[0]
        return np.full(k, 1.0 / k, self.dtype)

    def _log_prob(self, x):
        a = self.concentration
        return ops.add(ops.sum(ops.mul(ops.sub(a, 1.0), ops.log(x)), axis=-1),
                       ops.sub(lgamma(ops.sum(a, axis=-1)), ops.sum(lgamma(a), axis=-1)))

    def _entropy(self):
        a = self.concentration
        k = self.event_shape[0]
        total = ops.sum(a, axis=-1)
        log_b = ops.sub(ops.sum(lgamma(a), axis=-1), lgamma(total))
        return ops.sub(ops.add(log_b, ops.mul(ops.sub(total, float(k)), digamma(total))),
                       ops.sum(ops.mul(ops.sub(a, 1.0), digamma(a)), axis=-1))

    def _rsample(self, shape):
        g = _wide_gammas(self.concentration, shape)
        return _inside_open_unit(ops.div(g, ops.sum(g, axis=-1, keepdims=True)), self.dtype)

    def _mean(self):
        return ops.div(self.concentration, ops.sum(self.concentration, axis=-1, keepdims=True))

    def _variance(self):
        a = self.concentration
        total = ops.sum(a, axis=-1, keepdims=True)
        m = ops.div(a, total)
        return ops.div(ops.mul(m, ops.sub(1.0, m)), ops.add(total, 1.0))
