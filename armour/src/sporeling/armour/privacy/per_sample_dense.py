"""Closed-form per-sample gradients for Dense/activation-only networks (Opacus's trick).

For ``y = a @ W.T + b`` the gradient of example *i*'s loss is ``outer(δ_i, a_i)`` for ``W``
and ``δ_i`` for ``b``, where ``a_i`` is the layer's input and ``δ_i`` the loss's gradient
w.r.t. ``y_i`` (the "backprop"). One NumPy forward pass keeps the ``a``'s, one backward pass
carries the δ's, and the only traced work left is the loss's per-example gradient w.r.t. the
logits, a graph of the loss alone. Anything else (convolutions, hooks, custom ``construct``)
returns ``None`` and the caller falls back to ``vmap`` of the whole network.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression import nn

__all__ = ["dense_layers", "dense_backprops", "materialise", "ghost_clipped_sum"]

# activation Cell type -> (forward, derivative from (pre-activation z, output h))
_ACTS = {
    nn.ReLU: (lambda z: np.maximum(z, 0), lambda z, h: (z > 0).astype(z.dtype)),
    nn.Tanh: (np.tanh, lambda z, h: 1 - h * h),
    nn.Sigmoid: (lambda z: 1 / (1 + np.exp(-z)), lambda z, h: h * (1 - h)),
}


def dense_layers(net):
    """The layer list ``[("dense", Dense) | ("act", (fwd, deriv))]`` when ``net`` is a plain
    ``Dense`` or ``SequentialCell`` of ``Dense`` and ReLU/Tanh/Sigmoid cells, else ``None``."""
    cells = list(net._cells.values()) if type(net) is nn.SequentialCell else [net]
    layers = []
    for c in cells:
        if type(c) is nn.Dense:
            layers.append(("dense", c))
            if c.activation_flag:
                if type(c.activation) not in _ACTS:
                    return None
                layers.append(("act", _ACTS[type(c.activation)]))
        elif type(c) in _ACTS:
            layers.append(("act", _ACTS[type(c)]))
        else:
            return None
    return layers if any(k == "dense" for k, _ in layers) else None


def dense_backprops(layers, logits_grads, x, y, params):
    """``(losses, pairs)`` with one ``(a, δ)`` per Parameter in ``params`` (``a`` is ``None``
    for a bias: its per-sample gradient is ``δ``), or ``None`` when a Parameter is not a
    Dense weight/bias of ``layers`` or ``x`` is not 2-D. ``logits_grads(logits, y) ->
    (losses, dlogits)`` gives each example's loss and its gradient w.r.t. its logits."""
    if x.ndim != 2:
        return None
    owner = {}
    for kind, c in layers:
        if kind == "dense":
            owner[id(c.weight)] = (id(c), "w")
            if c.bias is not None:
                owner[id(c.bias)] = (id(c), "b")
    if any(id(p) not in owner for p in params):
        return None
    h, saved = x.astype(np.float32, copy=False), []
    for kind, c in layers:  # forward, keeping what the backward pass needs
        if kind == "dense":
            saved.append(h)
            h = h @ c.weight.asnumpy().T
            if c.bias is not None:
                h = h + c.bias.asnumpy()
        else:
            z = h
            h = c[0](z).astype(z.dtype, copy=False)
            saved.append((z, h))
    losses, delta = logits_grads(h, y)
    delta = np.asarray(delta, np.float32).reshape(h.shape)
    found = {}
    for (kind, c), keep in zip(reversed(layers), reversed(saved)):
        if kind == "dense":
            found[(id(c), "w")], found[(id(c), "b")] = (keep, delta), (None, delta)
            delta = delta @ c.weight.asnumpy()
        else:
            delta = delta * c[1](*keep)
    return np.asarray(losses), [found[owner[id(p)]] for p in params]


def materialise(pairs):
    """Per-sample gradients ``(B, *shape)`` from :func:`dense_backprops`'s pairs."""
    return tuple(d.copy() if a is None else d[:, :, None] * a[:, None, :] for a, d in pairs)


def ghost_clipped_sum(pairs, max_grad_norm: float):
    """``Σ_i min(1, C/‖g_i‖) g_i`` per Parameter without forming any ``g_i``: for a Dense
    weight ``‖outer(δ_i, a_i)‖² = ‖δ_i‖²·‖a_i‖²`` and the clipped sum is ``(f·δ)ᵀ a``."""
    sq = np.zeros(len(pairs[0][1]), np.float64)
    for a, d in pairs:
        n = np.square(d, dtype=np.float64).sum(axis=1)
        sq += n if a is None else n * np.square(a, dtype=np.float64).sum(axis=1)
    factor = np.minimum(1.0, max_grad_norm / (np.sqrt(sq) + 1e-12)).astype(np.float32)
    return tuple((factor @ d) if a is None else (d * factor[:, None]).T @ a for a, d in pairs)


def known_loss_grads(loss_fn, logits, y):
    """``(losses, dlogits)`` per example in closed form for the library's softmax cross
    entropy (reduced by mean or sum: over a batch of one both are the example's loss), else
    ``None``: ``∂/∂h (-Σ p·log softmax(h)) = softmax(h)·Σp - p``."""
    if type(loss_fn) is not nn.SoftmaxCrossEntropyWithLogits or \
            loss_fn.reduction not in ("mean", "sum") or logits.ndim != 2:
        return None
    y = np.asarray(y)
    if loss_fn.sparse:
        if y.shape != logits.shape[:1] or not np.issubdtype(y.dtype, np.integer):
            return None
        p = np.zeros_like(logits)
        p[np.arange(len(y)), y] = 1
    else:
        if y.shape != logits.shape:
            return None
        p = y.astype(logits.dtype)
    shifted = logits - logits.max(axis=1, keepdims=True)
    logsm = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    losses = -(p * logsm).sum(axis=1)
    return losses, np.exp(logsm) * p.sum(axis=1, keepdims=True) - p
