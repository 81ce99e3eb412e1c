"""Small MLPs for the agents, and the helpers that move weights between them."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn

__all__ = ["mlp", "copy_weights", "get_weights", "set_weights"]


def mlp(in_dim: int, out_dim: int, hidden=(64, 64), activation: str = "tanh",
        out_scale: float = 1.0) -> nn.SequentialCell:
    """``in_dim -> hidden... -> out_dim``, ``activation`` between layers, a linear output.
    ``out_scale`` multiplies the output layer's initial weights (PPO starts its policy
    near uniform with 0.01)."""
    sizes = [int(in_dim), *map(int, hidden)]
    layers = [nn.Dense(a, b, activation=activation) for a, b in zip(sizes, sizes[1:])]
    head = nn.Dense(sizes[-1], int(out_dim))
    if out_scale != 1.0:
        head.weight.set_data(head.weight.asnumpy() * np.float32(out_scale))
    return nn.SequentialCell([*layers, head])


def get_weights(net: nn.Cell) -> list[np.ndarray]:
    """Copies of ``net``'s parameters, in order."""
    return [p.asnumpy().copy() for p in net.trainable_params()]


def set_weights(net: nn.Cell, weights) -> None:
    """Write ``weights`` (as from :func:`get_weights`) into ``net``'s parameters."""
    for p, w in zip(net.trainable_params(), weights, strict=True):
        p.set_data(sx.Tensor(np.array(w, dtype=p.asnumpy().dtype)))


def copy_weights(source: nn.Cell, target: nn.Cell) -> None:
    """Make ``target``'s parameters equal to ``source``'s (copies, not shared)."""
    set_weights(target, get_weights(source))
