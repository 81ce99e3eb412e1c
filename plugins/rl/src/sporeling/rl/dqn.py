"""DQN (Mnih et al. 2015): epsilon-greedy acting on vectorised environments, a replay
buffer, a target network synchronised every ``target_sync_every`` gradient steps, a Huber
TD loss, Adam. The update step (forward, backward, Adam) is one ``sx.jit`` graph (faster
than PyNative here, see ``bench/rl_update.py``)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import sporeling.expression as sx
from sporeling.core import set_seed

from .envs import make_vec_env, true_next_obs
from .episodes import EpisodeReturns
from .losses import td_loss
from .networks import copy_weights, get_weights, mlp, set_weights
from .replay import ReplayBuffer

__all__ = ["DQN", "DQNConfig"]


@dataclass
class DQNConfig:
    """Defaults: rl-baselines3-zoo's CartPole-v1 settings with a 64x64 network."""
    num_envs: int = 4
    hidden: tuple = (64, 64)
    learning_rate: float = 2.3e-3
    buffer_size: int = 100_000
    batch_size: int = 64
    gamma: float = 0.99
    learning_starts: int = 1_000      # env steps of random play before learning
    train_every: int = 256            # env steps between training phases
    gradient_steps: int = 128         # updates per training phase
    target_sync_every: int = 128      # gradient steps between target-network copies
    eps_start: float = 1.0
    eps_end: float = 0.04
    exploration_steps: int = 8_000    # env steps over which epsilon falls linearly
    jit: bool = True


class DQN:
    """``DQN(env_id, seed=0, config=None)``; :meth:`advance` plays ``train_every`` env
    steps and then learns; :meth:`act` is the greedy policy."""

    name = "dqn"

    def __init__(self, env_id: str = "CartPole-v1", seed: int = 0, config: DQNConfig | None = None):
        self.config = c = config or DQNConfig()
        self.env, self.spec = make_vec_env(env_id, c.num_envs, op="dqn")
        set_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.q_net = mlp(self.spec.obs_dim, self.spec.n_actions, c.hidden, activation="relu")
        self.target_net = mlp(self.spec.obs_dim, self.spec.n_actions, c.hidden, activation="relu")
        copy_weights(self.q_net, self.target_net)
        self.optimizer = sx.nn.Adam(self.q_net.trainable_params(), learning_rate=c.learning_rate)
        self.buffer = ReplayBuffer(c.buffer_size, self.spec.obs_dim, seed=seed)
        grad_fn = sx.value_and_grad(lambda o, a, y: td_loss(self.q_net(o), a, y), None,
                                    self.optimizer.parameters)

        def update(obs, actions, targets):
            loss, grads = grad_fn(obs, actions, targets)
            self.optimizer(grads)
            return loss

        def forward_q(obs):
            return self.q_net(obs)

        def forward_target(obs):
            return self.target_net(obs)

        wrap = sx.jit if c.jit else (lambda f: f)
        self._update, self._q, self._q_target = wrap(update), wrap(forward_q), wrap(forward_target)
        self.obs, _ = self.env.reset(seed=seed)
        self.episodes = EpisodeReturns(c.num_envs)
        self.env_steps = self.gradient_steps = 0
        self.losses: list[float] = []

    # -- acting ----------------------------------------------------------------------------
    def q_values(self, obs) -> np.ndarray:
        with sx.no_grad():
            return self._q(sx.Tensor(np.asarray(obs, np.float32))).asnumpy()

    def act(self, obs) -> np.ndarray:
        """The greedy actions for a batch of observations."""
        return self.q_values(obs).argmax(axis=1)

    def epsilon(self) -> float:
        c = self.config
        frac = min(1.0, self.env_steps / max(1, c.exploration_steps))
        return c.eps_start + frac * (c.eps_end - c.eps_start)

    def _explore(self, obs) -> np.ndarray:
        n = obs.shape[0]
        actions = self.rng.integers(0, self.spec.n_actions, n)
        if self.env_steps >= self.config.learning_starts:
            greedy = self.rng.random(n) >= self.epsilon()
            if greedy.any():
                actions[greedy] = self.act(obs)[greedy]
        return actions

    # -- learning --------------------------------------------------------------------------
    def td_targets(self, rewards, next_obs, terminated) -> np.ndarray:
        """``r + gamma * max_a Q_target(s', a)``, no bootstrap past a terminal state."""
        with sx.no_grad():
            q_next = self._q_target(sx.Tensor(np.asarray(next_obs, np.float32))).asnumpy()
        return (rewards + self.config.gamma * (1.0 - terminated) * q_next.max(axis=1)) \
            .astype(np.float32)

    def learn_step(self) -> float:
        """One gradient step on a sampled batch; copies the online network into the target
        network every ``target_sync_every`` steps."""
        b = self.buffer.sample(self.config.batch_size)
        targets = self.td_targets(b.rewards, b.next_obs, b.terminated)
        loss = self._update(sx.Tensor(b.obs), sx.Tensor(b.actions), sx.Tensor(targets))
        self.gradient_steps += 1
        if self.gradient_steps % self.config.target_sync_every == 0:
            self.sync_target()
        return float(loss.asnumpy())

    def sync_target(self) -> None:
        copy_weights(self.q_net, self.target_net)

    def advance(self) -> list[tuple[int, float]]:
        """Play ``train_every`` env steps (over all envs), then train if past
        ``learning_starts``. Returns ``(env_steps, return)`` of each finished episode."""
        c, finished = self.config, []
        for _ in range(max(1, c.train_every // c.num_envs)):
            actions = self._explore(self.obs)
            next_obs, rewards, terminated, truncated, info = self.env.step(actions)
            done = terminated | truncated
            self.buffer.add(self.obs, actions, rewards, true_next_obs(next_obs, info, done),
                            terminated)
            self.obs = next_obs
            self.env_steps += c.num_envs
            finished += [(self.env_steps, r) for r in self.episodes.update(rewards, done)]
        if self.env_steps >= c.learning_starts:
            self.losses = [self.learn_step() for _ in range(c.gradient_steps)]
        return finished

    def get_weights(self):
        return get_weights(self.q_net)

    def set_weights(self, weights) -> None:
        set_weights(self.q_net, weights)

    def close(self) -> None:
        self.env.close()
