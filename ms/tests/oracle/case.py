"""A parity case as data: what to build, which inputs to draw, what to record."""
from __future__ import annotations

from dataclasses import dataclass, field

from .inputs import Input  # noqa: F401  (re-exported for the case tables)


class Attr:
    """A value named by its path under the ``ms`` module (``Attr("float16")`` is
    ``ms.float16``), resolved by each side against its own module."""

    def __init__(self, path: str):
        self.path = path

    def __repr__(self):
        return f"Attr({self.path!r})"


@dataclass(frozen=True)
class Case:
    """``api``: a dotted path under ``ms`` (``"ops.softmax"``, ``"nn.Conv2d"``).
    ``kind``: "op" (a function, or with ``init`` a class made with ``init`` then called),
    "cell" (an ``nn`` layer: its parameters are MindSpore's, recorded and loaded by name),
    "optim" (an optimizer stepped on drawn parameters with drawn gradients), "train" (a
    model trained a few steps; ``api`` names the builder in ``cases/training.py``).
    ``inputs``: ``Input`` specs, lists of them (a list of Tensors), or plain values.
    ``grad``: also record gradients of the outputs' sum w.r.t. every float input (and, for
    cells, every trainable parameter)."""
    name: str
    api: str
    inputs: tuple = ()
    kwargs: dict = field(default_factory=dict)
    init: dict | None = None
    kind: str = "op"
    grad: bool = True
    train: bool = False
    steps: int = 1
    mode: str = "pynative"
