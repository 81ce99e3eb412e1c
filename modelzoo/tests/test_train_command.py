"""`sporeling train`, the main job, end to end on a short run (the full run is in tests_e2e)."""
import re

from sporeling.core.cli import main


def test_short_training_run_reports_accuracy_and_saves_a_checkpoint(tmp_path, capsys):
    code = main(["train", "--model", "mlp", "--epochs", "2", "--no-progress",
                 "--output", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    accuracy = float(re.search(r"test accuracy: ([\d.]+)%", out).group(1))
    assert accuracy > 80.0  # two epochs of an MLP already learn most digits
    assert (tmp_path / "mlp_digits.safetensors").stat().st_size > 100_000


def test_graph_mode_trains_like_pynative(tmp_path, capsys):
    accuracies = []
    for mode in ("pynative", "graph"):
        code = main(["train", "--model", "mlp", "--epochs", "2", "--no-progress", "--mode",
                     mode, "--output", str(tmp_path / mode)])
        out = capsys.readouterr().out
        assert code == 0, out
        assert f"{mode} mode" in out
        accuracies.append(float(re.search(r"test accuracy: ([\d.]+)%", out).group(1)))
    assert accuracies[1] > 80.0
    assert abs(accuracies[0] - accuracies[1]) <= 0.5  # the same numbers, up to rounding
    from sporeling.core import PYNATIVE_MODE, get_context
    assert get_context("mode") == PYNATIVE_MODE       # the mode is restored afterwards
