"""Bad input is a named error before any training: unknown ids, unusable spaces."""
import gymnasium as gym
import pytest

from sporeling.core.cli import main
from sporeling.rl import RLError, SpaceError, UnknownEnvError, env_spec, make_agent, train


def test_unknown_env_id_is_an_unknown_env_error_naming_it():
    with pytest.raises(UnknownEnvError, match=r"ppo: gymnasium has no such environment; "
                                              r"expected a registered id .*got 'CartPoel-v1'"):
        make_agent("ppo", "CartPoel-v1")
    with pytest.raises(UnknownEnvError, match="CartPole-v7"):  # a version that does not exist
        env_spec("CartPole-v7")


def test_continuous_action_space_is_a_space_error_naming_env_and_space():
    with pytest.raises(SpaceError, match=r"dqn: the agents need a discrete action space; "
                                         r"expected gymnasium.spaces.Discrete, got Box.*"
                                         r"\(at Pendulum-v1\)"):
        make_agent("dqn", "Pendulum-v1")


class _GridEnv(gym.Env):
    """Discrete actions but a 2-d observation (an image, say)."""
    action_space = gym.spaces.Discrete(2)
    observation_space = gym.spaces.Box(0.0, 1.0, (3, 3))


def test_non_flat_observations_are_a_space_error():
    gym.register("SporelingTestGrid-v0", entry_point=_GridEnv)
    try:
        with pytest.raises(SpaceError, match=r"flat vector observation; expected a 1-d "
                                             r"gymnasium.spaces.Box, got Box.*\(3, 3\)"):
            env_spec("SporelingTestGrid-v0")
    finally:
        gym.registry.pop("SporelingTestGrid-v0")


def test_unknown_algorithm_config_field_and_step_budget_are_named():
    with pytest.raises(RLError, match="unknown algorithm.*'a2c'"):
        make_agent("a2c")
    with pytest.raises(RLError, match="unknown PPOConfig fields.*got lr"):
        make_agent("ppo", lr=1e-3)
    with pytest.raises(RLError, match="bad step budget.*got 0"):
        train("ppo", steps=0)


def test_the_command_reports_a_bad_env_in_one_line(tmp_path, capsys):
    rc = main(["rl", "train", "dqn", "--env", "Nope-v0", "--out", str(tmp_path)])
    captured = capsys.readouterr()
    err = captured.err
    assert rc == 1 and captured.out == ""  # refused before it announced any training
    assert "sporeling rl: UnknownEnvError" in err and "'Nope-v0'" in err
    assert "Traceback" not in err
