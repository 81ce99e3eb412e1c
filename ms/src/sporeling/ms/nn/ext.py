"""MindSpore 2.10's ``nn.*Ext`` cells and ``nn.Linear``: the PyTorch-style layers that
2.10's ``mint.nn`` re-exports (``mint.nn.AvgPool2d`` is ``nn.AvgPool2dExt``). The facade
defines them once, in ``ms.mint.nn``; ``ms.nn`` resolves these names to those classes on
first use (``ms.mint`` imports ``ms.nn``, so an eager import here would be circular)."""
from __future__ import annotations

import importlib

# ms.nn name -> ms.mint.nn name
EXT_NAMES = {
    "AvgPool1dExt": "AvgPool1d", "AvgPool2dExt": "AvgPool2d", "AvgPool3dExt": "AvgPool3d",
    "MaxPool2dExt": "MaxPool2d", "DropoutExt": "Dropout", "Dropout2dExt": "Dropout2d",
    "EmbeddingExt": "Embedding", "L1LossExt": "L1Loss", "LayerNormExt": "LayerNorm",
    "LogSoftmaxExt": "LogSoftmax", "PReLUExt": "PReLU", "Linear": "Linear",
}


def ext_cell(name: str):
    """The ``ms.mint.nn`` class behind ``ms.nn.<name>``."""
    return getattr(importlib.import_module("sporeling.ms.mint.nn"), EXT_NAMES[name])
