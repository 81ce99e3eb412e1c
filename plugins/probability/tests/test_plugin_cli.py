"""``sporeling plugins`` lists the plugin and its hooks; the docstring examples run."""
from sporeling.core.cli import main
from sporeling.core.testing import run_doctests


def test_sporeling_plugins_lists_probability(capsys):
    main(["plugins"])
    out = capsys.readouterr().out
    line = out[out.index("probability "):].splitlines()
    assert "sporeling-probability" in line[0]
    assert "sporeling_add_kernels" in line[1] and "sporeling_add_primitives" in line[1]


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.probability")
    assert failed == 0 and attempted >= 6
