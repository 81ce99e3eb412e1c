"""The training loop both agents share: advance, evaluate now and then, stop at the target.

Every ``eval_every`` env steps the greedy policy plays ``screen_episodes`` seeded episodes;
when their mean reaches ``target`` the full ``eval_episodes`` evaluation runs, and training
stops once that one reaches the target too (so the step count reported is the first
checkpoint that passes the full evaluation). The best screened weights are kept: a run that
never reaches the target ends with them, evaluated over ``eval_episodes`` episodes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from threadpoolctl import threadpool_limits

from .dqn import DQN, DQNConfig
from .errors import RLError
from .evaluate import evaluate
from .ppo import PPO, PPOConfig

__all__ = ["AGENTS", "History", "make_agent", "train"]

AGENTS = {"dqn": (DQN, DQNConfig), "ppo": (PPO, PPOConfig)}


@dataclass
class History:
    """What a run did: training episodes, screening evaluations, the final result."""
    algo: str
    env_id: str
    seed: int
    episodes: list = field(default_factory=list)      # (env_steps, return)
    evaluations: list = field(default_factory=list)   # (env_steps, mean, std, episodes)
    env_steps: int = 0
    seconds: float = 0.0
    reached_at: int | None = None      # env steps when the full evaluation passed the target
    reached_seconds: float | None = None
    reached_cpu_seconds: float | None = None  # this process's CPU time: robust to load
    final_mean: float = float("nan")
    final_std: float = float("nan")
    final_episodes: int = 0

    def summary(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("episodes", "evaluations")}


def make_agent(algo: str, env_id: str = "CartPole-v1", seed: int = 0, **config):
    """A ``DQN`` or ``PPO`` agent; ``config`` overrides fields of its config dataclass."""
    if algo not in AGENTS:
        raise RLError("unknown algorithm", op="rl.train", expected=f"one of {sorted(AGENTS)}",
                      got=repr(algo))
    cls, config_cls = AGENTS[algo]
    unknown = set(config) - set(config_cls.__dataclass_fields__)
    if unknown:
        raise RLError(f"unknown {config_cls.__name__} fields", op="rl.train",
                      expected=f"some of {sorted(config_cls.__dataclass_fields__)}",
                      got=", ".join(sorted(unknown)))
    return cls(env_id, seed=seed, config=config_cls(**config))


def train(algo: str, env_id: str = "CartPole-v1", steps: int = 100_000, seed: int = 0, *,
          target: float = 475.0, eval_every: int = 4096, screen_episodes: int = 10,
          eval_episodes: int = 100, log=None, **config) -> tuple[object, History]:
    """Train ``algo`` on ``env_id`` for at most ``steps`` env steps (see the module notes).
    ``log(line)`` receives progress lines. Returns the agent (with its best weights) and
    the :class:`History`."""
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise RLError("bad step budget", op="rl.train", expected="an int >= 1", got=repr(steps))
    agent = make_agent(algo, env_id, seed, **config)
    history = History(algo, env_id, seed)
    log = log or (lambda line: None)
    best, best_weights, final = -np.inf, None, None
    next_eval, start, cpu_start = eval_every, time.perf_counter(), time.process_time()
    # tiny matrices: one BLAS thread beats several fighting over the cores (10x here)
    with threadpool_limits(limits=1, user_api="blas"):
        try:
            while agent.env_steps < steps:
                history.episodes += agent.advance()
                if agent.env_steps < next_eval and agent.env_steps < steps:
                    continue
                next_eval += eval_every
                screen = evaluate(agent.act, env_id, screen_episodes, seed)
                history.evaluations.append((agent.env_steps, float(screen.mean()),
                                            float(screen.std()), screen_episodes))
                recent = [r for _, r in history.episodes[-20:]]
                log(f"{algo} {agent.env_steps:>7} steps {time.perf_counter() - start:6.1f} s  "
                    f"train return {np.mean(recent) if recent else float('nan'):6.1f}  "
                    f"eval ({screen_episodes} ep) {screen.mean():6.1f}  "
                    f"loss {f'{np.mean(agent.losses):.4g}' if agent.losses else '-'}")
                if screen.mean() > best:
                    best, best_weights = float(screen.mean()), agent.get_weights()
                if screen.mean() >= target:
                    full = evaluate(agent.act, env_id, eval_episodes, seed)
                    log(f"{algo} {agent.env_steps:>7} steps: mean return {full.mean():.1f} "
                        f"over {eval_episodes} evaluation episodes")
                    if full.mean() >= target:
                        history.reached_at = agent.env_steps
                        history.reached_seconds = time.perf_counter() - start
                        history.reached_cpu_seconds = time.process_time() - cpu_start
                        best_weights, final = None, full  # keep these weights
                        break
            history.env_steps, history.seconds = agent.env_steps, time.perf_counter() - start
            if best_weights is not None:
                agent.set_weights(best_weights)
            if final is None:
                final = evaluate(agent.act, env_id, eval_episodes, seed)
        finally:
            agent.close()
    history.final_mean, history.final_std = float(final.mean()), float(final.std())
    history.final_episodes = eval_episodes
    return agent, history
