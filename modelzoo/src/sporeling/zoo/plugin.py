"""The zoo's built-in plugin: its hookspecs, its models, and the ``sporeling train`` command."""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs, train_digits

HOOKSPECS = hookspecs


@impl
def sporeling_add_models(models) -> None:
    from .models import catalog
    catalog.register(models)


@impl
def sporeling_add_commands(commands) -> None:
    commands.add_command("train", help="train a digits classifier (the main job)",
                         run=train_digits.run, configure=train_digits.configure)
    from . import cli
    commands.add_command("zoo", help=cli.HELP, run=cli.run, configure=cli.configure)
    from . import export_cli
    commands.add_command("export", help=export_cli.HELP, run=export_cli.run,
                         configure=export_cli.configure)
