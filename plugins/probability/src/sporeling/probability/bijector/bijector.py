"""Bijectors: invertible, differentiable maps with the log of their Jacobian's determinant,
MindSpore's ``nn.probability.bijector`` API: ``forward(x)``, ``inverse(y)``,
``forward_log_jacobian(x)`` (``log |dy/dx|``), ``inverse_log_jacobian(y)``
(``log |dx/dy|``). All here act elementwise (their Jacobian is diagonal), so the log
Jacobians are elementwise too; a ``TransformedDistribution`` sums them over event axes.

    >>> import numpy as np
    >>> b = Exp()
    >>> float(b.inverse(b.forward(np.array(0.5))))
    0.5
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops

from ..distribution._util import concrete, float_params, is_concrete
from ..errors import ParameterError

__all__ = ["Bijector", "ScalarAffine", "Exp", "Sigmoid", "Softplus", "Invert"]


def _like(x, value):
    """``value`` (a number or Tensor) broadcast to ``x``'s shape (a log Jacobian per
    element)."""
    return ops.add(ops.mul(x, 0.0), value)


class Bijector:
    """Base class: subclasses implement ``_forward``, ``_inverse``,
    ``_forward_log_jacobian`` and ``_inverse_domain(y)`` (a bool Tensor, where ``inverse``
    is defined). ``increasing`` says whether ``forward`` is increasing (used by ``cdf``)."""

    increasing = True

    def __init__(self, name=None):
        self.name = name or type(self).__name__

    def forward(self, x):
        return self._forward(self._operand(x))

    def inverse(self, y):
        return self._inverse(self._operand(y))

    def forward_log_jacobian(self, x):
        return self._forward_log_jacobian(self._operand(x))

    def inverse_log_jacobian(self, y):
        y = self._operand(y)
        return ops.neg(self._forward_log_jacobian(self._inverse(y)))

    def _operand(self, x):
        """``x`` as a float Tensor (Tensors and tracers stay themselves)."""
        (x,) = float_params(x)
        return x

    def _inverse_domain(self, y):
        return ops.isfinite(y)

    def __call__(self, x):
        return self.forward(x)

    def __repr__(self) -> str:
        return f"{self.name}()"


class ScalarAffine(Bijector):
    """``y = scale * x + shift`` (``scale != 0``; PyTorch's ``AffineTransform``). Python
    numbers stay numbers (they take the operand's dtype); arrays become Tensors."""

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
        super().__init__(name)
        self.scale, self.shift = (float(v) if isinstance(v, (int, float)) else
                                  float_params(v)[0] for v in (scale, shift))
        if is_concrete(self.scale) and np.any(concrete(self.scale) == 0):
            raise ParameterError("bad scale", op=name, expected="scale != 0", got=0.0)

    @property
    def increasing(self):
        if not is_concrete(self.scale):
            return None
        s = concrete(self.scale)
        return True if np.all(s > 0) else False if np.all(s < 0) else None

    def _forward(self, x):
        return ops.add(ops.mul(x, self.scale), self.shift)

    def _inverse(self, y):
        return ops.div(ops.sub(y, self.shift), self.scale)

    def _forward_log_jacobian(self, x):
        if isinstance(self.scale, float):
            return _like(x, math.log(abs(self.scale)))
        return _like(x, ops.log(ops.abs(self.scale)))


class Exp(Bijector):
    """``y = exp(x)`` on ``y > 0`` (``TransformedDistribution(Exp(), Normal)`` is the
    log-normal)."""

    def _forward(self, x):
        return ops.exp(x)

    def _inverse(self, y):
        return ops.log(y)

    def _forward_log_jacobian(self, x):
        return x

    def inverse_log_jacobian(self, y):
        return ops.neg(ops.log(self._operand(y)))

    def _inverse_domain(self, y):
        return ops.greater(y, 0.0)


class Sigmoid(Bijector):
    """``y = 1 / (1 + exp(-x))`` on ``0 < y < 1`` (PyTorch's ``SigmoidTransform``)."""

    def _forward(self, x):
        return ops.sigmoid(x)

    def _inverse(self, y):
        return ops.sub(ops.log(y), ops.log1p(ops.neg(y)))

    def _forward_log_jacobian(self, x):
        return ops.neg(ops.add(ops.softplus(x), ops.softplus(ops.neg(x))))

    def inverse_log_jacobian(self, y):
        y = self._operand(y)
        return ops.neg(ops.add(ops.log(y), ops.log1p(ops.neg(y))))

    def _inverse_domain(self, y):
        return ops.logical_and(ops.greater(y, 0.0), ops.less(y, 1.0))


class Softplus(Bijector):
    """``y = log(1 + exp(k x)) / k`` with ``sharpness`` ``k > 0`` on ``y > 0``."""

    def __init__(self, sharpness=1.0, name="Softplus"):
        super().__init__(name)
        self.sharpness = float(sharpness)
        if not self.sharpness > 0:
            raise ParameterError("bad sharpness", op=name, expected="sharpness > 0",
                                 got=sharpness)

    def _forward(self, x):
        return ops.softplus(x, beta=self.sharpness)

    def _inverse(self, y):
        # log(expm1(k y)) / k, computed as y + log(-expm1(-k y)) / k (no overflow)
        return ops.add(y, ops.div(ops.log(ops.neg(ops.expm1(ops.mul(y, -self.sharpness)))),
                                  self.sharpness))

    def _forward_log_jacobian(self, x):
        # dy/dx = sigmoid(k x)
        return ops.neg(ops.softplus(ops.mul(x, -self.sharpness)))

    def inverse_log_jacobian(self, y):
        y = self._operand(y)  # sigmoid(k x) = 1 - exp(-k y)
        return ops.neg(ops.log(ops.neg(ops.expm1(ops.mul(y, -self.sharpness)))))

    def _inverse_domain(self, y):
        return ops.greater(y, 0.0)


class Invert(Bijector):
    """``bijector`` run backwards: ``forward`` is its ``inverse`` and vice versa."""

    def __init__(self, bijector: Bijector, name=None):
        super().__init__(name or f"Invert{bijector.name}")
        self.bijector = bijector

    @property
    def increasing(self):
        return self.bijector.increasing

    def forward(self, x):
        return self.bijector.inverse(x)

    def inverse(self, y):
        return self.bijector.forward(y)

    def forward_log_jacobian(self, x):
        return self.bijector.inverse_log_jacobian(x)

    def inverse_log_jacobian(self, y):
        return self.bijector.forward_log_jacobian(y)

    def _inverse_domain(self, y):
        return ops.isfinite(y)
