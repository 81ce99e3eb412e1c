"""Graph layers on :class:`MessagePassing`: ``GCNConv``, ``GATConv``, ``SAGEConv``,
``GINConv``. Each is a Cell taking ``(x, edge_index)`` with ``x`` of shape ``(N, F)`` and
``edge_index`` a ``(2, E)`` integer array (sources in row 0, targets in row 1), and
returning ``(N, F_out)``. Weights default to Glorot (``XavierUniform``), biases to zeros, as
in PyG."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.core import ShapeError
from sporeling.expression.nn import Dense
from sporeling.expression.nn.init import XavierUniform, initializer
from sporeling.expression.tensor import Parameter

from .message_passing import MessagePassing
from .norm import add_self_loops, gcn_norm
from .primitives import segment_softmax

__all__ = ["GCNConv", "GATConv", "SAGEConv", "GINConv"]


def _linear(in_channels: int, out_channels: int, bias: bool = False) -> Dense:
    return Dense(in_channels, out_channels, weight_init=XavierUniform(),
                 bias_init="zeros", has_bias=bias)


def _bias(out_channels: int, name: str = "bias") -> Parameter:
    return Parameter(initializer("zeros", (out_channels,)), name=name)


class _EdgeCache:
    """GCN's ``(edge_index, norm)`` for a NumPy edge index, computed once (``cached=True``);
    a traced or changed edge index is normalised anew."""

    def __init__(self):
        self.key, self.value = None, None

    def get(self, edge_index, make):
        if not isinstance(edge_index, np.ndarray):
            return make()
        if self.key is not edge_index:
            self.key, self.value = edge_index, make()
        return self.value


class GCNConv(MessagePassing):
    """Kipf & Welling's graph convolution: ``D^-1/2 (A + I) D^-1/2 X W + b``.

    ``edge_weight`` (one per edge) weights ``A``; ``add_self_loops=False`` drops ``I``;
    ``normalize=False`` propagates with the raw weights. ``cached=True`` keeps the
    normalisation of a NumPy ``edge_index`` between calls (transductive training)."""

    def __init__(self, in_channels: int, out_channels: int, add_self_loops: bool = True,
                 normalize: bool = True, cached: bool = False, bias: bool = True):
        super().__init__(aggr="sum")
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.self_loops, self.normalize, self.cached = add_self_loops, normalize, cached
        self.lin = _linear(self.in_channels, self.out_channels)
        self.bias = _bias(self.out_channels) if bias else None
        self._cache = _EdgeCache()

    def _norm(self, edge_index, num_nodes, edge_weight, dtype):
        if not self.normalize:
            if self.self_loops:
                edge_index = add_self_loops(edge_index, num_nodes)
                if edge_weight is not None:
                    edge_weight = ops.concat([edge_weight, np.ones(num_nodes, dtype)])
            if edge_weight is None:
                edge_weight = np.ones(edge_index.shape[1], dtype)
            return edge_index, edge_weight
        return gcn_norm(edge_index, num_nodes, edge_weight, self.self_loops, dtype)

    def construct(self, x, edge_index, edge_weight=None):
        n = int(x.shape[0])
        make = lambda: self._norm(edge_index, n, edge_weight, np.dtype(x.dtype))  # noqa: E731
        edges, norm = self._cache.get(edge_index, make) if self.cached and edge_weight is None \
            else make()
        out = self.propagate(edges, x=self.lin(x), norm=norm)
        return out if self.bias is None else ops.add(out, self.bias)

    def message(self, x_j, norm):
        return ops.mul(x_j, ops.reshape(norm, (-1, 1)))


class GATConv(MessagePassing):
    """Veličković et al.'s graph attention: per head ``h``, edge ``j -> i`` scores
    ``LeakyReLU(a_src . W x_j + a_dst . W x_i)``, softmax-normalised over the edges entering
    ``i`` (:func:`segment_softmax`), and ``i`` sums ``alpha_ij W x_j``. Heads are
    concatenated (``concat=True``, output ``heads * out_channels``) or averaged.
    ``dropout`` drops attention coefficients while training (each node then sees a random
    subset of its neighbours, as in the paper)."""

    def __init__(self, in_channels: int, out_channels: int, heads: int = 1,
                 concat: bool = True, negative_slope: float = 0.2, dropout: float = 0.0,
                 add_self_loops: bool = True, bias: bool = True):
        super().__init__(aggr="sum")
        if not 0.0 <= dropout < 1.0:
            raise ShapeError("bad attention dropout", op="GATConv", expected="0 <= dropout < 1",
                             got=dropout)
        self.dropout = float(dropout)
        self.in_channels, self.out_channels, self.heads = int(in_channels), int(out_channels), \
            int(heads)
        self.concat, self.negative_slope, self.self_loops = concat, float(negative_slope), \
            add_self_loops
        self.lin = _linear(self.in_channels, self.heads * self.out_channels)
        shape = (1, self.heads, self.out_channels)
        self.att_src = Parameter(initializer(XavierUniform(), shape), name="att_src")
        self.att_dst = Parameter(initializer(XavierUniform(), shape), name="att_dst")
        width = self.heads * self.out_channels if concat else self.out_channels
        self.bias = _bias(width) if bias else None

    def construct(self, x, edge_index):
        n = int(x.shape[0])
        h = ops.reshape(self.lin(x), (n, self.heads, self.out_channels))
        alpha_src = ops.sum(ops.mul(h, self.att_src), axis=-1)  # (N, heads)
        alpha_dst = ops.sum(ops.mul(h, self.att_dst), axis=-1)
        if self.self_loops:
            edge_index = add_self_loops(edge_index, n)
        out = self.propagate(edge_index, x=h, alpha_src=alpha_src, alpha_dst=alpha_dst)
        if self.concat:
            out = ops.reshape(out, (n, self.heads * self.out_channels))
        else:
            out = ops.mean(out, axis=1)
        return out if self.bias is None else ops.add(out, self.bias)

    def message(self, x_j, alpha_src_j, alpha_dst_i, index, num_nodes):
        score = ops.leaky_relu(ops.add(alpha_src_j, alpha_dst_i), self.negative_slope)
        alpha = segment_softmax(score, index, num_nodes)  # (E, heads)
        if self.training and self.dropout:
            alpha = ops.dropout(alpha, self.dropout, training=True)
        return ops.mul(x_j, ops.reshape(alpha, tuple(alpha.shape) + (1,)))


class SAGEConv(MessagePassing):
    """Hamilton et al.'s GraphSAGE: ``W_l aggr_{j -> i} x_j + W_r x_i`` (``aggr`` mean by
    default; ``root_weight=False`` drops the second term; ``normalize=True`` scales each
    output row to unit L2 norm)."""

    def __init__(self, in_channels: int, out_channels: int, aggr: str = "mean",
                 root_weight: bool = True, normalize: bool = False, bias: bool = True):
        super().__init__(aggr=aggr)
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.root_weight, self.normalize = root_weight, normalize
        self.lin_l = _linear(self.in_channels, self.out_channels, bias=bias)
        self.lin_r = _linear(self.in_channels, self.out_channels) if root_weight else None

    def construct(self, x, edge_index):
        out = self.lin_l(self.propagate(edge_index, x=x))
        if self.lin_r is not None:
            out = ops.add(out, self.lin_r(x))
        if self.normalize:
            norm = ops.sqrt(ops.sum(ops.square(out), axis=-1, keepdims=True))
            out = ops.div(out, ops.maximum(norm, 1e-12))
        return out


class GINConv(MessagePassing):
    """Xu et al.'s graph isomorphism layer: ``nn((1 + eps) x_i + sum_{j -> i} x_j)`` with
    ``nn`` any Cell (an MLP); ``train_eps=True`` learns ``eps``."""

    def __init__(self, nn, eps: float = 0.0, train_eps: bool = False):
        super().__init__(aggr="sum")
        self.nn = nn
        self.train_eps = train_eps
        if train_eps:
            self.eps = Parameter(np.array([eps], np.float32), name="eps")
        else:
            self.eps = float(eps)

    def construct(self, x, edge_index):
        neighbours = self.propagate(edge_index, x=x)
        if self.train_eps:
            own = ops.mul(x, ops.add(self.eps, 1.0))
        else:
            own = ops.mul(x, 1.0 + self.eps) if self.eps else x
        return self.nn(ops.add(own, neighbours))
