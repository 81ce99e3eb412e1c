"""Priors and variational posteriors of Bayesian layers (MindSpore's ``NormalPrior``,
``NormalPosterior``, ``normal_post_fn``): factorised Normals over a weight tensor."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.core import dtypes, generator
from sporeling.expression import Parameter
from sporeling.expression.nn import Cell

from ..distribution import Normal
from ..errors import ParameterError

__all__ = ["NormalPrior", "NormalPosterior", "normal_post_fn"]


class NormalPrior(Cell):
    """A fixed ``Normal(mean, std)`` prior, the same for every weight (no Parameters)."""

    def __init__(self, dtype="float32", mean=0.0, std=1.0):
        super().__init__()
        if not std > 0:
            raise ParameterError("bad prior std", op="NormalPrior", expected="std > 0",
                                 got=std)
        self.dtype = dtypes.dtype(dtype)
        self.mean, self.std = float(mean), float(std)

    def distribution(self, shape=()):
        return Normal(np.full(shape, self.mean, self.dtype), np.full(shape, self.std,
                                                                     self.dtype))

    def construct(self):
        return self.distribution()


class NormalPosterior(Cell):
    """A learnable factorised Normal over a tensor of ``shape``: Parameters ``mean`` and
    ``untransformed_std``; ``std = softplus(untransformed_std)`` stays positive.
    Initialised ``mean ~ N(loc_mean, loc_std)``, ``untransformed_std ~ N(
    untransformed_scale_mean, untransformed_scale_std)`` (MindSpore's defaults: std starts
    near ``softplus(-5) = 0.0067``)."""

    def __init__(self, name, shape, dtype="float32", loc_mean=0.0, loc_std=0.1,
                 untransformed_scale_mean=-5.0, untransformed_scale_std=0.1):
        super().__init__()
        rng = generator("init")  # nn.init's stream: reproducible under set_seed
        dtype = dtypes.dtype(dtype)
        self.shape = tuple(shape)
        self.mean = Parameter(rng.normal(loc_mean, loc_std, self.shape).astype(dtype),
                              name=f"{name}_mean")
        self.untransformed_std = Parameter(
            rng.normal(untransformed_scale_mean, untransformed_scale_std,
                       self.shape).astype(dtype), name=f"{name}_untransformed_std")

    @property
    def std(self):
        return ops.softplus(self.untransformed_std)

    def distribution(self):
        """The posterior as a :class:`~sporeling.probability.Normal` (gradients reach the
        Parameters)."""
        return Normal(self.mean, self.std, validate_args=False)

    def construct(self):
        """A reparameterised sample ``mean + std * eps``."""
        eps = ops.normal(self.shape, dtype=self.mean.dtype)
        return ops.add(self.mean, ops.mul(self.std, eps))


def normal_post_fn(name, shape, dtype="float32"):
    """The default posterior factory: ``NormalPosterior(name, shape, dtype)``."""
    return NormalPosterior(name=name, shape=shape, dtype=dtype)
