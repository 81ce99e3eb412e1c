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
    'char_gpt': Shipped(
        'char_gpt.safetensors',
        'e626a50c08005269106ecc641c97958ae8597ee7fca01c13aa34f60f19adde69',
        460656, 'pydoc_data.topics',
        {'val_loss': 1.774582},
        44.1,
        notes={'corpus_sha256':
               '2a95af4ac93f5b719944030ce3769070ddf827d847cba42192afa8da989e5dc4'}),
    'ddpm': Shipped(
        'ddpm.safetensors',
        'c4cb392ba52665adfac2863a25790f73dee29c2a180f264b13540347f42c8b69',
        460020, 'digits',
        {'digits_inception_score': 6.000361, 'lenet_confidence': 0.902783},
        87.6),
    'lenet5': Shipped(
        'lenet5.safetensors',
        '21cbd7ba664051f999c53cd2272c6e6a490b8d428be6a0e156d896dca6b450a3',
        243544, 'digits',
        {'test_accuracy': 0.988858},
        94.9),
    'lstm_text': Shipped(
        'lstm_text.safetensors',
        '5c20801f52106995d1ddfe3b5f74bef5008eee01ea7d1a4eee71115574e148c8',
        109648, 'reviews',
        {'test_accuracy': 1.0},
        41.8),
    'mlp': Shipped(
        'mlp.safetensors',
        '3aa007cbc205e65996e83cb596f020989a1d32441614729eb823184520b0bb74',
        203808, 'digits',
        {'test_accuracy': 0.977716},
        18.8),
    'mobilenet_v2': Shipped(
        'mobilenet_v2.safetensors',
        'aba3ba19b4c00f2e345a6b0d224c8be873ad80f06b69b5ce8041692202b5a20a',
        2899448, 'digits',
        {'test_accuracy': 0.913649},
        129.4),
    'resnet18': Shipped(
        'resnet18.safetensors',
        '30bbc8496863cefa45367a4ee75856460516888c4b40689d3ceb2f1e57d10386',
        2823568, 'digits',
        {'test_accuracy': 0.983287},
        73.4),
    'resnet20': Shipped(
        'resnet20.safetensors',
        '678b316856764cbeb89df37c3985230798adee28f6e4920d53f0b2dd0475862e',
        1104632, 'digits',
        {'test_accuracy': 0.977716},
        55.7),
    'vae': Shipped(
        'vae.safetensors',
        '18fd977828dda67cce2eee5ba6942bcaf06771416f70ac63a27209226c0a4c17',
        685352, 'digits',
        {'test_elbo': -23.822222},
        28.4),
    'vit_tiny': Shipped(
        'vit_tiny.safetensors',
        'd611b9cc71f9f4bdfbbe80ce43c8c7dd756474e975bc658c0b50d9f9c190bfbe',
        549280, 'digits',
        {'test_accuracy': 0.972145},
        114.4),
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
