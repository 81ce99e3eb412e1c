"""GAE against a hand-computed rollout and a direct sum over each episode."""
import numpy as np
import pytest

from sporeling.rl import RLError, compute_gae


def test_gae_matches_a_hand_computed_rollout():
    # one env, 3 steps, gamma 0.5, lambda 0.5, the episode ends after step 1
    rewards = np.array([[1.0], [2.0], [3.0]])
    values = np.array([[0.5], [1.0], [2.0]])
    dones = np.array([[0.0], [1.0], [0.0]])
    last = np.array([4.0])
    adv, ret = compute_gae(rewards, values, dones, last, gamma=0.5, lam=0.5)
    # delta_2 = 3 + 0.5*4 - 2 = 3;  A_2 = 3
    # delta_1 = 2 + 0 - 1 = 1;      A_1 = 1 (the episode ended: nothing from step 2)
    # delta_0 = 1 + 0.5*1 - 0.5 = 1; A_0 = 1 + 0.25*1 = 1.25
    np.testing.assert_allclose(adv[:, 0], [1.25, 1.0, 3.0])
    np.testing.assert_allclose(ret[:, 0], [1.75, 2.0, 5.0])


def _direct_gae(rewards, values, dones, last, gamma, lam):
    """A_t = sum_l (gamma lam)^l delta_{t+l}, summed forwards until the episode ends."""
    T, N = rewards.shape
    adv = np.zeros((T, N))
    for n in range(N):
        for t in range(T):
            total, k = 0.0, t
            while k < T:
                next_v = last[n] if k == T - 1 else values[k + 1, n]
                delta = rewards[k, n] + gamma * next_v * (1 - dones[k, n]) - values[k, n]
                total += (gamma * lam) ** (k - t) * delta
                if dones[k, n]:
                    break
                k += 1
            adv[t, n] = total
    return adv


def test_gae_matches_the_direct_sum_on_random_rollouts():
    rng = np.random.default_rng(0)
    for _ in range(5):
        T, N = rng.integers(1, 12), rng.integers(1, 5)
        rewards, values = rng.normal(size=(T, N)), rng.normal(size=(T, N))
        dones = (rng.random((T, N)) < 0.2).astype(float)
        last = rng.normal(size=N)
        adv, ret = compute_gae(rewards, values, dones, last, 0.97, 0.9)
        ref = _direct_gae(rewards, values, dones, last, 0.97, 0.9)
        np.testing.assert_allclose(adv, ref, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(ret, ref + values, rtol=1e-5, atol=1e-5)


def test_lambda_one_gives_discounted_returns_minus_values():
    rewards = np.ones((4, 1))
    values = np.zeros((4, 1))
    adv, _ = compute_gae(rewards, values, np.zeros((4, 1)), np.zeros(1), gamma=0.9, lam=1.0)
    np.testing.assert_allclose(adv[:, 0], [1 + .9 + .81 + .729, 1 + .9 + .81, 1.9, 1.0],
                               rtol=1e-6)


def test_inconsistent_shapes_are_a_named_error():
    with pytest.raises(RLError, match=r"compute_gae.*\(3, 2\), \(3, 1\)"):
        compute_gae(np.zeros((3, 2)), np.zeros((3, 1)), np.zeros((3, 2)), np.zeros(2))
