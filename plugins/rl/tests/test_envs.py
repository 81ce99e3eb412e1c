"""Vectorised envs: a time limit is not a terminal state, and the last observation of an
episode is kept (SAME_STEP autoreset puts the next episode's first one in its place)."""
import gymnasium as gym
import numpy as np
import pytest

from sporeling.rl import DQN, DQNConfig, make_vec_env
from sporeling.rl.envs import true_next_obs


@pytest.fixture
def short_cartpole():
    name = "SporelingShortCartPole-v0"  # CartPole cut at 5 steps: every episode truncated
    gym.register(name, entry_point="gymnasium.envs.classic_control:CartPoleEnv",
                 max_episode_steps=5)
    yield name
    gym.registry.pop(name)


def test_true_next_obs_takes_final_obs_only_where_an_episode_ended():
    next_obs = np.zeros((3, 2), np.float32)
    info = {"final_obs": np.array([None, np.ones(2, np.float32), None], dtype=object)}
    done = np.array([False, True, False])
    got = true_next_obs(next_obs, info, done)
    np.testing.assert_array_equal(got, [[0, 0], [1, 1], [0, 0]])
    assert next_obs.sum() == 0  # the env's array is left alone
    assert true_next_obs(next_obs, {}, np.zeros(3, bool)) is next_obs


def test_vec_env_seeds_each_copy_apart():
    env, spec = make_vec_env("CartPole-v1", 3)
    obs, _ = env.reset(seed=5)
    again, _ = env.reset(seed=5)
    env.close()
    assert (spec.obs_dim, spec.n_actions) == (4, 2)
    np.testing.assert_array_equal(obs, again)
    assert len({tuple(o) for o in obs}) == 3


def test_dqn_stores_truncations_as_non_terminal_with_the_real_last_state(short_cartpole):
    agent = DQN(short_cartpole, seed=0, config=DQNConfig(num_envs=1, train_every=20,
                                                          learning_starts=10**6))
    agent.advance()  # 20 random steps: 4 episodes of 5
    b = agent.buffer
    assert len(b) == 20 and not b.terminated[:20].any()  # time limits: bootstrap through
    for t in range(19):
        if t % 5 == 4:  # the last step of an episode: its own final state, not the reset one
            assert not np.array_equal(b.next_obs[t], b.obs[t + 1])
            assert np.abs(b.next_obs[t] - b.obs[t]).max() < 0.5  # one physics step on
        else:
            np.testing.assert_array_equal(b.next_obs[t], b.obs[t + 1])
    agent.close()
