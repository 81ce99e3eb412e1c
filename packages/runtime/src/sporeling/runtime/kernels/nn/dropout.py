"""dropout kernel: the keep-mask is a pure function of the ``seed`` operand (an int64 scalar)
and the shape (drawn in float32 whatever the data's dtype), so the backward, given the same
seed, regenerates the same mask."""
from __future__ import annotations

import numpy as np

from ..random import rng
from ..table import define, output, writes_out


@define("dropout", memory=writes_out())
def dropout(backend, x, seed, out=None, *, p):
    keep = rng(seed).random(x.shape, dtype=np.float32) >= p
    y = output(backend, out, x.shape, x.dtype)
    np.multiply(x, keep, out=y)
    y *= 1.0 / (1.0 - p)
    return y
