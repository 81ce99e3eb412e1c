"""``ms.mint.special`` (MindSpore 2.10's, PyTorch's ``torch.special`` names): the ``mint``
functions of the same names."""
from __future__ import annotations

from . import erfc, exp2, expm1, log1p, round, sinc  # noqa: A004,F401
from .nn.functional import log_softmax  # noqa: F401

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]
