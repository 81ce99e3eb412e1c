"""The zoo's models by name, with the defaults their shipped weights were trained with.

``INPUTS[name]`` is one sample's input: a shape for float images, or ``("ids", T)`` for a
sequence of T integer ids."""
from __future__ import annotations

from functools import partial

from . import (DDPM, VAE, CharGPT, DigitsMLP, LeNet5, LSTMClassifier, MobileNetV2,
               ResNet18, ResNet20, ViT)

IMAGE = (1, 8, 8)

# name: (factory, description, one sample's input shape); papers are in each docstring
MODELS = {
    "lenet5": (LeNet5, "LeNet-5 CNN for 8x8 digits (LeCun et al. 1998)", IMAGE),
    "mlp": (DigitsMLP, "64-256-128-10 perceptron for 8x8 digits (Rumelhart et al. 1986)",
            IMAGE),
    "resnet20": (ResNet20, "CIFAR-style ResNet-20 (He et al. 2016), 8x8 digits", IMAGE),
    "resnet18": (partial(ResNet18, base_width=16),
                 "ResNet-18 (He et al. 2016) at 1/4 width, 3x3 stem, 8x8 digits", IMAGE),
    "mobilenet_v2": (partial(MobileNetV2, width_mult=0.5),
                     "MobileNetV2 x0.5 (Sandler et al. 2018), stride-1 stem, 8x8 digits",
                     IMAGE),
    "vit_tiny": (ViT, "tiny Vision Transformer (Dosovitskiy et al. 2021), 2x2 patches",
                 IMAGE),
    "char_gpt": (CharGPT, "character-level GPT with a KV cache (Radford et al. 2018)",
                 (32,)),
    "vae": (VAE, "variational autoencoder, 8 latents (Kingma and Welling 2014)", IMAGE),
    "ddpm": (DDPM, "small DDPM: U-Net, cosine schedule, ancestral sampler (Ho et al. 2020)",
             IMAGE),
    "lstm_text": (LSTMClassifier, "LSTM sentiment classifier (Hochreiter and Schmidhuber "
                                  "1997)", (16,)),
}

# the main job's names, kept working: the same factories
ALIASES = {"lenet5_digits": "lenet5", "mlp_digits": "mlp"}

# models whose input is integer ids rather than float pixels
TOKEN_MODELS = {"char_gpt", "lstm_text"}


def register(models) -> None:
    """Fill a :class:`~sporeling.zoo.registry.ModelRegistry` (``sporeling_add_models``),
    each model with its shipped weights (:mod:`sporeling.zoo.pretrained`) where it has some."""
    from .. import pretrained
    for name, (factory, description, shape) in MODELS.items():
        models.add_model(name, factory, description=description, input_shape=shape,
                         weights=pretrained.weights(name) if name in pretrained.SHIPPED
                         else None)
    for alias, name in ALIASES.items():
        factory, description, shape = MODELS[name]
        models.add_model(alias, factory, description=f"{description} (alias of {name!r})",
                         input_shape=shape, weights=pretrained.weights(name)
                         if name in pretrained.SHIPPED else None)
