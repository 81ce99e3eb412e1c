"""``sporeling zoo list | info NAME | pull NAME... | eval NAME | train NAME``: the zoo and its
pretrained weights from the command line (added through ``sporeling_add_commands``)."""
from __future__ import annotations

import argparse

from ..train_args import int_at_least
from . import actions

__all__ = ["configure", "run"]

HELP = "the model zoo: list models, show one, pull/evaluate its weights, train them again"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="zoo_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="every model, its weights (size, license, metrics)")
    info = sub.add_parser("info", help="one model: its registry entry and cache state")
    info.add_argument("name")
    pull = sub.add_parser("pull", help="fetch and verify weights into the cache")
    pull.add_argument("names", nargs="*", metavar="NAME")
    pull.add_argument("--all", action="store_true", help="every model that has weights")
    pull.add_argument("--no-progress", action="store_true", help="no progress bar")
    evaluate = sub.add_parser("eval", help="measure the pulled weights' metrics again "
                                           "(the training recipe's evaluation)")
    evaluate.add_argument("name")
    evaluate.add_argument("--recipe", help="the recipe whose evaluation to run (default: "
                                           "the model's own)")
    evaluate.add_argument("--no-progress", action="store_true", help="no progress bar")
    train = sub.add_parser("train", help="train a model's weights from scratch with its "
                                         "recipe (seeded) and print their registry entry")
    train.add_argument("name")
    train.add_argument("--seed", type=int_at_least(0), default=0, help="default: 0")
    train.add_argument("--out", default="checkpoints",
                       help="folder for <name>.safetensors (default: checkpoints)")


def run(args: argparse.Namespace) -> int:
    return {"list": actions.list_models, "info": actions.info, "pull": actions.pull,
            "eval": actions.evaluate, "train": actions.train}[args.zoo_command](args)
