"""The plugin joins through its entry point: `sporeling plugins` lists it with its hook, and
the package's docstring examples run."""
from sporeling.core import get_plugin_host
from sporeling.core.cli import main
from sporeling.core.testing import run_doctests


def test_sporeling_plugins_lists_insight_and_its_command_hook(capsys):
    assert "insight" in [p.name for p in get_plugin_host().loaded]
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    line = out[out.index("insight"):]
    assert "sporeling-insight" in line.splitlines()[0]
    assert "sporeling_add_commands" in line.splitlines()[1]


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.insight")
    assert failed == 0 and attempted > 0
