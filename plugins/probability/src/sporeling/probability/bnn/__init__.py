"""Bayesian neural networks: reparameterised layers and the ELBO (Bayes by backprop)."""
from .layers import BayesianLayer, ConvReparameterization, DenseReparameterization
from .loss import WithBNNLossCell, kl_loss
from .priors import NormalPosterior, NormalPrior, normal_post_fn

__all__ = ["BayesianLayer", "DenseReparameterization", "ConvReparameterization",
           "WithBNNLossCell", "kl_loss", "NormalPrior", "NormalPosterior", "normal_post_fn"]
