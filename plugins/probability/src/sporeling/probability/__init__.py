"""sporeling.probability: probabilistic programming -- distributions, bijectors, Bayesian
layers (MindSpore's ``nn.probability``; the API of PyTorch's ``torch.distributions`` for
sampling and shapes).

    >>> import numpy as np
    >>> import sporeling.probability as sp
    >>> d = sp.Normal(np.array(0.0), np.array(1.0))
    >>> round(float(d.log_prob(np.array(0.0)).asnumpy()), 6)
    -0.918939
"""
from . import bijector, bnn, distribution
from .bijector import (Bijector, Exp, Invert, LogNormal, ScalarAffine, Sigmoid, Softplus,
                       TransformedDistribution)
from .distribution import (Bernoulli, Beta, Categorical, Dirichlet, Distribution, Gamma,
                           MultivariateNormalDiag, Normal, Poisson, Uniform, kl_divergence,
                           register_kl)
from .bnn import (ConvReparameterization, DenseReparameterization, NormalPosterior, NormalPrior,
                  WithBNNLossCell)
from .errors import KLNotImplementedError, ParameterError, ProbabilityError, SupportError
from .special import digamma, lgamma, polygamma

__all__ = ["distribution", "bijector", "bnn", "DenseReparameterization",
           "ConvReparameterization", "WithBNNLossCell", "NormalPrior", "NormalPosterior",
           "Distribution", "Normal", "MultivariateNormalDiag",
           "Bernoulli", "Categorical", "Uniform", "Gamma", "Beta", "Poisson", "Dirichlet",
           "kl_divergence", "register_kl", "Bijector", "ScalarAffine", "Exp", "Sigmoid",
           "Softplus", "Invert", "TransformedDistribution", "LogNormal", "ProbabilityError",
           "ParameterError", "SupportError", "KLNotImplementedError", "lgamma", "digamma",
           "polygamma"]
