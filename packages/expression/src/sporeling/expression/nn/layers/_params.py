"""Building Parameters for layers from MindSpore-style ``*_init`` arguments."""
from __future__ import annotations

import math

from ..init import HeUniform, Uniform, compute_fans, initializer

__all__ = ["make_param", "default_weight_init", "default_bias_init"]


def make_param(init, shape, name: str, dtype="float32", requires_grad: bool = True):
    """A Parameter named ``name`` of ``shape`` filled by ``init`` (anything ``initializer``
    takes)."""
    from ...tensor import Parameter
    return Parameter(initializer(init, shape, dtype), name=name, requires_grad=requires_grad)


def default_weight_init(init):
    """MindSpore 2.x's default for Dense and Conv weights: ``HeUniform(sqrt(5))``, which is
    ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` (the same as PyTorch's)."""
    return HeUniform(math.sqrt(5)) if init is None else init


def default_bias_init(init, weight_shape):
    """MindSpore 2.x's default bias: ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` from the
    weight's fan-in."""
    if init is not None:
        return init
    fan_in, _ = compute_fans(weight_shape)
    return Uniform(1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0)
