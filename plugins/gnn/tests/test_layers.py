"""Message passing and the layers against dense NumPy / scipy.sparse references, in PyNative
and Graph mode."""
import numpy as np
import pytest
import scipy.sparse as sp

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn

from sporeling.gnn import (GATConv, GCNConv, GINConv, MessagePassing, SAGEConv, gcn_norm)

rng = np.random.default_rng(0)


def random_graph(n=12, p=0.25, isolated=(), seed=0):
    r = np.random.default_rng(seed)
    a = np.triu(r.random((n, n)) < p, 1)
    a = a | a.T
    for i in isolated:
        a[i, :] = a[:, i] = False
    src, dst = np.nonzero(a)
    return np.stack([src, dst]).astype(np.int64), a.astype(np.float64)


def dense_adjacency(edge_index, n, weight=None):
    """``A[i, j]``: the weight of the edge ``j -> i``."""
    w = np.ones(edge_index.shape[1]) if weight is None else weight
    return sp.csr_matrix((w, (edge_index[1], edge_index[0])), shape=(n, n))


def params(layer):
    return {p.name.split(".")[-1] if "." in p.name else p.name: p.asnumpy().astype(np.float64)
            for p in layer.get_parameters()}


@pytest.mark.parametrize("weighted", [False, True])
def test_gcn_propagation_equals_scipy_sparse_in_float64(weighted):
    ei, _ = random_graph(40, 0.15, isolated=(3,))
    n = 40
    w = rng.uniform(0.5, 2.0, ei.shape[1]) if weighted else None
    conv = GCNConv(5, 5)
    edges, norm = gcn_norm(ei, n, w, dtype=np.float64)
    x = rng.standard_normal((n, 5))
    out = conv.propagate(edges, x=x, norm=norm)  # the layer's own message passing
    a_hat = dense_adjacency(ei, n, w) + sp.eye(n)
    d = sp.diags(np.asarray(a_hat.sum(axis=1)).ravel() ** -0.5)
    np.testing.assert_allclose(out, d @ a_hat @ d @ x, rtol=0, atol=1e-10)


def test_gcn_without_self_loops_gives_isolated_nodes_zero():
    ei, _ = random_graph(10, 0.3, isolated=(2,))
    edges, norm = gcn_norm(ei, 10, self_loops=False, dtype=np.float64)
    out = GCNConv(3, 3).propagate(edges, x=np.ones((10, 3)), norm=norm)
    assert np.isfinite(out).all() and not out[2].any()


def test_gcn_layer_equals_dense_formula_and_caches_the_normalisation():
    ei, a = random_graph()
    n = len(a)
    conv = GCNConv(4, 3, cached=True)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    p = params(conv)
    a_hat = a + np.eye(n)
    d = np.diag(a_hat.sum(1) ** -0.5)
    expect = d @ a_hat @ d @ x @ p["weight"].T + p["bias"]
    np.testing.assert_allclose(conv(sx.Tensor(x), ei).asnumpy(), expect, rtol=1e-4, atol=1e-5)
    first = conv._cache.value
    conv(sx.Tensor(x), ei)
    assert conv._cache.value is first


def test_gat_equals_a_dense_attention_reference():
    ei, a = random_graph()
    n, heads, c = len(a), 3, 2
    conv = GATConv(4, c, heads=heads, negative_slope=0.2)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    p = params(conv)
    h = (x @ p["weight"].T).reshape(n, heads, c)
    s_src = (h * p["att_src"]).sum(-1)  # (n, heads)
    s_dst = (h * p["att_dst"]).sum(-1)
    mask = (a + np.eye(n)) > 0  # [i, j]: j -> i, self loops added
    out = np.zeros((n, heads, c))
    for k in range(heads):
        e = s_dst[:, k][:, None] + s_src[:, k][None, :]
        e = np.where(e > 0, e, 0.2 * e)
        e = np.where(mask, e, -np.inf)
        alpha = np.exp(e - e.max(1, keepdims=True))
        alpha /= alpha.sum(1, keepdims=True)
        out[:, k] = alpha @ h[:, k]
    expect = out.reshape(n, heads * c) + p["bias"]
    np.testing.assert_allclose(conv(sx.Tensor(x), ei).asnumpy(), expect, rtol=1e-4, atol=1e-5)
    averaged = GATConv(4, c, heads=heads, concat=False)
    assert averaged(sx.Tensor(x), ei).shape == (n, c)


@pytest.mark.parametrize("aggr", ["mean", "max", "sum"])
def test_sage_equals_the_dense_formula(aggr):
    ei, a = random_graph(isolated=(5,))
    n = len(a)
    conv = SAGEConv(4, 3, aggr=aggr)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    agg = np.zeros((n, 4))
    for i in range(n):
        nbrs = x[a[i] > 0]
        if len(nbrs):
            agg[i] = {"mean": nbrs.mean(0), "max": nbrs.max(0), "sum": nbrs.sum(0)}[aggr]
    w_l, b_l = conv.lin_l.weight.asnumpy(), conv.lin_l.bias.asnumpy()
    expect = agg @ w_l.T + b_l + x @ conv.lin_r.weight.asnumpy().T
    np.testing.assert_allclose(conv(sx.Tensor(x), ei).asnumpy(), expect, rtol=1e-4, atol=1e-5)
    unit = SAGEConv(4, 3, normalize=True)(sx.Tensor(x), ei).asnumpy()
    np.testing.assert_allclose(np.linalg.norm(unit, axis=1), 1.0, rtol=1e-5)


def test_gin_equals_the_dense_formula_and_learns_eps():
    ei, a = random_graph()
    mlp = nn.Dense(4, 3)
    conv = GINConv(mlp, eps=0.5, train_eps=True)
    x = rng.standard_normal((len(a), 4)).astype(np.float32)
    w, b = mlp.weight.asnumpy(), mlp.bias.asnumpy()
    expect = (1.5 * x + a @ x) @ w.T + b
    np.testing.assert_allclose(conv(sx.Tensor(x), ei).asnumpy(), expect, rtol=1e-4, atol=1e-5)
    (g_eps,) = sx.grad(lambda t: conv(t, ei).sum(), None, [conv.eps])(sx.Tensor(x))
    # d sum(nn(h)) / d eps = sum over nodes of x_i . (sum of nn's weight rows)
    np.testing.assert_allclose(g_eps.asnumpy(), [(x @ w.sum(0)).sum()], rtol=1e-4)


class EdgeMax(MessagePassing):
    """A user's layer: the largest ``x_j - x_i`` over the incoming edges."""

    def __init__(self):
        super().__init__(aggr="max")

    def message(self, x_i, x_j):
        return sx.ops.sub(x_j, x_i)

    def construct(self, x, edge_index):
        return self.propagate(edge_index, x=x)


def test_a_user_defined_message_passing_layer():
    ei, a = random_graph()
    x = rng.standard_normal((len(a), 2))
    expect = np.zeros_like(x)
    for i in range(len(a)):
        nbrs = np.nonzero(a[i])[0]
        if len(nbrs):
            expect[i] = (x[nbrs] - x[i]).max(0)
    np.testing.assert_allclose(EdgeMax()(x, ei), expect)


def test_message_passing_errors_say_what_is_missing():
    with pytest.raises(ShapeError, match="unknown aggregation"):
        MessagePassing(aggr="median")
    ei, _ = random_graph()
    with pytest.raises(ShapeError, match=r"edge_index must be \(2, E\)"):
        EdgeMax()(np.ones((12, 2)), ei.T)

    class NeedsWeight(MessagePassing):
        def message(self, x_j, weight):
            return x_j

    with pytest.raises(ShapeError, match="needs 'weight'"):
        NeedsWeight().propagate(ei, x=np.ones((12, 2)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gcn = GCNConv(4, 8)
        self.gat = GATConv(8, 2, heads=2)
        self.sage = SAGEConv(8, 4)
        self.gin = GINConv(nn.Dense(4, 2))

    def construct(self, x, edge_index):
        h = sx.ops.relu(self.gcn(x, edge_index))
        h = sx.ops.add(self.gat(h, edge_index), self.sage(h, edge_index))
        return self.gin(sx.ops.tanh(h), edge_index)


def test_graph_mode_equals_pynative_forward_and_gradients():
    ei, a = random_graph()
    net = Net()
    weights = net.trainable_params()
    x = sx.Tensor(rng.standard_normal((len(a), 4)).astype(np.float32))
    loss = lambda t, e: (net(t, e) ** 2).mean()  # noqa: E731
    value, grads = sx.value_and_grad(loss, None, weights)(x, sx.Tensor(ei))
    step = sx.jit(lambda t, e: sx.value_and_grad(loss, None, weights)(t, e))
    g_value, g_grads = step(x, sx.Tensor(ei))  # edges traced: a graph input
    np.testing.assert_allclose(g_value.asnumpy(), value.asnumpy(), rtol=1e-5)
    for g, p in zip(g_grads, grads):
        np.testing.assert_allclose(g.asnumpy(), p.asnumpy(), rtol=1e-4, atol=1e-6)


def test_gat_attention_dropout_only_while_training():
    ei, a = random_graph()
    x = sx.Tensor(rng.standard_normal((len(a), 4)).astype(np.float32))
    conv = GATConv(4, 3, heads=2, dropout=0.5)
    plain = GATConv(4, 3, heads=2)
    for mine, theirs in zip(conv.get_parameters(), plain.get_parameters()):
        theirs.set_data(mine.asnumpy().copy())
    conv.set_train(False)
    np.testing.assert_allclose(conv(x, ei).asnumpy(), plain(x, ei).asnumpy(), rtol=1e-6)
    conv.set_train(True)
    sx.set_seed(0)
    dropped = conv(x, ei).asnumpy()
    assert np.isfinite(dropped).all() and not np.allclose(dropped, plain(x, ei).asnumpy())
    with pytest.raises(ShapeError, match="dropout"):
        GATConv(4, 3, dropout=1.0)
