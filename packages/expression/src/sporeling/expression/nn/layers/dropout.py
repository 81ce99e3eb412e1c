"""``Dropout``: zero elements at random while training."""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import SporelingError

from ..cell import Cell

__all__ = ["Dropout"]


class Dropout(Cell):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``, in
    training mode only (``set_train()``; a new Cell is in inference mode, unlike PyTorch's
    modules). MindSpore 2.x takes ``p``; the older ``keep_prob`` (= ``1 - p``) is accepted.
    The masks come from the ``"ops"`` random stream (``set_seed`` repeats them).

        >>> import numpy as np
        >>> from sporeling.expression import nn
        >>> drop = nn.Dropout(p=0.5)
        >>> drop(np.ones(3, np.float32))                 # inference: identity
        array([1., 1., 1.], dtype=float32)
    """

    def __init__(self, keep_prob=None, p=None, dtype="float32"):
        super().__init__()
        if keep_prob is not None and p is not None:
            raise SporelingError("give p or keep_prob, not both", op="Dropout",
                                 expected="one of them", got=f"keep_prob={keep_prob}, p={p}")
        if keep_prob is not None:
            if not 0 < keep_prob <= 1:
                raise SporelingError("bad keep_prob", op="Dropout",
                                     expected="0 < keep_prob <= 1", got=keep_prob)
            p = 1.0 - keep_prob
        p = 0.5 if p is None else float(p)
        if not 0 <= p < 1:
            raise SporelingError("bad p", op="Dropout", expected="0 <= p < 1", got=p)
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return ops.dropout(x, self.p, training=True)

    def extend_repr(self) -> str:
        return f"p={self.p}"
