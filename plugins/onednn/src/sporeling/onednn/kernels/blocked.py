"""Kernels of the layout pass's primitives (``layouts/primitives.py``): ``onednn_reorder``
and ``onednn_blocked`` (a convolution or batch normalisation whose activations are
channel-blocked arrays ``(N, C/b, H, W, b)``).

A call oneDNN refuses still gives NumPy's result: the blocked operands are unblocked, the
plain kernel runs (oneDNN's or NumPy's), the results are blocked again.
"""
from __future__ import annotations

import numpy as np

from ..blocking import blocked_shape, logical_shape
from ..lib import OneDnnError
from ..memory import Desc
from ..plan import cached_plan
from . import conv, normalization
from ._serve import FLOAT32, contiguous, log, output

__all__ = ["onednn_reorder", "onednn_blocked", "numpy_reorder"]


def numpy_reorder(x, block, to):
    """``x`` into the channel-blocked array (``to="blocked"``, a view) or back (a copy)."""
    if to == "blocked":
        n, c, h, w = x.shape
        return x.reshape(n, c // block, block, h, w).transpose(0, 1, 3, 4, 2)
    n, cb, h, w, b = x.shape
    return x.transpose(0, 1, 4, 2, 3).reshape(n, cb * b, h, w)


def onednn_reorder(backend, x, out=None, *, block, to):
    """``x`` into the blocked array or back: oneDNN's reorder for float32, NumPy's
    transpose for other dtypes (masks, integers)."""
    shape = blocked_shape(x.shape, block) if to == "blocked" else logical_shape(x.shape, block)
    y = output(backend, out, shape, x.dtype)
    if x.dtype not in FLOAT32:
        np.copyto(y, numpy_reorder(x, block, to))
        return y
    x = contiguous(x)
    logical = x.shape if to == "blocked" else shape

    def build(b):
        plain, blocked = Desc.plain(logical, x.dtype), Desc.activation(logical, x.dtype, block)
        src, dst = (plain, blocked) if to == "blocked" else (blocked, plain)
        b.reorder(b.user(src), b.user(dst))

    cached_plan(("onednn_reorder", logical, x.dtype, block, to), build).run(x, y)
    return y


def _blocked_call(backend, op, inputs, params, blocks_in, blocks_out):
    if op == "conv2d":
        return (conv.forward(backend, *inputs, **params, blocks=(blocks_in[0], blocks_out[0])),)
    if op == "conv_transpose2d":
        return (conv.backward_data(backend, *inputs, **params,
                                   blocks=(blocks_in[0], blocks_out[0])),)
    if op == "conv2d_weight_grad":
        return (conv.backward_weights(backend, *inputs, **params, blocks=blocks_in[:2]),)
    if op == "normalize" and blocks_in[0] == blocks_out[0]:
        return normalization.batch_norm_blocked(backend, inputs[0], eps=params["eps"],
                                                block=blocks_in[0])
    raise OneDnnError(op, "no channel-blocked kernel")


def onednn_blocked(backend, *inputs, out=None, op, params, blocks_in, blocks_out):
    params = dict(params)
    if all(x.dtype in FLOAT32 for x in inputs):
        try:
            return _blocked_call(backend, op, inputs, params, blocks_in, blocks_out)
        except OneDnnError as error:
            log.info("oneDNN refused blocked %s (%s): the plain kernel serves it", op,
                     error.status)
    plain = [numpy_reorder(x, b, "plain") if b else x for x, b in zip(inputs, blocks_in)]
    results = backend.kernel(op)(backend, *plain, **params)
    results = results if isinstance(results, tuple) else (results,)
    return tuple(np.ascontiguousarray(numpy_reorder(r, b, "blocked")) if b else r
                 for r, b in zip(results, blocks_out))
