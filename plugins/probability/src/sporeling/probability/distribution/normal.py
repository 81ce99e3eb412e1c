"""``Normal`` and ``MultivariateNormalDiag``: reparameterised (``loc + scale * eps``)."""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate

from ._util import broadcast_params, float_params
from .distribution import Distribution

__all__ = ["Normal", "MultivariateNormalDiag"]

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _positive(a):
    return a > 0


class Normal(Distribution):
    """``Normal(mean, sd)`` (MindSpore's argument names; ``loc``/``scale`` attributes as in
    PyTorch). ``sd > 0``.

        >>> import numpy as np
        >>> d = Normal(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
        >>> d.batch_shape, d.log_prob(np.array([0.0, 1.0])).asnumpy().round(4).tolist()
        ((2,), [-0.9189, -1.6121])
    """

    has_rsample = True
    support_text = "finite reals"

    def __init__(self, mean=0.0, sd=1.0, *, dtype=None, validate_args=True,
                 name="Normal"):
        loc, scale = float_params(mean, sd, dtype=dtype)
        shape, (self.loc, self.scale) = broadcast_params(loc, scale)
        super().__init__(shape, (), loc.dtype, validate_args, name)
        self._check_param("sd", self.scale, _positive, "sd > 0")

    def _support(self, value):
        return ops.isfinite(value)

    def _in_support_value(self, value):
        return 0.0

    def _log_prob(self, x):
        z = ops.div(ops.sub(x, self.loc), self.scale)
        return ops.sub(ops.mul(ops.square(z), -0.5), ops.add(ops.log(self.scale), _HALF_LOG_2PI))

    def _cdf(self, x):
        z = ops.div(ops.sub(x, self.loc), ops.mul(self.scale, math.sqrt(2.0)))
        return ops.mul(ops.add(ops.erf(z), 1.0), 0.5)

    def _entropy(self):
        return ops.add(ops.log(self.scale), 0.5 + _HALF_LOG_2PI)

    def _rsample(self, shape):
        eps = ops.normal(shape, dtype=self.dtype)
        return ops.add(ops.mul(eps, self.scale), self.loc)

    def _mean(self):
        return self.loc

    def _variance(self):
        return ops.square(self.scale)


class MultivariateNormalDiag(Distribution):
    """A multivariate normal with diagonal covariance ``diag(scale_diag**2)``: event shape
    ``(d,)``, the last axis of ``loc``/``scale_diag`` (PyTorch's
    ``Independent(Normal(loc, scale), 1)``; TensorFlow Probability's name)."""

    has_rsample = True
    support_text = "finite real vectors"

    def __init__(self, loc, scale_diag, *, dtype=None, validate_args=True,
                 name="MultivariateNormalDiag"):
        loc, scale = float_params(loc, scale_diag, dtype=dtype)
        shape, (self.loc, self.scale_diag) = broadcast_params(loc, scale)
        if not shape:
            from sporeling.core import ShapeError
            raise locate(ShapeError("loc and scale_diag need an event axis", op=name,
                                    expected="at least 1-d", got="0-d"))
        super().__init__(shape[:-1], shape[-1:], loc.dtype, validate_args, name)
        self._check_param("scale_diag", self.scale_diag, _positive, "scale_diag > 0")

    def _support(self, value):
        return ops.all(ops.isfinite(value), axis=-1)

    def _in_support_value(self, value):
        return 0.0

    def _log_prob(self, x):
        z = ops.div(ops.sub(x, self.loc), self.scale_diag)
        d = self.event_shape[0]
        return ops.sub(ops.mul(ops.sum(ops.square(z), axis=-1), -0.5),
                       ops.add(ops.sum(ops.log(self.scale_diag), axis=-1), d * _HALF_LOG_2PI))

    def _entropy(self):
        d = self.event_shape[0]
        return ops.add(ops.sum(ops.log(self.scale_diag), axis=-1), d * (0.5 + _HALF_LOG_2PI))

    def _rsample(self, shape):
        eps = ops.normal(shape, dtype=self.dtype)
        return ops.add(ops.mul(eps, self.scale_diag), self.loc)

    def _mean(self):
        return self.loc

    def _variance(self):
        return ops.square(self.scale_diag)

    @property
    def covariance_matrix(self):
        """``diag(scale_diag**2)`` as a (..., d, d) matrix."""
        eye = np.eye(self.event_shape[0], dtype=self.dtype)
        return ops.mul(ops.expand_dims(ops.square(self.scale_diag), -1), eye)
