"""``ReplayBuffer``: DQN's memory of transitions, a fixed-size ring of NumPy arrays.

Transitions come in batches (one per vectorised env step); when full, the oldest are
overwritten. ``sample`` draws uniformly with replacement from what is stored.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import RLError

__all__ = ["ReplayBuffer", "Batch"]


@dataclass
class Batch:
    obs: np.ndarray          # (B, obs_dim) float32
    actions: np.ndarray      # (B,) int64
    rewards: np.ndarray      # (B,) float32
    next_obs: np.ndarray     # (B, obs_dim) float32: the state the action led to
    terminated: np.ndarray   # (B,) float32, 1.0 where next_obs ends the episode for good


class ReplayBuffer:
    """``ReplayBuffer(capacity, obs_dim, seed=None)``."""

    def __init__(self, capacity: int, obs_dim: int, seed: int | None = None):
        for label, value in (("capacity", capacity), ("obs_dim", obs_dim)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise RLError(f"bad {label}", op="ReplayBuffer", expected="an int >= 1",
                              got=repr(value))
        self.capacity, self.obs_dim = int(capacity), int(obs_dim)
        self.obs = np.zeros((self.capacity, self.obs_dim), np.float32)
        self.next_obs = np.zeros((self.capacity, self.obs_dim), np.float32)
        self.actions = np.zeros(self.capacity, np.int64)
        self.rewards = np.zeros(self.capacity, np.float32)
        self.terminated = np.zeros(self.capacity, np.float32)
        self._next, self._size = 0, 0
        self._rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return self._size

    def add(self, obs, actions, rewards, next_obs, terminated) -> None:
        """Store a batch of ``n`` transitions (arrays with a leading axis of ``n``)."""
        obs, next_obs = np.asarray(obs, np.float32), np.asarray(next_obs, np.float32)
        actions, rewards = np.asarray(actions), np.asarray(rewards, np.float32)
        terminated = np.asarray(terminated, np.float32)
        n = obs.shape[0] if obs.ndim == 2 else -1
        expected = {"obs": (n, self.obs_dim), "next_obs": (n, self.obs_dim), "actions": (n,),
                    "rewards": (n,), "terminated": (n,)}
        got = {"obs": obs.shape, "next_obs": next_obs.shape, "actions": actions.shape,
               "rewards": rewards.shape, "terminated": terminated.shape}
        if n < 0 or any(tuple(got[k]) != expected[k] for k in expected):
            raise RLError("transitions of inconsistent shapes", op="ReplayBuffer.add",
                          expected=f"obs (n, {self.obs_dim}), next_obs the same, actions, "
                                   f"rewards and terminated (n,)",
                          got=", ".join(f"{k} {tuple(v)}" for k, v in got.items()))
        if not np.issubdtype(actions.dtype, np.integer):
            raise RLError("actions must be integers (a discrete action space)",
                          op="ReplayBuffer.add", expected="an integer array",
                          got=str(actions.dtype))
        if n > self.capacity:  # only the newest `capacity` would survive anyway
            obs, actions, rewards, next_obs, terminated = (
                a[-self.capacity:] for a in (obs, actions, rewards, next_obs, terminated))
            n = self.capacity
        idx = (self._next + np.arange(n)) % self.capacity
        self.obs[idx], self.actions[idx], self.rewards[idx] = obs, actions, rewards
        self.next_obs[idx], self.terminated[idx] = next_obs, terminated
        self._next = int((self._next + n) % self.capacity)
        self._size = min(self._size + n, self.capacity)

    def sample(self, batch_size: int) -> Batch:
        """``batch_size`` stored transitions drawn uniformly (with replacement)."""
        if self._size == 0:
            raise RLError("cannot sample from an empty buffer", op="ReplayBuffer.sample",
                          expected="at least one stored transition", got="0")
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) \
                or batch_size < 1:
            raise RLError("bad batch size", op="ReplayBuffer.sample", expected="an int >= 1",
                          got=repr(batch_size))
        idx = self._rng.integers(0, self._size, int(batch_size))
        return Batch(self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx],
                     self.terminated[idx])
