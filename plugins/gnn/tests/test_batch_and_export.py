"""Mini-batches of graphs, global pooling, and SIR export of graphs holding gnn primitives."""
import os
import subprocess
import sys

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn

from sporeling.gnn import (Batch, GINConv, GCNConv, Graph, global_add_pool, global_max_pool,
                           global_mean_pool)

rng = np.random.default_rng(0)


def ring(n, features=3):
    src = np.arange(n)
    dst = (src + 1) % n
    edges = np.concatenate([np.stack([src, dst]), np.stack([dst, src])], axis=1)
    return Graph(rng.standard_normal((n, features)).astype(np.float32), edges,
                 y=np.array([n % 2]))


def test_batch_offsets_edges_and_round_trips():
    graphs = [ring(3), ring(5), ring(4)]
    b = Batch.from_graphs(graphs)
    assert b.num_nodes == 12 and b.num_graphs == 3 and b.num_edges == 24
    assert b.ptr.tolist() == [0, 3, 8, 12]
    assert b.batch.tolist() == [0] * 3 + [1] * 5 + [2] * 4
    assert b.edge_index[:, 6:].min() == 3  # the second graph's edges start at node 3
    assert b.y.tolist() == [1, 1, 0]
    for g, back in zip(graphs, b.to_graphs()):
        np.testing.assert_array_equal(back.x, g.x)
        np.testing.assert_array_equal(back.edge_index, g.edge_index)


def test_batch_refuses_mixed_feature_widths_and_bad_edges():
    with pytest.raises(ShapeError, match="feature shape"):
        Batch.from_graphs([ring(3, 2), ring(3, 4)])
    with pytest.raises(ShapeError, match=r"missing node.*\[0, 3\)"):
        Graph(np.ones((3, 1)), np.array([[0, 1], [1, 3]]))


class Readout(nn.Cell):
    """GIN, then sum pooling per graph and a linear head (a graph classifier)."""

    def __init__(self):
        super().__init__()
        self.conv = GINConv(nn.SequentialCell(nn.Dense(3, 8), nn.ReLU()), train_eps=True)
        self.head = nn.Dense(8, 2)

    def construct(self, x, edge_index, batch, num_graphs):
        return self.head(global_add_pool(self.conv(x, edge_index), batch, num_graphs))


def test_a_batched_forward_equals_one_graph_at_a_time():
    graphs = [ring(3), ring(5), ring(4)]
    b = Batch.from_graphs(graphs)
    net = Readout()
    together = net(sx.Tensor(b.x), b.edge_index, b.batch, b.num_graphs).asnumpy()
    alone = np.concatenate([net(sx.Tensor(g.x), g.edge_index, np.zeros(g.num_nodes, np.int64),
                                1).asnumpy() for g in graphs])
    np.testing.assert_allclose(together, alone, rtol=1e-5, atol=1e-6)


def test_pooling_per_graph():
    b = Batch.from_graphs([ring(3), ring(2)])
    x = b.x.astype(np.float64)
    parts = [x[:3], x[3:]]
    np.testing.assert_allclose(global_add_pool(x, b.batch, 2), [p.sum(0) for p in parts])
    np.testing.assert_allclose(global_mean_pool(x, b.batch, 2), [p.mean(0) for p in parts])
    np.testing.assert_allclose(global_max_pool(x, b.batch, 2), [p.max(0) for p in parts])


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = GCNConv(3, 4)

    def construct(self, x, edge_index, batch):
        return global_max_pool(self.conv(x, edge_index), batch, 2)


def test_export_to_sir_loads_the_gnn_primitives_by_name(tmp_path):
    b = Batch.from_graphs([ring(3), ring(4)])
    net = Model()
    args = (sx.Tensor(b.x), sx.Tensor(b.edge_index), sx.Tensor(b.batch))
    path = sx.export(net, *args, file_name=str(tmp_path / "gcn"), file_format="SIR")
    loaded = sx.load(path)
    np.testing.assert_allclose(loaded(*args).asnumpy(), net(*args).asnumpy(), rtol=1e-6)
    # without the plugin the file names a primitive nobody defines
    code = ("import sporeling.expression as sx\n"
            "try:\n    sx.load(%r)\nexcept Exception as e:\n    print(type(e).__name__, e)\n"
            % str(path))
    env = dict(os.environ, SPORELING_DISABLED_PLUGINS="gnn")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120).stdout
    assert "SIRError" in out and "unknown primitive 'gnn_segment_" in out
