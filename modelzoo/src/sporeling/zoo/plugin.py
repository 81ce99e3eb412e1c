"""The zoo's built-in plugin: its hookspecs, its models, and the ``sporeling train`` command."""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs, train_digits

HOOKSPECS = hookspecs


@impl
def sporeling_add_models(models) -> None:
    from .models import DigitsMLP, LeNet5
    models.add_model("lenet5_digits", LeNet5, input_shape=(1, 8, 8),
                     description="LeNet-5-style CNN for 8x8 digits (10 classes)")
    models.add_model("mlp_digits", DigitsMLP, input_shape=(1, 8, 8),
                     description="64-256-128-10 perceptron for 8x8 digits")


@impl
def sporeling_add_commands(commands) -> None:
    commands.add_command("train", help="train a digits classifier (the main job)",
                         run=train_digits.run, configure=train_digits.configure)
    from . import export_cli
    commands.add_command("export", help=export_cli.HELP, run=export_cli.run,
                         configure=export_cli.configure)
