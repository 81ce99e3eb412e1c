"""Vectorised gymnasium environments, checked before any training starts.

Both agents act on ``gymnasium.vector.SyncVectorEnv`` with ``SAME_STEP`` autoreset: when an
episode ends, ``step`` already returns the next episode's first observation and puts the
true last one in ``info["final_obs"]`` (:func:`true_next_obs` puts it back), so the return
of a *truncated* episode (CartPole's 500-step limit) can be bootstrapped while a
*terminated* one is not.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import RLError, SpaceError, UnknownEnvError

__all__ = ["EnvSpec", "env_spec", "make_vec_env", "true_next_obs"]


@dataclass(frozen=True)
class EnvSpec:
    """What the networks need to know of an environment."""
    env_id: str
    obs_dim: int
    n_actions: int


def _gym():
    # imported on use: the plugin host imports this package whenever it collects commands
    import gymnasium
    return gymnasium


def _make(env_id: str, op: str):
    gym = _gym()
    try:
        return gym.make(env_id)
    except gym.error.Error as exc:  # NameNotFound, VersionNotFound, UnregisteredEnv, ...
        raise UnknownEnvError("gymnasium has no such environment", op=op,
                              expected="a registered id such as 'CartPole-v1'",
                              got=repr(env_id), hint=f"gymnasium says: {exc}") from None


def env_spec(env_id: str, op: str = "rl") -> EnvSpec:
    gym = _gym()
    """Check that ``env_id`` exists and has a Discrete action space and a flat Box
    observation; raise :class:`UnknownEnvError` / :class:`SpaceError` naming it if not."""
    env = _make(env_id, op)
    try:
        act, obs = env.action_space, env.observation_space
        if not isinstance(act, gym.spaces.Discrete):
            raise SpaceError("the agents need a discrete action space", op=op,
                             expected="gymnasium.spaces.Discrete",
                             got=f"{act} ({type(act).__name__})", where=env_id,
                             hint="DQN and PPO here choose among finitely many actions")
        if not isinstance(obs, gym.spaces.Box) or len(obs.shape) != 1:
            raise SpaceError("the agents need a flat vector observation", op=op,
                             expected="a 1-d gymnasium.spaces.Box", got=str(obs), where=env_id)
        return EnvSpec(env_id, int(obs.shape[0]), int(act.n))
    finally:
        env.close()


def make_vec_env(env_id: str, num_envs: int,
                 op: str = "rl") -> tuple["gymnasium.vector.VectorEnv", EnvSpec]:
    """``num_envs`` copies of ``env_id`` stepped together (SyncVectorEnv, SAME_STEP
    autoreset). Seed it with ``env.reset(seed=s)``: copy ``i`` gets seed ``s + i``."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise RLError("bad number of environments", op=op, expected="an int >= 1",
                      got=repr(num_envs))
    spec = env_spec(env_id, op)
    gym = _gym()
    env = gym.vector.SyncVectorEnv([lambda: gym.make(env_id) for _ in range(int(num_envs))],
                                   autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
    return env, spec


def true_next_obs(next_obs: np.ndarray, info: dict, done: np.ndarray) -> np.ndarray:
    """The observation each step really led to: ``next_obs`` except where an episode
    ended, whose last observation SAME_STEP autoreset keeps in ``info["final_obs"]``."""
    if not done.any():
        return next_obs
    real = next_obs.copy()
    for i in np.flatnonzero(done):
        real[i] = info["final_obs"][i]
    return real
