"""Short seeded runs: each agent's greedy policy clearly beats a random one."""
import json

import numpy as np
import pytest

from sporeling.core.cli import main
from sporeling.rl import evaluate, train


@pytest.fixture(scope="module")
def random_return():
    rng = np.random.default_rng(0)
    returns = evaluate(lambda obs: rng.integers(0, 2, len(obs)), "CartPole-v1", 20, seed=0)
    assert 10 < returns.mean() < 40  # CartPole's random policy: about 22
    return returns.mean()


# small budgets for CI (each seed 0-2 measured: PPO 57-78, DQN 60-167, random 22)
SHORT = {"ppo": (2048, {"epochs": 10}),
         "dqn": (3072, {"learning_starts": 1024, "exploration_steps": 2048,
                        "gradient_steps": 64, "target_sync_every": 64})}


@pytest.mark.parametrize("algo", ["ppo", "dqn"])
def test_a_short_run_beats_a_random_policy(algo, random_return):
    lines = []
    steps, config = SHORT[algo]
    _, history = train(algo, "CartPole-v1", steps, seed=0, eval_every=steps, eval_episodes=20,
                       log=lines.append, **config)
    assert history.env_steps >= steps and history.episodes and lines
    assert history.final_episodes == 20
    assert history.final_mean > 2 * random_return, (history.final_mean, random_return)


def test_the_command_writes_the_curve_and_the_result(tmp_path, capsys):
    rc = main(["rl", "train", "ppo", "--steps", "512", "--eval-every", "256",
               "--eval-episodes", "5", "--seed", "3", "--out", str(tmp_path / "run")])
    out = capsys.readouterr().out
    assert rc == 3  # 512 steps cannot reach 475: ran fine, below the target
    assert "ppo     256 steps" in out and "ppo     512 steps" in out
    assert "final mean return over 5 evaluation episodes" in out
    png = (tmp_path / "run" / "ppo_curve.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    result = json.loads((tmp_path / "run" / "ppo_result.json").read_text())
    assert result["algo"] == "ppo" and result["env_steps"] == 512 and result["seed"] == 3
    assert result["reached_at"] is None and result["final_episodes"] == 5


def test_the_command_without_a_subcommand_prints_its_usage(capsys):
    assert main(["rl"]) == 2
    assert "usage: sporeling rl train {dqn,ppo}" in capsys.readouterr().err


def test_the_command_refuses_an_out_path_that_is_a_file(tmp_path, capsys):
    path = tmp_path / "file"
    path.write_text("x")
    assert main(["rl", "train", "dqn", "--out", str(path)]) == 2
    assert "is not a folder" in capsys.readouterr().err
