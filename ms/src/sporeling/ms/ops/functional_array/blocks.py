"""Block rearrangements of MindSpore r2.3 ``mindspore.ops`` (array operations):
batch_to_space_nd, space_to_batch_nd, channel_shuffle. Reshapes and transposes of sx ops."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, ops, tensor

__all__ = ["batch_to_space_nd", "space_to_batch_nd", "channel_shuffle"]


def channel_shuffle(x, groups):
    """(N, C, ...) channels regrouped: (g, C/g) -> (C/g, g)."""
    x = tensor(x)
    c = x.shape[1]
    if groups <= 0 or c % groups:
        raise SporelingError("channels must divide into groups", op="ops.channel_shuffle",
                             expected=f"groups dividing {c}", got=groups)
    rest = tuple(x.shape[2:])
    y = ops.reshape(x, (x.shape[0], groups, c // groups) + rest)
    y = ops.transpose(y, (0, 2, 1) + tuple(range(3, 3 + len(rest))))
    return ops.reshape(y, tuple(x.shape))


def batch_to_space_nd(input_x, block_shape, crops):
    """Move blocks of the batch into the spatial axes, then crop (TF's batch_to_space_nd)."""
    x = tensor(input_x)
    block = [int(b) for b in ([block_shape] * len(crops) if isinstance(block_shape, int)
                              else block_shape)]
    m = len(block)
    b = x.shape[0]
    prod = int(np.prod(block))
    if b % prod:
        raise SporelingError("batch not divisible by the block", op="ops.batch_to_space_nd",
                             expected=f"a batch divisible by {prod}", got=b)
    spatial, rest = tuple(x.shape[1:1 + m]), tuple(x.shape[1 + m:])
    y = ops.reshape(x, tuple(block) + (b // prod,) + spatial + rest)
    order = [m] + [i for j in range(m) for i in (m + 1 + j, j)] + \
        list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    y = ops.transpose(y, tuple(order))
    y = ops.reshape(y, (b // prod,) + tuple(s * k for s, k in zip(spatial, block)) + rest)
    key = (slice(None),) + tuple(slice(c[0], y.shape[1 + i] - c[1])
                                 for i, c in enumerate(crops))
    return ops.getitem(y, key)


def space_to_batch_nd(input_x, block_size, paddings):
    """Pad the spatial axes, then move blocks of them into the batch (TF's
    space_to_batch_nd)."""
    x = tensor(input_x)
    block = [int(b) for b in ([block_size] * len(paddings) if isinstance(block_size, int)
                              else block_size)]
    m = len(block)
    x = ops.pad(x, [(0, 0)] + [tuple(int(v) for v in p) for p in paddings]
                + [(0, 0)] * (x.ndim - 1 - m))
    b = x.shape[0]
    spatial, rest = tuple(x.shape[1:1 + m]), tuple(x.shape[1 + m:])
    if any(s % k for s, k in zip(spatial, block)):
        raise SporelingError("padded spatial size not divisible by the block",
                             op="ops.space_to_batch_nd", expected=f"multiples of {block}",
                             got=spatial)
    split_shape = (b,) + tuple(v for s, k in zip(spatial, block) for v in (s // k, k)) + rest
    y = ops.reshape(x, split_shape)
    order = [2 + 2 * j for j in range(m)] + [0] + [1 + 2 * j for j in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    y = ops.transpose(y, tuple(order))
    return ops.reshape(y, (b * int(np.prod(block)),) + tuple(s // k for s, k in
                                                             zip(spatial, block)) + rest)
