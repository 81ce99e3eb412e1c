"""Shape kernels: views where NumPy gives them (no copy, no pool memory), copies otherwise."""
from __future__ import annotations

import numpy as np

from .table import define, output


@define("reshape")
def reshape(backend, x, out=None, *, shape):
    """A view when the layout allows, else a copy into pool memory."""
    if out is not None:
        np.copyto(out, np.reshape(x, shape))
        return out
    return np.reshape(x, shape)


@define("broadcast_to")
def broadcast_to(backend, x, out=None, *, shape):
    """A read-only broadcast view (kernels never write into their inputs)."""
    if out is not None:
        np.copyto(out, np.broadcast_to(x, shape))
        return out
    return np.broadcast_to(x, shape)


@define("transpose")
def transpose(backend, x, out=None, *, axes):
    """A strided view; consumers that need contiguous memory copy it themselves."""
    if out is not None:
        np.copyto(out, np.transpose(x, axes))
        return out
    return np.transpose(x, axes)


@define("cast")
def cast(backend, x, out=None, *, dtype):
    """``x`` converted to ``dtype`` into pool memory."""
    out = output(backend, out, np.shape(x), dtype)
    np.copyto(out, x, casting="unsafe")
    return out
