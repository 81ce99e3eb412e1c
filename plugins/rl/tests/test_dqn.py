"""DQN's pieces: the target network, the TD targets, jit against PyNative."""
import numpy as np

import sporeling.expression as sx
from sporeling.rl import DQN, DQNConfig


def _weights(net):
    return [p.asnumpy().copy() for p in net.trainable_params()]


def _agent(**overrides):
    config = DQNConfig(num_envs=2, learning_starts=0, train_every=64, batch_size=16,
                       target_sync_every=5, **overrides)
    agent = DQN("CartPole-v1", seed=0, config=config)
    agent.advance()  # 64 env steps into the buffer, then gradient_steps updates
    return agent


def test_target_network_stays_fixed_between_syncs_then_copies_the_online_one():
    agent = _agent(gradient_steps=0)
    agent.gradient_steps = 0
    synced = _weights(agent.q_net)
    for w_t, w in zip(_weights(agent.target_net), synced):
        np.testing.assert_array_equal(w_t, w)  # equal at the start
    for step in range(1, 5):
        agent.learn_step()
        for w_t, w in zip(_weights(agent.target_net), synced):
            np.testing.assert_array_equal(w_t, w)  # frozen while the online net learns
    online_before_sync = _weights(agent.q_net)
    assert any(not np.array_equal(a, b) for a, b in zip(online_before_sync, synced))
    agent.learn_step()  # the 5th: update, then sync
    for w_t, w in zip(_weights(agent.target_net), _weights(agent.q_net)):
        np.testing.assert_array_equal(w_t, w)
    # a copy, not shared storage: the next update leaves the target alone
    target = _weights(agent.target_net)
    agent.learn_step()
    assert all(np.array_equal(a, b) for a, b in zip(_weights(agent.target_net), target))
    assert any(not np.array_equal(a, b) for a, b in zip(_weights(agent.q_net), target))


def test_td_targets_bootstrap_from_the_target_network_except_at_terminal_states():
    agent = _agent(gradient_steps=3)
    rng = np.random.default_rng(0)
    next_obs = rng.normal(size=(6, 4)).astype(np.float32)
    rewards = np.ones(6, np.float32)
    terminated = np.array([0, 1, 0, 0, 1, 0], np.float32)
    got = agent.td_targets(rewards, next_obs, terminated)
    # the target network's Q by hand, in NumPy
    h = next_obs
    layers = [c for c in agent.target_net.cells()]
    for i, layer in enumerate(layers):
        h = h @ layer.weight.asnumpy().T + layer.bias.asnumpy()
        if i < len(layers) - 1:
            h = np.maximum(h, 0)
    expected = rewards + 0.99 * (1 - terminated) * h.max(axis=1)
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    assert got[1] == 1.0 and got[4] == 1.0


def test_jitted_update_equals_the_pynative_one():
    agents = [_agent(gradient_steps=0, jit=jit) for jit in (True, False)]
    for _ in range(4):
        for a in agents:
            a.learn_step()
    for w_jit, w_eager in zip(_weights(agents[0].q_net), _weights(agents[1].q_net)):
        np.testing.assert_allclose(w_jit, w_eager, rtol=1e-4, atol=1e-5)


def test_exploration_falls_linearly_to_its_floor():
    agent = DQN("CartPole-v1", config=DQNConfig(exploration_steps=1000, eps_end=0.1))
    assert agent.epsilon() == 1.0
    agent.env_steps = 500
    assert abs(agent.epsilon() - 0.55) < 1e-12
    agent.env_steps = 5000
    assert abs(agent.epsilon() - 0.1) < 1e-12
    assert isinstance(agent.q_values(np.zeros((3, 4))), np.ndarray)
    assert agent.act(np.zeros((3, 4))).shape == (3,)
    assert isinstance(agent.q_net, sx.nn.Cell)
