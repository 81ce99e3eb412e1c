"""Differentially private training (DP-SGD) and its privacy accounting.

See the "Private training" section of armour's README.
"""
from .accounting import calibrate_noise_multiplier, compute_epsilon
from .errors import PrivacyError, UnsupportedSamplingError
from .optimizer import DPOptimizer, clip_and_noise
from .per_sample import per_sample_grads
from .sampler import PoissonSampler
from .training import PrivacyBudget, train_private

__all__ = ["DPOptimizer", "PoissonSampler", "PrivacyBudget", "train_private",
           "per_sample_grads", "clip_and_noise", "compute_epsilon",
           "calibrate_noise_multiplier", "PrivacyError", "UnsupportedSamplingError"]
