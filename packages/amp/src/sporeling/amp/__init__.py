"""sporeling.amp: automatic mixed precision (MindSpore's ``mindspore.amp``, PyTorch's
``torch.autocast`` and ``GradScaler``).

* :func:`auto_mixed_precision` / :func:`custom_mixed_precision`: convert a network to a
  level (O0, O1, O2, O3, auto) computing in float16 or bfloat16;
* :func:`autocast`: a region or function with the white list in low precision;
* :class:`StaticLossScaler`, :class:`DynamicLossScaler`, :func:`all_finite`, and
  :class:`TrainOneStepWithLossScaleCell` / :func:`build_train_network`: loss scaling with
  float32 master weights and skipped overflow steps;
* Graph mode: ``set_context(amp_level=..., amp_dtype=...)`` makes the compiler insert casts
  in every compiled graph (the ``amp_cast_insertion`` pass) and remove those that cancel
  (``amp_cast_elimination``).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> from sporeling import amp
    >>> net = amp.auto_mixed_precision(nn.Dense(4, 2), "O3")
    >>> net(np.ones((1, 4), np.float32)).dtype
    dtype('float32')
"""
from .autocasting import Autocast, autocast
from .convert import AmpCell, auto_mixed_precision, custom_mixed_precision
from .levels import LEVELS, check_dtype, check_level
from .lists import get_black_list, get_white_list
from .loss_scale import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite
from .train import TrainOneStepWithLossScaleCell, build_train_network

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "AmpCell", "autocast",
           "Autocast", "get_white_list", "get_black_list", "LEVELS", "check_level",
           "check_dtype", "LossScaler", "StaticLossScaler", "DynamicLossScaler",
           "all_finite", "TrainOneStepWithLossScaleCell", "build_train_network"]
