"""The ``sporeling`` console command; its subcommands come from plugins.

A package adds a subcommand through ``sporeling_add_commands``::

    @impl
    def sporeling_add_commands(commands):
        commands.add_command("train", help="train the demo model", run=_train,
                             configure=lambda parser: parser.add_argument("--epochs"))
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import Callable

from .errors import SporelingError
from .hooks import declare_registry, get_plugin_host
from .registry import Registry

__all__ = ["Command", "Commands", "main", "installed_distributions"]


@dataclass(frozen=True)
class Command:
    """A subcommand: ``run(args) -> exit status``; ``configure(parser)`` adds its options."""
    name: str
    help: str
    run: Callable[[argparse.Namespace], int | None]
    configure: Callable[[argparse.ArgumentParser], None] | None = None


class Commands(Registry[Command]):
    """What ``sporeling_add_commands`` fills."""

    def __init__(self):
        super().__init__("command")

    def add_command(self, name: str, *, help: str, run, configure=None) -> None:
        self.add(name, Command(name, help, run, configure))


declare_registry("sporeling_add_commands", Commands)


def installed_distributions() -> dict[str, str]:
    """Every installed ``sporeling-*`` distribution and its version."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if name.lower().startswith("sporeling-"):
            found[name] = dist.version
    return dict(sorted(found.items()))


class _PrintVersions(argparse.Action):
    """One line per distribution (argparse's own version action re-wraps the text)."""

    def __call__(self, parser, namespace, values, option_string=None):
        for name, version in installed_distributions().items():
            print(f"{name} {version}")
        parser.exit()


def _parser(commands: Commands) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sporeling", description="Sporeling command line.")
    parser.add_argument("--version", action=_PrintVersions, nargs=0,
                        help="show every installed sporeling distribution and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands.names():
        command = commands[name]
        child = sub.add_parser(name, help=command.help, description=command.help)
        if command.configure:
            command.configure(child)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sporeling`` console script."""
    host = get_plugin_host()
    try:  # a plugin adding a command twice is dropped (see `sporeling plugins`), not fatal
        commands = host.registry("sporeling_add_commands")
    except SporelingError as exc:
        print(f"sporeling: {exc}", file=sys.stderr)
        return 2
    parser = _parser(commands)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return commands[args.command].run(args) or 0
    except SporelingError as exc:  # our errors are messages for the user, not tracebacks
        print(f"sporeling {args.command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
