"""``Distribution``: the base class. The API follows PyTorch's ``torch.distributions``
(``sample``/``rsample``, ``has_rsample``, ``batch_shape``/``event_shape``, ``log_prob``,
``entropy``, ``mean``/``variance``) and keeps MindSpore's ``nn.probability`` method names
as well (``prob``, ``cdf``, ``kl_loss``, ``cross_entropy``, ``sd``).

Policy for values (``log_prob``, ``prob``, ``cdf``):

* the trailing axes of a value must equal ``event_shape`` and the rest must broadcast with
  ``batch_shape``, else ``ShapeError`` naming the distribution and both shapes;
* with ``validate_args=True`` (the default, as in PyTorch) parameters outside their domain
  raise ``ParameterError`` at construction and values outside the support raise
  ``SupportError`` (checked whenever the data is concrete, i.e. in PyNative mode);
* with ``validate_args=False`` nothing is checked and ``log_prob`` is ``-inf`` outside
  the support (``prob`` 0), with finite gradients (the formula runs on an in-support
  stand-in there).
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import ShapeError
from sporeling.expression import stop_gradient

from ..errors import ParameterError, ProbabilityError, SupportError
from ._util import as_tensor, concrete, is_concrete, safe_where

__all__ = ["Distribution"]


class Distribution:
    """A batch of probability distributions of one family over values of ``event_shape``.

    Subclasses set ``has_rsample`` and implement ``_log_prob`` (on a value in the support),
    ``_support(value)`` (a bool Tensor) and, where they can, ``_rsample``/``_sample``,
    ``_entropy``, ``_cdf``, ``_mean``, ``_variance``; ``_in_support_value`` gives the
    stand-in used outside the support.
    """

    has_rsample = False
    support_text = "the support"

    def __init__(self, batch_shape=(), event_shape=(), dtype=None, validate_args=True,
                 name=None):
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        self.dtype = dtype
        self.validate_args = bool(validate_args)
        self.name = name or type(self).__name__

    # ---- shapes ----------------------------------------------------------------------
    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self._batch_shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self._event_shape

    def _extended_shape(self, sample_shape=()) -> tuple[int, ...]:
        sample_shape = (sample_shape,) if isinstance(sample_shape, int) else tuple(sample_shape)
        return sample_shape + self._batch_shape + self._event_shape

    # ---- checks ------------------------------------------------------------------------
    def _check_param(self, name: str, value, ok, expected: str) -> None:
        """Raise ``ParameterError`` unless ``ok(array)`` holds everywhere (concrete data)."""
        if self.validate_args and is_concrete(value) and not np.all(ok(concrete(value))):
            bad = concrete(value)[~np.broadcast_to(ok(concrete(value)), np.shape(value))]
            raise ParameterError(f"bad parameter {name}", op=self.name, expected=expected,
                                 got=f"{name} with values {bad[:4].tolist()}")

    def _value(self, value, method: str):
        """``value`` as a Tensor of this distribution's dtype, its shape checked."""
        value = as_tensor(value, self.dtype)
        shape, n = tuple(value.shape), len(self._event_shape)
        if n and shape[len(shape) - n:] != self._event_shape or len(shape) < n:
            raise locate(ShapeError("the value's trailing axes are not the event shape",
                                    op=f"{self.name}.{method}", expected=f"(..., "
                                    f"{', '.join(map(str, self._event_shape))})", got=shape))
        try:
            np.broadcast_shapes(shape[:len(shape) - n], self._batch_shape)
        except ValueError:
            raise locate(ShapeError("the value does not broadcast with the batch shape",
                                    op=f"{self.name}.{method}",
                                    expected=f"a shape broadcasting with {self._batch_shape} "
                                    f"(+ event {self._event_shape})", got=shape)) from None
        return value

    def _support(self, value):
        """A bool Tensor: where ``value`` lies in the support (over the batch axes)."""
        raise NotImplementedError

    def _in_support_value(self, value):
        """A value in the support: a number, or a Tensor broadcasting with ``value`` (the
        stand-in outside the support)."""
        raise NotImplementedError

    def _masked(self, value, method: str, fn, outside):
        """``fn(value)`` where ``value`` is in the support; ``outside`` elsewhere (or an
        error with ``validate_args``)."""
        value = self._value(value, method)
        mask = self._support(value)
        if self.validate_args:
            if is_concrete(mask) and not np.all(concrete(mask)):
                inside = concrete(mask)
                values = np.broadcast_to(concrete(value), inside.shape + self._event_shape)
                bad = values[~inside]
                raise SupportError("value outside the support", op=f"{self.name}.{method}",
                                   expected=self.support_text,
                                   got=f"{len(bad)} of {inside.size} outside, e.g. "
                                   f"{bad[:3].tolist()}")
            return fn(value)
        stand_in = self._in_support_value(value)
        event_mask = mask
        for _ in self._event_shape:
            event_mask = ops.expand_dims(event_mask, -1)
        if not hasattr(stand_in, "shape"):
            stand_in = np.asarray(stand_in, value.dtype)
        safe = ops.where(event_mask, value, stand_in)
        return safe_where(mask, fn(safe), outside)

    # ---- the methods -------------------------------------------------------------------
    def log_prob(self, value):
        """The log density (log mass for discrete families) of ``value``."""
        return self._masked(value, "log_prob", self._log_prob, -math.inf)

    def prob(self, value):
        """The density (mass) of ``value``: ``exp(log_prob(value))`` (MindSpore's name)."""
        return ops.exp(self.log_prob(value))

    def cdf(self, value):
        """``P(X <= value)``."""
        if type(self)._cdf is Distribution._cdf:
            raise ProbabilityError("no cdf", op=f"{self.name}.cdf",
                                   expected="a family with a closed-form cdf", got=self.name)
        return self._cdf(self._value(value, "cdf"))

    def _cdf(self, value):
        raise NotImplementedError

    def log_cdf(self, value):
        return ops.log(self.cdf(value))

    def survival_function(self, value):
        return ops.sub(1.0, self.cdf(value))

    def entropy(self):
        """The differential (Shannon, for discrete families) entropy, in nats."""
        return self._entropy()

    def _entropy(self):
        raise ProbabilityError("no entropy", op=f"{self.name}.entropy",
                               expected="a family with a closed-form entropy", got=self.name)

    def kl_loss(self, other):
        """``KL(self || other)`` (MindSpore's name for ``kl_divergence``)."""
        from .kl import kl_divergence
        return kl_divergence(self, other)

    def cross_entropy(self, other):
        """``H(self, other) = entropy(self) + KL(self || other)``."""
        return ops.add(self.entropy(), self.kl_loss(other))

    def rsample(self, sample_shape=()):
        """A reparameterised sample of shape ``sample_shape + batch_shape + event_shape``:
        gradients flow to the parameters."""
        if not self.has_rsample:
            raise ProbabilityError("no reparameterised sample", op=f"{self.name}.rsample",
                                   expected="a family with has_rsample=True",
                                   got=f"{self.name} (use sample(): score-function "
                                   "estimators differentiate log_prob instead)")
        return self._rsample(self._extended_shape(sample_shape))

    def sample(self, sample_shape=()):
        """A sample of shape ``sample_shape + batch_shape + event_shape``, without
        gradients (PyTorch's ``sample``)."""
        shape = self._extended_shape(sample_shape)
        if self.has_rsample:
            return stop_gradient(self._rsample(shape))
        return stop_gradient(self._sample(shape))

    @property
    def mean(self):
        return self._mean()

    @property
    def variance(self):
        return self._variance()

    @property
    def stddev(self):
        return ops.sqrt(self.variance)

    def sd(self):
        """The standard deviation (MindSpore's method; ``stddev`` is the property)."""
        return self.stddev

    def var(self):
        """The variance (MindSpore's method; ``variance`` is the property)."""
        return self.variance

    def __repr__(self) -> str:
        return (f"{self.name}(batch_shape={self._batch_shape}, "
                f"event_shape={self._event_shape})")
