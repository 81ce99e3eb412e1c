"""The hub: pretrained weights by model name, downloaded through pooch into a per-user cache,
verified by SHA-256 before anything is loaded (see the "Hub" section of the README).

Registering weights (in a plugin's ``sporeling_add_models``)::

    from sporeling.zoo.hub import Weights
    models.add_model("lenet5", LeNet5, description=..., input_shape=(1, 8, 8),
                     weights=Weights(file="lenet5.safetensors", sha256="...", size=26040,
                                     urls=("package://sporeling.zoo/weights/lenet5.safetensors",),
                                     license="Apache-2.0",
                                     metrics={"digits_test_accuracy": 0.9889}))
"""
from .weights import SCHEMES, Weights, sha256_of

__all__ = ["SCHEMES", "Weights", "sha256_of"]
