"""Running returns of the episodes a vectorised environment plays."""
from __future__ import annotations

import numpy as np

__all__ = ["EpisodeReturns"]


class EpisodeReturns:
    """Sums rewards per environment; ``update`` returns the returns of the episodes that
    just ended and starts those environments' sums again."""

    def __init__(self, num_envs: int):
        self._running = np.zeros(num_envs, np.float64)

    def update(self, rewards, done) -> list[float]:
        self._running += rewards
        finished = [float(r) for r in self._running[done]]
        self._running[done] = 0.0
        return finished
