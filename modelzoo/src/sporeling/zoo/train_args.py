"""The options of ``sporeling train``, checked while they are parsed -- before any data is
loaded or any step is run -- so a typo costs nothing and says which option was wrong."""
from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path

__all__ = ["MODELS", "configure", "installed_backends", "checkpoint_path", "checkpoint_path_problem", "int_at_least"]

MODELS = {"lenet": "lenet5_digits", "mlp": "mlp_digits"}


def int_at_least(minimum: int):
    """An argparse ``type``: an integer >= ``minimum``, refused with what came otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}")
        return value
    parse.__name__ = f"integer >= {minimum}"  # argparse names the type in its messages
    return parse


def _learning_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text!r}")
    return value


def _output_folder(text: str) -> Path:
    """The folder, or the nearest part of it that exists, must be a folder we may write."""
    path = Path(text)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise argparse.ArgumentTypeError(
            f"{str(existing)!r} is a file, not a folder; expected a folder for the checkpoint "
            f"(got {text!r})")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(
            f"cannot write in {str(existing)!r} (permission denied); expected a folder the "
            f"checkpoint can be written to (got {text!r})")
    return path


def installed_backends() -> list[str]:
    """The backends plugins installed (``numpy``, ``numba`` with its plugin, ...)."""
    from sporeling.runtime.backend import get_backends  # expression's own dependency
    return get_backends().names()


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``sporeling train`` to its parser."""
    parser.add_argument("--model", choices=sorted(MODELS), default="lenet",
                        help="network to train (default: %(default)s)")
    parser.add_argument("--epochs", type=int_at_least(1), default=40,
                        help="passes over the training data (default: %(default)s)")
    parser.add_argument("--batch-size", type=int_at_least(1), default=32,
                        help="images per training step (default: %(default)s)")
    parser.add_argument("--lr", type=_learning_rate, default=2e-3,
                        help="Adam's peak learning rate, cosine decay to 2%% of it "
                             "(default: %(default)s)")
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative",
                        help="execution mode: op by op (pynative) or compiled (graph) "
                             "(default: %(default)s)")
    parser.add_argument("--backend", choices=installed_backends(), default=None,
                        help="backend running the kernels, among the installed ones "
                             "(default: the context's, set_context(backend=...), else the "
                             "device target's of highest priority: onednn on CPU when "
                             "installed, else numpy)")
    parser.add_argument("--seed", type=int_at_least(0), default=0,
                        help="seed of the data split, the initial weights and the shuffling "
                             "(default: %(default)s)")
    parser.add_argument("--output", type=_output_folder, default="checkpoints",
                        help="folder for the checkpoint <model>.safetensors; a previous one "
                             "is replaced only by a finished, finite run "
                             "(default: %(default)s)")
    parser.add_argument("--backup-dir", type=_output_folder, default=None,
                        help="back the run up to this folder at each epoch's end (and every "
                             "--backup-steps steps); a run started with a backup there "
                             "resumes from it and ends with the weights of an uninterrupted "
                             "run (same options); removed when the run ends "
                             "(default: no backup)")
    parser.add_argument("--backup-steps", type=int_at_least(1), default=None,
                        help="with --backup-dir: also back up every this many steps "
                             "(default: at epoch ends only)")
    parser.add_argument("--no-progress", action="store_true",
                        help="hide the progress bar (on stderr; plain lines, one per "
                             "epoch, when stderr is not a terminal)")


def checkpoint_path(args: argparse.Namespace) -> Path:
    """Where this run's checkpoint goes."""
    return Path(args.output) / f"{MODELS[args.model]}.safetensors"


def checkpoint_path_problem(path: Path) -> str | None:
    """Why the checkpoint cannot be written at ``path`` (None when it can). The folder is
    created and a file is written to it and removed, before any training: permission bits
    say yes where the file system says no (``/proc`` as root)."""
    if path.is_dir():
        return f"{str(path)!r} is a folder; expected the checkpoint file's place to be free " \
               "or a file (remove the folder or choose another --output)"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".write-test-"):
            pass
    except OSError as error:
        return (f"cannot write in {str(path.parent)!r} ({error.strerror or error}); expected "
                "a folder the checkpoint can be written to")
    return None
