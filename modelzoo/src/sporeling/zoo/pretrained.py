"""The zoo's shipped pretrained weights: one safetensors file per model trainable offline,
in ``sporeling/zoo/weights/``, each made by its recipe (``sporeling zoo train NAME``, seed 0;
:mod:`sporeling.zoo.recipes`) and recorded here with its SHA-256, size, license, the data it
saw and the metric measured on the very file.

    >>> from sporeling.zoo.pretrained import SHIPPED, weights
    >>> SHIPPED["lenet5"].metrics["test_accuracy"] >= 0.98
    True
    >>> weights("lenet5").urls[0]
    'package://sporeling.zoo/weights/lenet5.safetensors'

The hub (:mod:`sporeling.zoo.hub`) registers :func:`weights` for each model;
:func:`load_pretrained` loads a shipped file directly, verified the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Shipped", "SHIPPED", "WEIGHTS_LICENSE", "DATA", "weights", "weights_path",
           "load_pretrained"]

WEIGHTS_LICENSE = "Apache-2.0"  # the project's; the data's licenses are in DATA

# what each recipe trains on, with its license (all present without a network)
DATA = {
    "digits": "scikit-learn's bundled 8x8 digits (UCI Optical Recognition of Handwritten "
              "Digits; CC-BY-4.0): 1,438 training / 359 test images, load_digits_split(seed=0)",
    "pydoc_data.topics": "the Python documentation's topic pages shipped with CPython "
                         "(PSF-2.0); corpus SHA-256 in the entry's notes",
    "reviews": "synthetic sentiment reviews generated from a seed "
               "(sporeling.zoo.recipes.reviews; no third-party text)",
}


@dataclass(frozen=True)
class Shipped:
    """One shipped file and what was measured on it."""
    file: str
    sha256: str
    size: int
    data: str
    metrics: dict
    train_seconds: float
    notes: dict = field(default_factory=dict)


# measured by `python -m sporeling.zoo.recipes NAME --out weights/` (seed 0) on 2 busy cores
SHIPPED: dict[str, Shipped] = {
    'lenet5': Shipped(
        'lenet5.safetensors',
        '21cbd7ba664051f999c53cd2272c6e6a490b8d428be6a0e156d896dca6b450a3',
        243544, 'digits',
        {'test_accuracy': 0.988858},
        94.9),
}


def weights_path(name: str) -> Path:
    """The shipped file of ``name`` inside the installed package."""
    return Path(__file__).parent / "weights" / SHIPPED[_canonical(name)].file


def _canonical(name: str) -> str:
    from .models.catalog import ALIASES
    name = ALIASES.get(name, name)
    if name not in SHIPPED:
        from sporeling.core import PluginError
        raise PluginError(f"no shipped weights for model {name!r}", op="zoo.pretrained",
                          expected=f"one of {', '.join(sorted(SHIPPED))}", got=repr(name))
    return name


def weights(name: str):
    """``name``'s shipped weights as the hub's :class:`~sporeling.zoo.hub.Weights`."""
    from .hub import Weights
    name = _canonical(name)
    entry = SHIPPED[name]
    return Weights(file=entry.file, sha256=entry.sha256, size=entry.size,
                   urls=(f"package://sporeling.zoo/weights/{entry.file}",),
                   license=WEIGHTS_LICENSE, metrics=entry.metrics,
                   recipe=f"sporeling zoo train {name} --seed 0")


def load_pretrained(name: str):
    """Build ``name`` with its registered defaults and load its shipped weights, after
    checking the file's SHA-256 (a mismatch is a ``CheckpointError`` naming both hashes);
    every parameter must be in the file. Returned in inference mode."""
    import sporeling.expression as sx
    from sporeling.expression.serialization.safetensors_io import CheckpointError

    from .hub import sha256_of
    from .registry import create_model

    name = _canonical(name)
    path, expected = weights_path(name), SHIPPED[name].sha256
    actual = sha256_of(path)
    if actual != expected:
        raise CheckpointError(f"shipped weights {path} do not match the registry",
                              op="zoo.load_pretrained", expected=f"sha256 {expected}",
                              got=f"sha256 {actual}", hint="reinstall sporeling-modelzoo")
    net = create_model(name)
    names = {p.name for _, p in net.parameters_and_names()}
    sx.load_checkpoint(str(path), net, strict_load=True, choice_func=names.__contains__)
    net.set_train(False)
    return net
