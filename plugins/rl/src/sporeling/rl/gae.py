"""Generalised advantage estimation (Schulman et al. 2016) over a vectorised rollout."""
from __future__ import annotations

import numpy as np

from .errors import RLError

__all__ = ["compute_gae"]


def compute_gae(rewards, values, dones, last_values, gamma: float = 0.99, lam: float = 0.95):
    """Advantages and returns for a rollout of ``T`` steps of ``N`` environments.

    ``rewards``, ``values`` (V(s_t)) and ``dones`` are (T, N); ``dones[t]`` is 1 where the
    episode ended at step ``t`` (the next row then starts a new episode, so nothing flows
    back across it -- to bootstrap a *truncated* episode, add ``gamma * V(final obs)`` to
    its last reward first). ``last_values`` (N,) is V of the observation after the last
    step. ``A_t = sum_l (gamma*lam)^l delta_{t+l}`` within the episode, with
    ``delta_t = r_t + gamma * V(s_{t+1}) * (1 - done_t) - V(s_t)``; returns ``A + V``.
    """
    rewards, values = np.asarray(rewards, np.float64), np.asarray(values, np.float64)
    dones, last_values = np.asarray(dones, np.float64), np.asarray(last_values, np.float64)
    if rewards.ndim != 2 or values.shape != rewards.shape or dones.shape != rewards.shape \
            or last_values.shape != rewards.shape[1:]:
        raise RLError("rollout arrays of inconsistent shapes", op="compute_gae",
                      expected="rewards, values, dones (T, N) and last_values (N,)",
                      got=f"{rewards.shape}, {values.shape}, {dones.shape} and "
                          f"{last_values.shape}")
    advantages = np.zeros_like(rewards)
    running = np.zeros_like(last_values)
    next_values = last_values
    for t in range(rewards.shape[0] - 1, -1, -1):
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_values * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
        next_values = values[t]
    return advantages.astype(np.float32), (advantages + values).astype(np.float32)
