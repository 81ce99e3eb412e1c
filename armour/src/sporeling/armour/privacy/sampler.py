"""Poisson sampling, what the accountant assumes: every step each of the ``n`` examples joins
the batch independently with probability ``sample_rate``, so batch sizes vary (may be 0)."""
from __future__ import annotations

import numpy as np

from .errors import PrivacyError, check_positive

__all__ = ["PoissonSampler"]


class PoissonSampler:
    """Yields one index array per step, ``steps_per_epoch`` (default ``round(1/q)``) per
    epoch. ``len(sampler)`` is the number of steps of one epoch.

        >>> s = PoissonSampler(1000, 0.1, seed=0)
        >>> len(s), abs(np.mean([len(b) for b in s]) - 100) < 15
        (10, True)
    """
    sampling = "poisson"

    def __init__(self, num_samples: int, sample_rate: float, steps_per_epoch: int | None = None,
                 seed: int | None = None):
        if int(num_samples) != num_samples or num_samples < 1:
            raise PrivacyError("num_samples must be a whole number >= 1", op="PoissonSampler",
                               expected="an int >= 1", got=num_samples)
        q = check_positive(sample_rate, "sample_rate", "PoissonSampler")
        if q > 1:
            raise PrivacyError("sample_rate out of range", op="PoissonSampler",
                               expected="0 < sample_rate <= 1", got=q)
        self.num_samples, self.sample_rate = int(num_samples), q
        self.steps_per_epoch = int(steps_per_epoch or max(1, round(1 / q)))
        self._rng = np.random.default_rng(seed)

    @property
    def expected_batch_size(self) -> float:
        return self.num_samples * self.sample_rate

    def __len__(self) -> int:
        return self.steps_per_epoch

    def __iter__(self):
        for _ in range(self.steps_per_epoch):
            yield np.flatnonzero(self._rng.random(self.num_samples) < self.sample_rate)
