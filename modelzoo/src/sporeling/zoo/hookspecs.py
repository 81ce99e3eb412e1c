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
    **kwargs)`` returns an ``nn.Cell``. A name registered twice drops the later plugin,
    recorded as failed naming both.
    """
