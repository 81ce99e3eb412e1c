"""The rl plugin: what it contributes through Sporeling's hooks (the ``sporeling rl``
command)."""
from __future__ import annotations

from sporeling.core import impl


@impl
def sporeling_add_commands(commands) -> None:
    from . import cli
    commands.add_command("rl", help=cli.HELP, run=cli.run, configure=cli.configure)
