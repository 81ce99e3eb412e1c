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
