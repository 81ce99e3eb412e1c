"""Zachary's karate club: a GCN told only the two leaders' clubs finds the others'."""
import pytest

from sporeling.core.testing import run_example
from sporeling.gnn.examples.karate_club import train


@pytest.mark.parametrize("graph_mode", [False, True])
def test_gcn_classifies_the_unlabelled_members(graph_mode):
    accuracy, loss, _ = train(steps=40, layer="gcn", graph_mode=graph_mode)
    assert accuracy >= 0.9 and loss < 0.1


def test_graph_mode_training_equals_pynative():
    assert train(steps=5, graph_mode=True)[:2] == pytest.approx(train(steps=5)[:2], rel=1e-4)


def test_the_readme_example_runs_and_prints_its_accuracy(capsys):
    import re
    from pathlib import Path
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    run_example(code, "gnn README example", {})
    assert float(capsys.readouterr().out.split()[-1]) >= 0.9
