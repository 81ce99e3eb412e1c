"""Extension points owned by ``sporeling.zoo``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from sporeling.core import hookspec

if TYPE_CHECKING:
    from .registry import ModelRegistry


@hookspec
def sporeling_add_models(models: "ModelRegistry") -> None:
    """Contribute models that users build by name.

    Call ``models.add_model(name, factory, description=..., input_shape=...)``; ``factory(
    **kwargs)`` returns an ``nn.Cell``. Pretrained weights: add ``weights=Weights(file=...,
    sha256=..., size=..., urls=(...), license=..., metrics={...})`` (``from sporeling.zoo.hub
    import Weights``); the URLs may be ``package://``, ``file://`` or ``http(s)://`` and
    every file is checked against the sha256 before it is loaded. A name registered twice
    drops the later plugin, recorded as failed naming both.
    """
