"""sporeling.zoo: models users build by name, the datasets they train on, and the main job
(``sporeling train``). Pretrained weights pulled by name and verified by hash come later.

    >>> from sporeling.zoo import list_models
    >>> list_models()
    ['lenet5_digits', 'mlp_digits']
"""
from .registry import ModelEntry, ModelRegistry, create_model, get_models, list_models

__all__ = ["ModelEntry", "ModelRegistry", "create_model", "get_models", "list_models"]
