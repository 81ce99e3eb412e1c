"""Models by name, filled through ``sporeling_add_models``.

    >>> from sporeling.zoo import create_model, list_models
    >>> "lenet5_digits" in list_models()
    True
    >>> net = create_model("mlp_digits")
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable

from sporeling.core import PluginError, Registry, get_plugin_host

from .hub.weights import Weights

__all__ = ["ModelEntry", "ModelRegistry", "get_models", "get_model_entry", "list_models",
           "create_model"]


@dataclass(frozen=True)
class ModelEntry:
    """A buildable model: its factory, what it is, the input one sample has, and its
    pretrained weights (a :class:`~sporeling.zoo.hub.Weights`, or None)."""
    name: str
    factory: Callable
    description: str
    input_shape: tuple[int, ...]
    weights: Weights | None = None


class ModelRegistry(Registry[ModelEntry]):
    """What ``sporeling_add_models`` fills."""

    def __init__(self):
        super().__init__("model")

    def add_model(self, name: str, factory: Callable, *, description: str,
                  input_shape: tuple[int, ...], weights: Weights | None = None) -> None:
        """Register ``factory(**kwargs) -> nn.Cell`` as ``name``; ``weights`` (a
        :class:`~sporeling.zoo.hub.Weights`: file, sha256, size, urls, license, metrics)
        makes ``sporeling.zoo.load(name, pretrained=True)`` and ``sporeling zoo pull``
        work for it."""
        if not callable(factory):
            raise PluginError(f"model {name!r} from plugin {self.source!r} has no factory",
                              expected="a callable returning an nn.Cell", got=repr(factory))
        if weights is not None and not isinstance(weights, Weights):
            raise PluginError(f"model {name!r} from plugin {self.source!r}: bad weights",
                              expected="a sporeling.zoo.hub.Weights or None",
                              got=type(weights).__name__)
        self.add(name, ModelEntry(name, factory, description, tuple(input_shape), weights))


def get_models() -> ModelRegistry:
    """Every installed plugin's models (collected once per plugin host)."""
    host = get_plugin_host()
    return host.cached("zoo.models", lambda: host.collect("sporeling_add_models",
                                                          ModelRegistry()))


def list_models() -> list[str]:
    """The names :func:`create_model` accepts."""
    return get_models().names()


def get_model_entry(name: str, *, op: str = "create_model") -> ModelEntry:
    """The registry entry of ``name``; an unknown name lists the close ones."""
    models = get_models()
    if name not in models:
        close = difflib.get_close_matches(name, models.names(), n=3)
        raise PluginError(f"no model named {name!r}", op=op,
                          expected=f"one of {', '.join(models.names())}", got=repr(name),
                          hint=f"Did you mean {', '.join(map(repr, close))}?" if close else None)
    return models[name]


def create_model(name: str, **kwargs):
    """Build the model registered as ``name``; an unknown name lists the close ones."""
    return get_model_entry(name).factory(**kwargs)
