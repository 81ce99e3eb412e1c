"""``Uniform(low, high)`` on ``[low, high)``: reparameterised (``low + (high - low) u``)."""
from __future__ import annotations

from sporeling.compiler import ops

from ._util import broadcast_params, concrete, float_params, is_concrete
from ..errors import ParameterError
from .distribution import Distribution

__all__ = ["Uniform"]


class Uniform(Distribution):
    """The uniform distribution on ``[low, high)``, ``low < high``; gradients reach both
    bounds through ``rsample``, ``log_prob`` (``-log(high - low)``), ``cdf`` and ``entropy``.
    """

    has_rsample = True

    def __init__(self, low=0.0, high=1.0, *, dtype=None, validate_args=True,
                 name="Uniform"):
        low, high = float_params(low, high, dtype=dtype)
        shape, (self.low, self.high) = broadcast_params(low, high)
        super().__init__(shape, (), low.dtype, validate_args, name)
        if self.validate_args and is_concrete(self.low) and is_concrete(self.high):
            bad = ~(concrete(self.low) < concrete(self.high))
            if bad.any():
                raise ParameterError("bad bounds", op=name, expected="low < high",
                                     got=f"low={concrete(self.low)[bad][:4].tolist()}, "
                                     f"high={concrete(self.high)[bad][:4].tolist()}")

    @property
    def support_text(self):
        return "low <= value < high"

    def _support(self, value):
        return ops.logical_and(ops.greater_equal(value, self.low), ops.less(value, self.high))

    def _in_support_value(self, value):
        return self.low

    def _log_prob(self, x):
        return ops.neg(ops.log(ops.sub(ops.add(ops.mul(x, 0.0), self.high), self.low)))

    def _cdf(self, x):
        return ops.clip(ops.div(ops.sub(x, self.low), ops.sub(self.high, self.low)), 0.0, 1.0)

    def _entropy(self):
        return ops.log(ops.sub(self.high, self.low))

    def _rsample(self, shape):
        u = ops.uniform(shape, dtype=self.dtype)
        return ops.add(ops.mul(u, ops.sub(self.high, self.low)), self.low)

    def _mean(self):
        return ops.mul(ops.add(self.low, self.high), 0.5)

    def _variance(self):
        return ops.div(ops.square(ops.sub(self.high, self.low)), 12.0)
