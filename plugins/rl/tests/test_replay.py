"""ReplayBuffer: a ring of transitions, sampled uniformly from what is stored."""
import numpy as np
import pytest

from sporeling.rl import ReplayBuffer, RLError


def _batch(start, n, obs_dim=3):
    ids = np.arange(start, start + n)
    obs = np.repeat(ids[:, None], obs_dim, 1).astype(np.float32)
    return obs, ids % 2, ids.astype(np.float32), obs + 0.5, (ids % 3 == 0)


def test_add_then_sample_returns_stored_transitions_intact():
    buf = ReplayBuffer(100, 3, seed=0)
    buf.add(*_batch(0, 10))
    assert len(buf) == 10
    b = buf.sample(64)
    ids = b.rewards.astype(int)
    assert set(ids) <= set(range(10)) and len(set(ids)) > 5
    np.testing.assert_array_equal(b.obs, np.repeat(ids[:, None], 3, 1))
    np.testing.assert_array_equal(b.next_obs, b.obs + 0.5)
    np.testing.assert_array_equal(b.actions, ids % 2)
    np.testing.assert_array_equal(b.terminated, (ids % 3 == 0).astype(np.float32))
    assert b.obs.dtype == np.float32 and b.actions.dtype == np.int64


def test_full_buffer_overwrites_the_oldest():
    buf = ReplayBuffer(8, 3, seed=1)
    for start in range(0, 20, 4):  # 20 transitions into 8 slots: 12..19 survive
        buf.add(*_batch(start, 4))
    assert len(buf) == 8
    assert sorted(buf.rewards.astype(int)) == list(range(12, 20))
    assert set(buf.sample(500).rewards.astype(int)) == set(range(12, 20))


def test_a_batch_larger_than_the_capacity_keeps_its_newest():
    buf = ReplayBuffer(5, 3)
    buf.add(*_batch(0, 12))
    assert sorted(buf.rewards.astype(int)) == list(range(7, 12))


def test_sampling_is_seeded():
    a, b = ReplayBuffer(50, 3, seed=7), ReplayBuffer(50, 3, seed=7)
    for buf in (a, b):
        buf.add(*_batch(0, 50))
    np.testing.assert_array_equal(a.sample(32).rewards, b.sample(32).rewards)


def test_misuse_is_a_named_error():
    buf = ReplayBuffer(10, 3)
    with pytest.raises(RLError, match="empty buffer"):
        buf.sample(4)
    obs, actions, rewards, next_obs, term = _batch(0, 4)
    with pytest.raises(RLError, match=r"ReplayBuffer.add.*obs \(4, 2\)"):
        buf.add(obs[:, :2], actions, rewards, next_obs, term)
    with pytest.raises(RLError, match=r"actions \(3,\)"):
        buf.add(obs, actions[:3], rewards, next_obs, term)
    with pytest.raises(RLError, match="integer"):
        buf.add(obs, actions + 0.5, rewards, next_obs, term)
    with pytest.raises(RLError, match="capacity"):
        ReplayBuffer(0, 3)
