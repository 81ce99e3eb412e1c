"""``nn.thor``: MindSpore's THOR optimiser over ``sporeling.expression.optim.Thor``.

``thor(net, ...)`` converts ``net``'s ``Dense``/``Conv2d``/``Embedding``/``EmbeddingLookup``
layers to their THOR forms in place (``ConvertNetUtils``), then preconditions each such
layer's weight with the factors it records (``nn.LayerNorm``'s gamma and beta with their
diagonal rule; every other parameter takes a plain momentum step). PyNative only (the step
inverts matrices with NumPy): marked eager-only.
"""
from __future__ import annotations

from sporeling.expression.nn import LayerNorm
from sporeling.expression.optim import Thor as _SxThor

from ..common.eager import eager_only
from .optimizer import Optimizer
from .thor_layers import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor

__all__ = ["thor"]

_KIND = ((DenseThor, "fc"), (Conv2dThor, "conv"), (EmbeddingThor, "embedding"),
         (EmbeddingLookupThor, "embedding"))


class ThorGpu(_SxThor, Optimizer):
    """What ``nn.thor`` returns (MindSpore's name for its non-Ascend THOR)."""


def _preconditioners(net, params) -> list:
    """Per trainable parameter: ``(kind, layer)`` for a THOR layer's weight, ``("layernorm",
    None)`` for a LayerNorm's parameters, else None."""
    owner = {}
    for _, cell in net.cells_and_names():
        kind = next((k for cls, k in _KIND if isinstance(cell, cls)), None)
        if kind is not None:
            table = getattr(cell, "weight", None)
            table = getattr(cell, "embedding_table", None) if table is None else table
            owner[id(table)] = (kind, cell)
        elif isinstance(cell, LayerNorm):
            for p in (cell.gamma, cell.beta):
                owner[id(p)] = ("layernorm", None)
    return [owner.get(id(p)) for p in params]


@eager_only("nn.thor")
def thor(net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0,
         batch_size=32, use_nesterov=False, decay_filter=lambda x: x.name not in [],
         split_indices=None, enable_clip_grad=False, frequency=100):
    """MindSpore 2.10's ``nn.thor``: converts ``net`` to THOR layers and returns the
    optimiser of its trainable parameters. ``learning_rate``/``damping`` hold per-step
    values; ``split_indices`` (all-reduce fusion of A/G) is accepted and changes nothing on
    one process; ``enable_clip_grad`` is refused (MindSpore's clips by a fixed value only
    in its kernels)."""
    if enable_clip_grad:
        raise ValueError("nn.thor: enable_clip_grad=True is not supported")
    if isinstance(momentum, bool) or not isinstance(momentum, float):
        raise TypeError(f"nn.thor: momentum must be a float, got {type(momentum).__name__}")
    from ..train.thor_convert import ConvertNetUtils
    ConvertNetUtils().convert_to_thor_net(net)
    params = [p for p in net.trainable_params()]
    return ThorGpu(params, learning_rate, damping, momentum, _preconditioners(net, params),
                   weight_decay=weight_decay, loss_scale=loss_scale, batch_size=batch_size,
                   use_nesterov=use_nesterov, decay_filter=decay_filter, frequency=frequency)
