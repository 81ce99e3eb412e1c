import subprocess
import sys

from sporeling.core.cli import main


def test_plugins_lists_core_with_distribution_version_and_hooks(capsys):
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "core" in out and "sporeling-core 0.1.0" in out
    assert "sporeling_add_commands" in out and "sporeling_add_context_options" in out


def test_plugins_reports_failures_with_their_error(fake_distribution, fresh_host, capsys):
    fake_distribution("sporeling-broken", {"broken_plugin": "raise RuntimeError('kaput')"},
                      {"broken": "broken_plugin"})
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh_host()
    assert main(["plugins"]) == 1
    out = capsys.readouterr().out
    assert "failed (1)" in out and "broken" in out and "RuntimeError: kaput" in out


def test_subcommands_come_from_plugins(fake_distribution, fresh_host, capsys):
    fake_distribution("sporeling-hello", {"hello_cli": """
        from sporeling.core import impl, ContextError

        def run(args):
            if args.name == "bad":
                raise ContextError("no", expected="a name", got="bad")
            print("hello", args.name)

        @impl
        def sporeling_add_commands(commands):
            commands.add_command("hello", help="greet", run=run,
                                 configure=lambda p: p.add_argument("name"))
    """}, {"hello": "hello_cli"})
    fresh_host()
    assert main(["hello", "world"]) == 0
    assert capsys.readouterr().out == "hello world\n"
    assert main(["hello", "bad"]) == 1  # our errors print as one line, not a traceback
    assert "ContextError: no; expected a name, got bad" in capsys.readouterr().err


def test_console_script_version():
    out = subprocess.run([sys.executable, "-c", "from sporeling.core.cli import main; main()",
                          "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "sporeling-core 0.1.0" in out.stdout


HELLO = """
    from sporeling.core import impl

    @impl
    def sporeling_add_commands(commands):
        commands.add_command("hello", help="greet", run=lambda args: print("{who}"))
"""


def test_a_second_command_of_one_name_drops_its_plugin_and_the_rest_works(
        fake_distribution, fresh_host, capsys, recwarn):
    fake_distribution("sporeling-hello", {"hello_one": HELLO.format(who="first")},
                      {"hello": "hello_one"})
    fake_distribution("sporeling-howdy", {"hello_two": HELLO.format(who="second")},
                      {"howdy": "hello_two"})
    fresh_host()
    assert main(["hello"]) == 0 and capsys.readouterr().out == "first\n"
    assert main(["plugins"]) == 1
    out = capsys.readouterr().out
    assert "failed (1)" in out and "howdy" in out
    assert "command 'hello'" in out and "(sporeling-hello)" in out and "(sporeling-howdy)" in out
    assert "SPORELING_DISABLED_PLUGINS=howdy" in out


def test_a_second_context_option_of_one_name_is_caught_by_sporeling_plugins(
        fake_distribution, fresh_host, capsys, recwarn):
    fake_distribution("sporeling-moody", {"moody_plugin": """
        from sporeling.core import impl

        @impl
        def sporeling_add_context_options(options):
            options.add_option("mode", "happy", doc="d", valid="a mood")
    """}, {"moody": "moody_plugin"})
    fresh_host()
    assert main(["plugins"]) == 1
    out = capsys.readouterr().out
    assert "context option 'mode'" in out and "plugin 'core' (sporeling-core)" in out
    assert "plugin 'moody' (sporeling-moody)" in out
    from sporeling.core import GRAPH_MODE, get_context, set_context
    set_context(mode=GRAPH_MODE)                       # core's option, working
    assert get_context("mode") == GRAPH_MODE
