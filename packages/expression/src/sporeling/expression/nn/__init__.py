"""``sporeling.expression.nn``: ``Cell``, containers, layers, initialisers and losses, with
MindSpore's names and defaults (where they surprise a PyTorch user, the docstrings say so).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2)])
    >>> net(np.ones((3, 4), np.float32)).shape
    (3, 2)
    >>> len(net.trainable_params())
    4
"""
from . import init
from .cell import Cell
from .containers import CellDict, CellList, SequentialCell
from .layers import *  # noqa: F401,F403
from .layers import __all__ as _layers
from .loss import (BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase, MSELoss, NLLLoss,
                   SmoothL1Loss, SoftmaxCrossEntropyWithLogits)

__all__ = ["init", "Cell", "SequentialCell", "CellList", "CellDict", "LossBase",
           "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
           "BCEWithLogitsLoss", "SoftmaxCrossEntropyWithLogits", *_layers]

# MindSpore keeps optimisers, learning-rate schedules and the training wrappers in ``nn``
# (``nn.Adam``, ``nn.cosine_decay_lr``, ``nn.TrainOneStepCell``); they live in ``optim`` and
# ``train`` here and are re-exported so MindSpore code runs unchanged.
from ..optim import *  # noqa: E402,F401,F403
from ..optim import __all__ as _optim  # noqa: E402
from ..train.cell_wrappers import TrainOneStepCell, WithEvalCell, WithLossCell  # noqa: E402

__all__ += [*_optim, "TrainOneStepCell", "WithEvalCell", "WithLossCell"]
