"""Evaluation: the mean return of a policy over a fixed set of seeded episodes."""
from __future__ import annotations

import numpy as np

from .envs import make_vec_env

__all__ = ["evaluate", "EVAL_SEED_OFFSET"]

EVAL_SEED_OFFSET = 10_000  # evaluation episodes never replay the training seeds


def evaluate(act, env_id: str, episodes: int = 100, seed: int = 0,
             max_parallel: int = 100) -> np.ndarray:
    """The returns of ``episodes`` episodes played with ``act(obs batch) -> actions``.

    Episode ``i`` runs in its own environment seeded ``EVAL_SEED_OFFSET + seed + i``, up to
    ``max_parallel`` at a time in one vectorised env, so the result depends on the policy
    and the seed only."""
    returns = []
    start = 0
    while start < episodes:
        n = min(max_parallel, episodes - start)
        env, _ = make_vec_env(env_id, n, op="evaluate")
        try:
            obs, _ = env.reset(seed=EVAL_SEED_OFFSET + seed + start)
            total, running = np.zeros(n), np.ones(n, bool)
            while running.any():
                obs, rewards, terminated, truncated, _ = env.step(np.asarray(act(obs)))
                total += rewards * running
                running &= ~(terminated | truncated)
        finally:
            env.close()
        returns.append(total)
        start += n
    return np.concatenate(returns)
