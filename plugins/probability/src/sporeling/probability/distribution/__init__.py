"""Distributions (see :mod:`.distribution` for the shared API and the value policy)."""
from .discrete import Bernoulli, Categorical, Poisson
from .distribution import Distribution
from .gamma import Beta, Dirichlet, Gamma
from .kl import kl_divergence, register_kl
from .normal import MultivariateNormalDiag, Normal
from .uniform import Uniform

__all__ = ["Distribution", "Normal", "MultivariateNormalDiag", "Bernoulli", "Categorical",
           "Uniform", "Gamma", "Beta", "Poisson", "Dirichlet", "kl_divergence", "register_kl"]
