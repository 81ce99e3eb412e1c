"""sporeling.zoo: models users build by name, the datasets they train on, and the main job
(``sporeling train``), and pretrained weights pulled by name and verified by hash
(``load(name, pretrained=True)``, see :mod:`sporeling.zoo.hub`).

    >>> from sporeling.zoo import list_models, load
    >>> {"lenet5_digits", "mlp_digits"} <= set(list_models())
    True
    >>> net = load("mlp_digits", pretrained=False)   # pretrained=True: the hub's weights
"""
from .registry import ModelEntry, ModelRegistry, create_model, get_models, list_models
from .hub import Weights
from .hub.loader import load, pull

__all__ = ["ModelEntry", "ModelRegistry", "Weights", "create_model", "get_models",
           "list_models", "load", "pull"]
