"""sporeling.rl: reinforcement learning -- DQN and PPO on gymnasium environments.

    >>> from sporeling.rl import train                                   # doctest: +SKIP
    >>> agent, history = train("ppo", "CartPole-v1", steps=100_000, seed=0)
    >>> history.reached_at, history.final_mean
"""
from .dqn import DQN, DQNConfig
from .envs import EnvSpec, env_spec, make_vec_env
from .errors import RLError, SpaceError, UnknownEnvError
from .evaluate import evaluate
from .gae import compute_gae
from .losses import categorical_entropy, categorical_log_prob, ppo_clipped_loss, td_loss
from .ppo import PPO, PPOConfig
from .replay import ReplayBuffer
from .train import History, make_agent, train
from .curve import plot_curves

__all__ = ["DQN", "DQNConfig", "PPO", "PPOConfig", "ReplayBuffer", "compute_gae",
           "ppo_clipped_loss", "categorical_log_prob", "categorical_entropy", "td_loss",
           "evaluate", "train", "make_agent", "History", "plot_curves", "env_spec",
           "make_vec_env", "EnvSpec", "RLError", "UnknownEnvError", "SpaceError"]
