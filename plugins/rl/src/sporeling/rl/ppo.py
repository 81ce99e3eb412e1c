"""PPO (Schulman et al. 2017): vectorised rollouts, GAE, the clipped surrogate with a value
loss and an entropy bonus, minibatch epochs, Adam with a linearly decaying learning rate and
global-norm gradient clipping. The update step is one ``sx.jit`` graph."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import sporeling.expression as sx
from sporeling.core import set_seed
from sporeling.expression import nn, ops

from .envs import make_vec_env, true_next_obs
from .episodes import EpisodeReturns
from .gae import compute_gae
from .losses import categorical_entropy, categorical_log_prob, ppo_clipped_loss
from .networks import get_weights, mlp, set_weights

__all__ = ["PPO", "PPOConfig", "ActorCritic"]


@dataclass
class PPOConfig:
    """Defaults: rl-baselines3-zoo's CartPole-v1 settings (8 envs x 32 steps, 20 epochs,
    GAE lambda 0.8, gamma 0.98, linearly decaying learning rate from 1e-3)."""
    num_envs: int = 8
    rollout_steps: int = 32           # per env: a rollout has num_envs * rollout_steps
    hidden: tuple = (64, 64)
    learning_rate: float = 1e-3
    anneal_steps: int = 100_000       # env steps over which the learning rate falls to 0
    epochs: int = 20
    minibatch_size: int = 256
    gamma: float = 0.98
    gae_lambda: float = 0.8
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.0
    max_grad_norm: float = 0.5
    jit: bool = True


class ActorCritic(nn.Cell):
    """Separate policy (logits) and value MLPs on the same observation."""

    def __init__(self, obs_dim: int, n_actions: int, hidden=(64, 64)):
        super().__init__()
        self.actor = mlp(obs_dim, n_actions, hidden, out_scale=0.01)
        self.critic = mlp(obs_dim, 1, hidden)

    def construct(self, obs):
        return self.actor(obs), self.critic(obs)[:, 0]


class PPO:
    """``PPO(env_id, seed=0, config=None)``; :meth:`advance` collects one rollout and runs
    the epochs of minibatch updates on it; :meth:`act` is the greedy policy."""

    name = "ppo"

    def __init__(self, env_id: str = "CartPole-v1", seed: int = 0, config: PPOConfig | None = None):
        self.config = c = config or PPOConfig()
        self.env, self.spec = make_vec_env(env_id, c.num_envs, op="ppo")
        set_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.net = ActorCritic(self.spec.obs_dim, self.spec.n_actions, c.hidden)
        batch = c.num_envs * c.rollout_steps
        self.minibatches = max(1, batch // c.minibatch_size)
        updates = max(1, c.anneal_steps // batch) * c.epochs * self.minibatches
        # one value per update step: the optimiser reads value i at its step i (graph too)
        lr = np.linspace(c.learning_rate, 0.0, updates, endpoint=False)
        self.optimizer = nn.Adam(self.net.trainable_params(), learning_rate=lr, eps=1e-5)
        params = self.optimizer.parameters

        def loss_fn(obs, actions, old_logp, adv, returns):
            logits, values = self.net(obs)
            policy = ppo_clipped_loss(categorical_log_prob(logits, actions), old_logp, adv, c.clip)
            value = ops.mean(ops.square(values - returns))
            entropy = categorical_entropy(logits)
            return policy + c.value_coef * value - c.entropy_coef * entropy, policy, value

        grad_fn = sx.value_and_grad(loss_fn, None, params, has_aux=True)

        def update(obs, actions, old_logp, adv, returns):
            (loss, policy, value), grads = grad_fn(obs, actions, old_logp, adv, returns)
            self.optimizer(nn.clip_by_global_norm(grads, c.max_grad_norm))
            return loss, policy, value

        wrap = sx.jit if c.jit else (lambda f: f)
        self._update, self._forward = wrap(update), wrap(lambda obs: self.net(obs))
        self.obs, _ = self.env.reset(seed=seed)
        self.episodes = EpisodeReturns(c.num_envs)
        self.env_steps = 0
        self.losses: list[float] = []

    def forward(self, obs):
        """Logits and values (NumPy) for a batch of observations."""
        with sx.no_grad():
            logits, values = self._forward(sx.Tensor(np.asarray(obs, np.float32)))
            return logits.asnumpy(), values.asnumpy()

    def act(self, obs) -> np.ndarray:
        """The greedy (most probable) actions for a batch of observations."""
        return self.forward(obs)[0].argmax(axis=1)

    def _sample(self, logits):
        """Actions drawn from the softmax policies, and their log-probabilities."""
        z = logits - logits.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        u = self.rng.random((logits.shape[0], 1))
        actions = (np.exp(logp).cumsum(axis=1) < u).sum(axis=1).clip(0, logits.shape[1] - 1)
        return actions, logp[np.arange(len(actions)), actions]

    def collect(self):
        """One rollout: arrays (T, N, ...) plus the bootstrap values of the last step."""
        c = self.config
        T, N = c.rollout_steps, c.num_envs
        obs_buf = np.zeros((T, N, self.spec.obs_dim), np.float32)
        act_buf, logp_buf = np.zeros((T, N), np.int64), np.zeros((T, N), np.float32)
        rew_buf, done_buf, val_buf = (np.zeros((T, N), np.float32) for _ in range(3))
        finished = []
        for t in range(T):
            logits, values = self.forward(self.obs)
            actions, logp = self._sample(logits)
            next_obs, rewards, terminated, truncated, info = self.env.step(actions)
            done = terminated | truncated
            rewards = rewards.astype(np.float32)
            cut = truncated & ~terminated
            finished += [(self.env_steps + (t + 1) * N, r)
                         for r in self.episodes.update(rewards, done)]
            if cut.any():  # a time limit is not the end of the task: bootstrap through it
                final = true_next_obs(next_obs, info, done)[cut]
                rewards[cut] += c.gamma * self.forward(final)[1]
            obs_buf[t], act_buf[t], logp_buf[t] = self.obs, actions, logp
            rew_buf[t], done_buf[t], val_buf[t] = rewards, done, values
            self.obs = next_obs
        self.env_steps += T * N
        last_values = self.forward(self.obs)[1]
        return (obs_buf, act_buf, logp_buf, rew_buf, done_buf, val_buf, last_values), finished

    def learn(self, rollout) -> None:
        c = self.config
        obs, actions, logp, rewards, dones, values, last_values = rollout
        adv, returns = compute_gae(rewards, values, dones, last_values, c.gamma, c.gae_lambda)
        flat = [a.reshape(-1, *a.shape[2:]) for a in (obs, actions, logp, adv, returns)]
        n = flat[0].shape[0]
        size = n // self.minibatches
        losses = []
        for _ in range(c.epochs):
            order = self.rng.permutation(n)
            for k in range(self.minibatches):
                idx = order[k * size:(k + 1) * size]
                o, a, lp, ad, ret = (x[idx] for x in flat)
                ad = (ad - ad.mean()) / (ad.std() + 1e-8)
                loss, _, _ = self._update(*(sx.Tensor(x) for x in (o, a, lp, ad, ret)))
                losses.append(float(loss.asnumpy()))
        self.losses = losses

    def advance(self) -> list[tuple[int, float]]:
        """Collect one rollout and learn from it. Returns ``(env_steps, return)`` of each
        episode that finished."""
        rollout, finished = self.collect()
        self.learn(rollout)
        return finished

    def get_weights(self):
        return get_weights(self.net)

    def set_weights(self, weights) -> None:
        set_weights(self.net, weights)

    def close(self) -> None:
        self.env.close()
