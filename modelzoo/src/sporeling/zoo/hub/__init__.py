"""The hub: pretrained weights by model name, downloaded through pooch into a per-user cache,
verified by SHA-256 before anything is loaded (see the "Hub" section of the README).

Registering weights (in a plugin's ``sporeling_add_models``)::

    from sporeling.zoo.hub import Weights
    models.add_model("lenet5", LeNet5, description=..., input_shape=(1, 8, 8),
                     weights=Weights(file="lenet5.safetensors", sha256="...", size=26040,
                                     urls=("package://sporeling.zoo/weights/lenet5.safetensors",
                                           "https://example.org/zoo/lenet5.safetensors"),
                                     license="Apache-2.0",
                                     metrics={"digits_test_accuracy": 0.9889}))

Using them: ``sporeling.zoo.load(name)`` (a net with its weights), ``pull(name)`` (the
verified file's path).
"""
from .cache import cached_path, home, offline, weights_dir
from .errors import DownloadError, HubError, NoWeightsError, OfflineError, WeightsHashError
from .weights import SCHEMES, Weights, sha256_of

__all__ = ["SCHEMES", "Weights", "sha256_of", "home", "weights_dir", "cached_path", "offline",
           "HubError", "WeightsHashError", "OfflineError", "DownloadError", "NoWeightsError",
           "fetch", "load", "pull", "weights_of", "HubWarning"]


def __getattr__(name):  # the download machinery is imported when first used
    if name in ("fetch", "HubWarning"):
        from . import download
        return getattr(download, name)
    if name in ("load", "pull", "weights_of"):
        from . import loader
        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
