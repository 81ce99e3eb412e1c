"""Small models the operator-parallel and search tests share (plain compiler ops)."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.parallel.operator import strategy


def mlp(x, w1, w2, *, col=None, row=None):
    """Two dense layers; ``col``/``row``: strategies of the two matmuls (None: propagate)."""
    with strategy(col) if col else _null():
        h = ops.matmul(x, w1)
    h = ops.gelu(h)
    with strategy(row) if row else _null():
        y = ops.matmul(h, w2)
    return y


def block(x, wq, wk, wv, wo, g, b, w1, w2, *, heads=2, annotate=None):
    """A Transformer block (attention + layer norm + MLP); ``annotate``: devices for the
    Megatron strategies (heads split, column-then-row MLP)."""
    n = annotate
    B, S, D = x.shape
    dh = D // heads
    with strategy(((1, 1, 1), (1, n))) if n else _null():
        q = ops.matmul(x, wq)
    k = ops.matmul(x, wk)
    v = ops.matmul(x, wv)
    q = ops.transpose(ops.reshape(q, (B, S, heads, dh)), (0, 2, 1, 3))
    k = ops.transpose(ops.reshape(k, (B, S, heads, dh)), (0, 2, 3, 1))
    v = ops.transpose(ops.reshape(v, (B, S, heads, dh)), (0, 2, 1, 3))
    a = ops.softmax(ops.mul(ops.matmul(q, k), 1.0 / np.sqrt(dh)), axis=-1)
    o = ops.reshape(ops.transpose(ops.matmul(a, v), (0, 2, 1, 3)), (B, S, D))
    with strategy(((1, 1, n), (n, 1))) if n else _null():
        o = ops.matmul(o, wo)
    h = ops.layer_norm(ops.add(x, o), (D,), g, b)
    with strategy(((1, 1, 1), (1, n))) if n else _null():
        f = ops.matmul(h, w1)
    f = ops.gelu(f)
    with strategy(((1, 1, n), (n, 1))) if n else _null():
        f = ops.matmul(f, w2)
    return ops.add(h, f)


def block_args(rng, B=2, S=4, D=8, F=16, dtype=np.float64):
    shapes = [(B, S, D), (D, D), (D, D), (D, D), (D, D), (D,), (D,), (D, F), (F, D)]
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
