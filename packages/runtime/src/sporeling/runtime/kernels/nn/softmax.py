"""softmax / log_softmax kernels: shifted by the maximum, so no overflow for any logits."""
from __future__ import annotations

import numpy as np

from ..table import define, output


@define("softmax")
def softmax(backend, x, out=None, *, axis):
    y = output(backend, out, x.shape, x.dtype)
    np.subtract(x, np.max(x, axis=axis, keepdims=True), out=y)
    np.exp(y, out=y)
    y /= np.sum(y, axis=axis, keepdims=True)
    return y


@define("log_softmax")
def log_softmax(backend, x, out=None, *, axis):
    y = output(backend, out, x.shape, x.dtype)
    np.subtract(x, np.max(x, axis=axis, keepdims=True), out=y)
    y -= np.log(np.sum(np.exp(y), axis=axis, keepdims=True))
    return y
