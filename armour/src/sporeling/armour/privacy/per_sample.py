"""Per-sample gradients of a Cell's loss through the compiler's ``vmap`` of ``value_and_grad``.

The Cell's trainable Parameters become arguments of a pure function: for the call their
``_data`` is swapped for the compiler's values (restored afterwards, also on errors), exactly
as a Graph-mode trace lifts them, and PyNative dispatches through ``bind`` meanwhile so the
vmap and autodiff tracers reach their interpreters. One example at a time is what the
function sees (a batch of one), so any Cell and loss work unchanged, in both modes.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.compiler.autodiff import value_and_grad
from sporeling.compiler.transforms import vmap
from sporeling.expression.graph import tracing as _trace
from sporeling.expression.tensor.tensor import Tensor, wrap

__all__ = ["per_sample_grads"]


def _raw(x):
    return x._data if isinstance(x, Tensor) else x


def _example_loss(net, loss_fn, params):
    def loss(pvals, x, y):
        saved = [p._data for p in params]
        try:
            for p, v in zip(params, pvals):
                p._data = v
            out = loss_fn(net(sx.ops.expand_dims(wrap(x), 0)), sx.ops.expand_dims(wrap(y), 0))
        finally:
            for p, d in zip(params, saved):
                p._data = d
        return _raw(out)
    return loss


def per_sample_grads(net, loss_fn, x, y, params=None):
    """``(losses, grads)``: each example's loss ``(B,)`` and, per Parameter in ``params``
    (default ``net.trainable_params()``), its gradient stacked ``(B, *param.shape)``, as
    NumPy arrays. ``loss_fn(logits, labels)`` must reduce a batch of one to a scalar."""
    params = list(net.trainable_params() if params is None else params)
    x, y = np.asarray(_raw(x)), np.asarray(_raw(y))
    if len(x) != len(y):
        from sporeling.core import ShapeError
        raise ShapeError("inputs and labels differ in length", op="per_sample_grads",
                         expected="as many labels as inputs", got=f"{len(x)} and {len(y)}")
    if len(x) == 0:
        return (np.zeros(0, np.float32),
                tuple(np.zeros((0,) + tuple(p.shape), p.dtype) for p in params))
    loss = _example_loss(net, loss_fn, params)
    nums = tuple(range(len(params)))

    def one(pvals, xi, yi):
        return value_and_grad(lambda *pv: loss(pv, xi, yi), argnums=nums)(*pvals)

    pvals = tuple(p.asnumpy() for p in params)
    # inside a Graph-mode trace the Cells met are noted for its cache guards; outside one
    # they would pile up in the tracer's list, so that list is put back as it was
    outside, noted = not _trace.is_tracing(), list(_trace._STATE.cells)
    try:
        with _trace._tracing():
            losses, grads = vmap(one, in_axes=(None, 0, 0))(pvals, x, y)
    finally:
        if outside:
            _trace._STATE.cells[:] = noted
    return np.asarray(_raw(losses)), tuple(np.asarray(_raw(g)) for g in grads)
