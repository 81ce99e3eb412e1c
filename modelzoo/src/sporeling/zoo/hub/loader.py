"""``load(name, pretrained=True)`` and ``pull(name)``: a zoo model with verified weights."""
from __future__ import annotations

from pathlib import Path

from ..registry import get_model_entry, get_models
from .download import fetch
from .errors import NoWeightsError
from .weights import Weights

__all__ = ["load", "pull", "weights_of"]


def weights_of(name: str, *, op: str = "zoo.pull") -> Weights:
    """The registered :class:`Weights` of model ``name``."""
    entry = get_model_entry(name, op=op)
    if entry.weights is None:
        models = get_models()
        having = [n for n in models.names() if models[n].weights is not None]
        raise NoWeightsError(f"model {name!r} has no pretrained weights", op=op,
                             expected=f"a model with weights: {', '.join(having) or 'none'}",
                             got=repr(name), hint="use load(name, pretrained=False) to "
                             "build it with fresh initial values")
    return entry.weights


def pull(name: str, *, progress: bool | None = None, retries: int = 2) -> Path:
    """Fetch ``name``'s weights into the cache (unless there already or shipped) and return
    the path of the verified file."""
    return fetch(name, weights_of(name), progress=progress, retries=retries)


def load(name: str, pretrained: bool = True, *, progress: bool | None = None,
         retries: int = 2, **kwargs):
    """The zoo model ``name`` as an ``nn.Cell``; with ``pretrained`` its registered weights
    are pulled (see :func:`pull`), checked against their SHA-256 and loaded -- every
    parameter must be in the file with its shape and dtype. The net comes back in
    inference mode (``set_train(True)`` to fine-tune). ``kwargs`` go to the factory,
    after the weights' own ``model_kwargs``.

    Files are safetensors read by ``sporeling.expression``'s checkpoint loader: nothing is
    unpickled and no code in a file runs.
    """
    if not pretrained:
        return get_model_entry(name, op="zoo.load").factory(**kwargs)
    weights = weights_of(name, op="zoo.load")
    net = get_model_entry(name, op="zoo.load").factory(**{**weights.model_kwargs, **kwargs})
    path = fetch(name, weights, progress=progress, retries=retries)
    from sporeling.expression import load_checkpoint
    names = {p.name for _, p in net.parameters_and_names()}
    load_checkpoint(str(path), net, strict_load=True, choice_func=names.__contains__)
    net.set_train(False)
    return net
