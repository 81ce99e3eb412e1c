"""Per-sample gradients of a Cell's loss through the compiler's ``vmap`` of ``value_and_grad``.

The Cell's trainable Parameters become arguments of a pure function: for the call their
``_data`` is swapped for the compiler's values (restored afterwards, also on errors), exactly
as a Graph-mode trace lifts them, and PyNative dispatches through ``bind`` meanwhile so the
vmap and autodiff tracers reach their interpreters. One example at a time is what the
function sees (a batch of one), so any Cell and loss work unchanged, in both modes.
Dense/activation-only networks take the closed form of ``per_sample_dense`` instead.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.compiler.autodiff import value_and_grad
from sporeling.compiler.transforms import vmap
from sporeling.expression.graph import tracing as _trace
from sporeling.expression.tensor.tensor import Tensor, wrap

from .per_sample_dense import dense_backprops, dense_layers, known_loss_grads, materialise

__all__ = ["per_sample_grads", "dense_factors"]


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
    fast = dense_factors(net, loss_fn, x, y, params)
    if fast is not None:  # Dense/activation only: closed form, only the loss traced
        return fast[0], materialise(fast[1])
    loss = _example_loss(net, loss_fn, params)
    nums = tuple(range(len(params)))

    def one(pvals, xi, yi):
        return value_and_grad(lambda *pv: loss(pv, xi, yi), argnums=nums)(*pvals)

    losses, grads = _vmapped(one, tuple(p.asnumpy() for p in params), x, y)
    return losses, tuple(grads)


def dense_factors(net, loss_fn, x, y, params):
    """``(losses, [(a, δ) per Parameter])`` in closed form (see ``per_sample_dense``) when
    ``net`` is Dense/activation only and ``x`` 2-D, else ``None``. ``x``, ``y`` NumPy."""
    layers = dense_layers(net)
    if layers is None or len(x) == 0:
        return None
    return dense_backprops(layers, lambda h, t: _logits_grads(loss_fn, h, t), x, y, params)


def _logits_grads(loss_fn, logits, y):
    """Each example's loss and its gradient w.r.t. that example's logits (in closed form
    for the library's softmax cross entropy, else vmap of the loss alone)."""
    known = known_loss_grads(loss_fn, logits, y)
    if known is not None:
        return known
    def one(_, hi, yi):
        return value_and_grad(lambda h: _raw(loss_fn(sx.ops.expand_dims(wrap(h), 0),
                                                     sx.ops.expand_dims(wrap(yi), 0))))(hi)

    return _vmapped(one, (), logits, y)


def _vmapped(one, pvals, x, y):
    """``vmap(one, in_axes=(None, 0, 0))(pvals, x, y)`` as NumPy ``(losses, grads)``."""
    # inside a Graph-mode trace the Cells met are noted for its cache guards; outside one
    # they would pile up in the tracer's list, so that list is put back as it was
    outside, noted = not _trace.is_tracing(), list(_trace._STATE.cells)
    try:
        with _trace._tracing():
            losses, grads = vmap(one, in_axes=(None, 0, 0))(pvals, x, y)
    finally:
        if outside:
            _trace._STATE.cells[:] = noted
    if isinstance(grads, (tuple, list)):
        return np.asarray(_raw(losses)), tuple(np.asarray(_raw(g)) for g in grads)
    return np.asarray(_raw(losses)), np.asarray(_raw(grads))
