"""Magnitude pruning: masks (unstructured, global, by channel) and the polynomial sparsity
schedule of Zhu & Gupta. Masks are plain boolean arrays; ``sporeling.expression.prune``
applies them to a network's Parameters and keeps them through fine-tuning. See the
"Pruning" section of the package README."""
from .masks import channel_mask, global_magnitude_masks, magnitude_mask, sparsity_of
from .schedule import PolynomialSparsity, constant_sparsity

__all__ = ["magnitude_mask", "global_magnitude_masks", "channel_mask", "sparsity_of",
           "PolynomialSparsity", "constant_sparsity"]
