"""Every hookspec known to the installed packages is documented and named by some test."""
from pathlib import Path

from sporeling.core import get_plugin_host
from sporeling.core.testing import hookspec_problems

REPO = Path(__file__).resolve().parents[3]


def test_every_hookspec_has_a_docstring_and_a_test():
    problems = hookspec_problems(get_plugin_host(), REPO)
    assert problems == []


def test_the_check_catches_an_undocumented_untested_spec(tmp_path):
    import types

    from sporeling.core import PluginHost, hookspec

    class Specs:
        @hookspec
        def sporeling_add_mysteries(self, mysteries):
            pass

    owner = types.ModuleType("owner")
    owner.HOOKSPECS = Specs
    host = PluginHost(load=False)
    host.add_plugins([("owner", "d", "0", owner)])
    (tmp_path / "tests").mkdir()
    problems = hookspec_problems(host, tmp_path)
    assert problems == ["sporeling_add_mysteries: no docstring",
                        "sporeling_add_mysteries: no test mentions it"]


def test_install_problems_checks_the_distribution_and_what_it_declares():
    from sporeling.core.testing import install_problems
    assert install_problems("sporeling-core") == []


def test_install_problems_names_an_undeclared_or_missing_dependency(tmp_path, monkeypatch):
    from sporeling.core.testing import install_problems
    info = tmp_path / "sporeling_ghost-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sporeling-ghost\n"
                                   "Version: 0.1\nRequires-Dist: sporeling-core\n"
                                   "Requires-Dist: sporeling-phantom>=1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    problems = install_problems("sporeling-ghost")
    assert len(problems) == 2 and "sporeling.ghost" in problems[0]
    assert "sporeling.phantom (from sporeling-phantom)" in problems[1]
