"""``TransformedDistribution(bijector, distribution)``: the law of ``bijector.forward(X)``
for ``X ~ distribution``, and ``LogNormal``. ``log_prob(y) = base.log_prob(inverse(y)) +
inverse_log_jacobian(y)`` (summed over the event axes); ``rsample`` is reparameterised when
the base's is."""
from __future__ import annotations


import numpy as np

from sporeling.compiler import ops

from ..distribution.distribution import Distribution
from ..distribution.normal import Normal
from ..errors import ProbabilityError
from .bijector import Bijector, Exp

__all__ = ["TransformedDistribution", "LogNormal"]


class TransformedDistribution(Distribution):
    """``bijector.forward`` of samples of ``distribution`` (MindSpore's argument order).
    ``cdf`` needs a monotone bijector; ``mean``/``variance``/``entropy`` have no general
    closed form (``LogNormal`` has them)."""

    def __init__(self, bijector: Bijector, distribution: Distribution, *, validate_args=None,
                 name=None):
        if not isinstance(bijector, Bijector) or not isinstance(distribution, Distribution):
            raise ProbabilityError("bad arguments", op="TransformedDistribution",
                                   expected="(Bijector, Distribution)",
                                   got=f"({type(bijector).__name__}, "
                                   f"{type(distribution).__name__})")
        self.bijector, self.distribution = bijector, distribution
        self.has_rsample = distribution.has_rsample
        super().__init__(distribution.batch_shape, distribution.event_shape,
                         distribution.dtype, distribution.validate_args
                         if validate_args is None else validate_args,
                         name or f"Transformed{distribution.name}")

    @property
    def support_text(self):
        return f"{self.bijector.name}.forward of {self.distribution.support_text}"

    def _sum_event(self, x):
        for _ in self.event_shape:
            x = ops.sum(x, axis=-1)
        return x

    def _support(self, y):
        inside = self._sum_event(ops.cast(ops.logical_not(self.bijector._inverse_domain(y)),
                                          np.float32))
        ok = ops.equal(inside, 0.0)
        x = self.bijector.inverse(ops.where(self.bijector._inverse_domain(y), y,
                                            self._safe_y(y)))
        return ops.logical_and(ok, self.distribution._support(x))

    def _safe_y(self, y):
        stand_in = self.distribution._in_support_value(y)
        if not hasattr(stand_in, "shape"):
            stand_in = np.asarray(stand_in, self.dtype)
        return self.bijector.forward(stand_in)

    def _in_support_value(self, y):
        return self._safe_y(y)

    def _log_prob(self, y):
        x = self.bijector.inverse(y)
        return ops.add(self.distribution._log_prob(x),
                       self._sum_event(self.bijector.inverse_log_jacobian(y)))

    def _cdf(self, y):
        increasing = self.bijector.increasing
        if increasing is None:
            raise ProbabilityError("cdf needs a monotone bijector", op=f"{self.name}.cdf",
                                   expected="a bijector known to increase or decrease",
                                   got=self.bijector.name)
        inside = self.bijector._inverse_domain(y)
        stand_in = self._safe_y(y)
        c = self.distribution._cdf(self.bijector.inverse(ops.where(inside, y, stand_in)))
        # outside the bijector's image (an interval): all of it lies below or above y
        beyond = ops.cast(ops.greater(y, stand_in), c.dtype)
        c = ops.where(inside, c, beyond)
        return c if increasing else ops.sub(1.0, c)

    def _rsample(self, shape):
        return self.bijector.forward(self.distribution._rsample(shape))

    def _sample(self, shape):
        return self.bijector.forward(self.distribution._sample(shape))

    def _mean(self):
        raise ProbabilityError("no closed-form mean", op=f"{self.name}.mean",
                               expected="a family with one (e.g. LogNormal)", got=self.name)

    _variance = _mean


class LogNormal(TransformedDistribution):
    """``exp(Normal(loc, scale))`` (MindSpore's ``LogNormal(loc, scale)``), on ``y > 0``."""

    def __init__(self, loc=0.0, scale=1.0, *, dtype=None, validate_args=True,
                 name="LogNormal"):
        super().__init__(Exp(), Normal(loc, scale, dtype=dtype, validate_args=validate_args),
                         validate_args=validate_args, name=name)
        self.loc, self.scale = self.distribution.loc, self.distribution.scale

    def _mean(self):
        return ops.exp(ops.add(self.loc, ops.mul(ops.square(self.scale), 0.5)))

    def _variance(self):
        s2 = ops.square(self.scale)
        return ops.mul(ops.expm1(s2), ops.exp(ops.add(ops.mul(self.loc, 2.0), s2)))

    def _entropy(self):
        return ops.add(self.distribution._entropy(), self.loc)
