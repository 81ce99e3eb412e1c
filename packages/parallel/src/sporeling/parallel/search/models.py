"""Model graphs for planning without data: an MLP and a stack of Transformer blocks traced
on shapes only (what the search benchmark and the plan command's examples use)."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import Aval
from sporeling.compiler.ir import Graph, make_graph

__all__ = ["mlp_graph", "transformer_graph"]


def mlp_graph(batch: int, hidden: int, width: int, dtype=np.float32) -> tuple[Graph, tuple]:
    """``gelu(x @ w1) @ w2``: the graph and the indices of its parameters."""
    def mlp(x, w1, w2):
        return ops.matmul(ops.gelu(ops.matmul(x, w1)), w2)
    g = make_graph(mlp, Aval((batch, hidden), dtype), Aval((hidden, width), dtype),
                   Aval((width, hidden), dtype))
    return g, (1, 2)


def _block(x, wq, wk, wv, wo, g, b, w1, w2, heads):
    B, S, D = x.shape
    dh = D // heads
    q = ops.transpose(ops.reshape(ops.matmul(x, wq), (B, S, heads, dh)), (0, 2, 1, 3))
    k = ops.transpose(ops.reshape(ops.matmul(x, wk), (B, S, heads, dh)), (0, 2, 3, 1))
    v = ops.transpose(ops.reshape(ops.matmul(x, wv), (B, S, heads, dh)), (0, 2, 1, 3))
    a = ops.softmax(ops.mul(ops.matmul(q, k), 1.0 / float(np.sqrt(dh))), axis=-1)
    o = ops.reshape(ops.transpose(ops.matmul(a, v), (0, 2, 1, 3)), (B, S, D))
    h = ops.layer_norm(ops.add(x, ops.matmul(o, wo)), (D,), g, b)
    return ops.add(h, ops.matmul(ops.gelu(ops.matmul(h, w1)), w2))


def transformer_graph(layers: int, batch: int, seq: int, hidden: int, heads: int,
                      ffn: int | None = None, dtype=np.float32) -> tuple[Graph, tuple]:
    """``layers`` Transformer blocks (attention, layer norm, MLP) ending in a mean loss."""
    ffn = ffn or 4 * hidden
    D = hidden
    per = [(D, D)] * 4 + [(D,), (D,), (D, ffn), (ffn, D)]

    def net(x, *weights):
        for i in range(layers):
            x = _block(x, *weights[i * 8:(i + 1) * 8], heads)
        return ops.mean(x)
    avals = [Aval((batch, seq, D), dtype)] + [Aval(s, dtype) for _ in range(layers)
                                              for s in per]
    return make_graph(net, *avals), tuple(range(1, len(avals)))
