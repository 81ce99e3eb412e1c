"""Bijectors and transformed distributions."""
from .bijector import Bijector, Exp, Invert, ScalarAffine, Sigmoid, Softplus
from .transformed import LogNormal, TransformedDistribution

__all__ = ["Bijector", "ScalarAffine", "Exp", "Sigmoid", "Softplus", "Invert",
           "TransformedDistribution", "LogNormal"]
