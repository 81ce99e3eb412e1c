"""Zachary's karate club: which club does each member join? Semi-supervised node
classification with a two-layer GCN from one labelled member per club (the two leaders,
nodes 0 and 33); accuracy on the other 32.

    python -m sporeling.gnn.examples.karate_club [--steps 200] [--graph] [--layer gcn|gat|sage|gin]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.gnn import GATConv, GCNConv, GINConv, SAGEConv
from sporeling.gnn.datasets import karate_club

LABELLED = np.array([0, 33])  # Mr. Hi and the Officer


class Net(nn.Cell):
    """Two graph layers with a ReLU between them."""

    def __init__(self, in_channels: int, hidden: int = 16, classes: int = 2,
                 layer: str = "gcn"):
        super().__init__()
        if layer == "gcn":
            self.conv1 = GCNConv(in_channels, hidden, cached=True)
            self.conv2 = GCNConv(hidden, classes, cached=True)
        elif layer == "gat":
            self.conv1 = GATConv(in_channels, hidden // 4, heads=4, dropout=0.6)
            self.conv2 = GATConv(hidden, classes, concat=False, dropout=0.6)
        elif layer == "sage":
            self.conv1, self.conv2 = SAGEConv(in_channels, hidden), SAGEConv(hidden, classes)
        else:
            self.conv1 = GINConv(nn.SequentialCell(nn.Dense(in_channels, hidden), nn.ReLU(),
                                                   nn.Dense(hidden, hidden)))
            self.conv2 = GINConv(nn.Dense(hidden, classes))

    def construct(self, x, edge_index):
        return self.conv2(sx.ops.relu(self.conv1(x, edge_index)), edge_index)


def train(steps: int = 50, layer: str = "gcn", graph_mode: bool = False, seed: int = 0,
          lr: float = 0.01):
    """Train; returns ``(accuracy on the unlabelled members, final loss, seconds)``."""
    sx.set_seed(seed)
    g = karate_club()
    net = Net(g.x.shape[1], layer=layer)
    net.set_train(True)  # GAT's attention dropout acts while training
    opt = nn.Adam(net.trainable_params(), learning_rate=lr, weight_decay=5e-4)
    x, labels = sx.Tensor(g.x), sx.Tensor(g.y[LABELLED])
    edges = g.edge_index

    def loss_fn(x, labels):
        return sx.ops.cross_entropy(net(x, edges)[LABELLED], labels)

    grad_fn = sx.value_and_grad(loss_fn, None, opt.parameters)

    def step(x, labels):
        loss, grads = grad_fn(x, labels)
        opt(grads)
        return loss

    if graph_mode:
        step = sx.jit(step)
    start = time.perf_counter()
    for _ in range(steps):
        loss = step(x, labels)
    seconds = time.perf_counter() - start
    net.set_train(False)
    pred = net(x, edges).asnumpy().argmax(axis=1)
    rest = np.setdiff1d(np.arange(g.num_nodes), LABELLED)
    return float((pred[rest] == g.y[rest]).mean()), float(loss.asnumpy()), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--layer", choices=["gcn", "gat", "sage", "gin"], default="gcn")
    ap.add_argument("--graph", action="store_true", help="compile the training step (sx.jit)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    acc, loss, seconds = train(args.steps, args.layer, args.graph, args.seed)
    print(f"{args.layer}: accuracy on the 32 unlabelled members {acc:.3f}, "
          f"loss {loss:.4f}, {args.steps} steps in {seconds:.2f} s")


if __name__ == "__main__":
    main()
