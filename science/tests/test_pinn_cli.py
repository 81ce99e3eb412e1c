"""`sporeling science burgers`: trains, prints the error and the time, writes the plot."""
import json

from sporeling.core.cli import main


def test_burgers_command_writes_figures(tmp_path, capsys):
    status = main(["science", "burgers", "--adam-steps", "5", "--lbfgs-iters", "5",
                   "--collocation", "64", "--hidden", "1", "--width", "8", "--every", "5",
                   "--out", str(tmp_path)])
    assert status == 0
    out = capsys.readouterr().out
    assert "relative L2 error" in out and "wall time" in out
    figures = json.loads((tmp_path / "burgers.json").read_text())
    assert 0 < figures["relative_l2"] < 2 and figures["lbfgs_iterations"] == 5
    png = (tmp_path / "burgers.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
