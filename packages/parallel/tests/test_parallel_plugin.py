"""The plugin: hookspec sporeling_add_communicators documented and used, communicators and
commands registered, docstring examples run."""
from pathlib import Path

from sporeling.core import PluginHost, Registry, get_plugin_host, impl
from sporeling.core.testing import hookspec_problems, run_doctests
from sporeling.parallel.comm import Communicators, LocalWorld, get_communicators

ROOT = Path(__file__).resolve().parents[3]


def test_hookspecs_are_documented_and_tested():
    problems = [p for p in hookspec_problems(get_plugin_host(), ROOT)
                if p.startswith("sporeling_add_communicators")]
    assert problems == []


def test_mpi_and_local_communicators_are_registered():
    communicators = get_communicators()
    assert {"mpi", "local"} <= set(communicators)
    assert communicators.source_of("mpi") == "parallel"


def test_a_plugin_adds_a_communicator_through_sporeling_add_communicators():
    import sporeling.parallel.plugin as ours

    class Extra:
        @impl
        def sporeling_add_communicators(communicators):
            communicators.add_communicator("single", lambda: LocalWorld(1).communicator(0))

    host = PluginHost(load=False)
    host.add_plugins([("parallel", "sporeling-parallel", "0", ours),
                      ("extra", "x", "0", Extra)])
    registry = host.collect("sporeling_add_communicators", Communicators())
    assert isinstance(registry, Registry) and registry.names() == ["local", "mpi", "single"]
    assert registry["single"].create().size == 1


def test_run_command_is_registered():
    from sporeling.core.cli import Commands
    commands = get_plugin_host().collect("sporeling_add_commands", Commands())
    assert commands.source_of("run") == "parallel"


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.parallel")
    assert failed == 0 and attempted > 0
