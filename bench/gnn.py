"""GCN training step (forward + backward) on stochastic-block-model graphs: Sporeling's gnn
plugin (PyNative and Graph mode) vs a scipy.sparse NumPy reference vs PyTorch (when
installed: ``torch.sparse.mm`` and ``index_add_`` message passing).

A two-layer GCN (features -> 16 -> 4 classes, ReLU) on ``networkx.stochastic_block_model``
graphs of 4 equal blocks, mean degree about 10 (8 inside the block, 2 across); the loss is
the cross-entropy over 10% labelled nodes. Every contender starts from the same weights,
and its loss and first-layer weight gradient must equal the reference's (checked before
timing). Sporeling propagates edge by edge (gather rows, then ``gnn_segment_sum``), the
reference and ``torch.sparse`` multiply by the normalised adjacency ``D^-1/2 (A+I) D^-1/2``
as a sparse matrix. Timed in blocks with 0.3 s idle before each, the order alternating
(``bench/timing.py``); medians over blocks with the lowest and highest block.

    python bench/gnn.py [--sizes 1000 4000] [--features 32] [--blocks 5 --steps 5]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.expression import nn  # noqa: E402
from sporeling.gnn import GCNConv  # noqa: E402
from sporeling.gnn.datasets import stochastic_block_model  # noqa: E402

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is optional: only a comparison
    torch = None

HIDDEN, CLASSES = 16, 4


def make_problem(n: int, features: int, seed: int = 0):
    block = n // CLASSES
    g = stochastic_block_model([block] * CLASSES, p_in=8 / block, p_out=2 / (n - block),
                               features=features, seed=seed)
    rng = np.random.default_rng(seed)
    labelled = np.sort(rng.choice(g.num_nodes, g.num_nodes // 10, replace=False))
    weights = [(rng.standard_normal((HIDDEN, features)) / np.sqrt(features)).astype(np.float32),
               np.zeros(HIDDEN, np.float32),
               (rng.standard_normal((CLASSES, HIDDEN)) / np.sqrt(HIDDEN)).astype(np.float32),
               np.zeros(CLASSES, np.float32)]
    return g, labelled, weights


def normalised_adjacency(g) -> sp.csr_matrix:
    n = g.num_nodes
    a = sp.csr_matrix((np.ones(g.num_edges, np.float32), (g.edge_index[1], g.edge_index[0])),
                      shape=(n, n)) + sp.eye(n, dtype=np.float32, format="csr")
    d = sp.diags((np.asarray(a.sum(axis=1)).ravel() ** -0.5).astype(np.float32))
    return (d @ a @ d).tocsr()


# ---- Sporeling ------------------------------------------------------------------------------

class GCN(nn.Cell):
    def __init__(self, features: int, weights):
        super().__init__()
        self.conv1 = GCNConv(features, HIDDEN, cached=True)
        self.conv2 = GCNConv(HIDDEN, CLASSES, cached=True)
        for p, w in zip([self.conv1.lin.weight, self.conv1.bias, self.conv2.lin.weight,
                         self.conv2.bias], weights):
            p.set_data(w.copy())

    def construct(self, x, edge_index):
        return self.conv2(sx.ops.relu(self.conv1(x, edge_index)), edge_index)


def sporeling_step(g, labelled, weights, graph_mode: bool):
    net = GCN(g.x.shape[1], weights)
    params = [net.conv1.lin.weight, net.conv1.bias, net.conv2.lin.weight, net.conv2.bias]
    x, y = sx.Tensor(g.x), sx.Tensor(g.y[labelled])
    edges = g.edge_index
    loss = lambda x, y: sx.ops.cross_entropy(net(x, edges)[labelled], y)  # noqa: E731
    grad_fn = sx.value_and_grad(loss, None, params)
    step = sx.jit(grad_fn) if graph_mode else grad_fn

    def run():
        value, grads = step(x, y)
        return float(value.asnumpy()), grads[0].asnumpy()
    return run


# ---- scipy.sparse reference -----------------------------------------------------------------

def numpy_step(g, labelled, weights):
    a_hat = normalised_adjacency(g)
    a_hat_t = a_hat.T.tocsr()
    x, y = g.x, g.y[labelled]
    w1, b1, w2, b2 = weights

    def run():
        s1 = a_hat @ (x @ w1.T) + b1
        r = np.maximum(s1, 0)
        z = a_hat @ (r @ w2.T) + b2
        logits = z[labelled]
        shifted = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(shifted)
        p /= p.sum(axis=1, keepdims=True)
        loss = -np.log(p[np.arange(len(y)), y]).mean()
        dz = np.zeros_like(z)
        p[np.arange(len(y)), y] -= 1
        dz[labelled] = p / len(y)
        dh2 = a_hat_t @ dz
        dr = dh2 @ w2
        ds1 = dr * (s1 > 0)
        dh1 = a_hat_t @ ds1
        return float(loss), dh1.T @ x  # the loss and dW1 (dW2, db1, db2 are computed alike)
    return run


# ---- PyTorch ----------------------------------------------------------------------------------

def torch_step(g, labelled, weights, how: str):
    x, y = torch.from_numpy(g.x), torch.from_numpy(g.y[labelled])
    params = [torch.tensor(w, requires_grad=True) for w in weights]
    idx = torch.from_numpy(labelled)
    if how == "sparse":
        a = normalised_adjacency(g).tocoo()
        a_t = torch.sparse_coo_tensor(np.vstack([a.row, a.col]), a.data, a.shape,
                                      check_invariants=False).coalesce()
        propagate = lambda h: torch.sparse.mm(a_t, h)  # noqa: E731
    else:
        n = g.num_nodes
        loops = np.arange(n)
        src = torch.from_numpy(np.concatenate([g.edge_index[0], loops]))
        dst = torch.from_numpy(np.concatenate([g.edge_index[1], loops]))
        deg = torch.zeros(n).index_add_(0, dst, torch.ones(len(dst)))
        norm = (deg[src] * deg[dst]).rsqrt().unsqueeze(1)
        def propagate(h):
            return torch.zeros(n, h.shape[1]).index_add_(0, dst, h[src] * norm)

    def run():
        w1, b1, w2, b2 = params
        h = torch.relu(propagate(x @ w1.T) + b1)
        z = propagate(h @ w2.T) + b2
        loss = torch.nn.functional.cross_entropy(z[idx], y)
        grads = torch.autograd.grad(loss, params)
        return float(loss.detach()), grads[0].numpy()
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000])
    ap.add_argument("--features", type=int, default=32)
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--steps", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for n in args.sizes:
        g, labelled, weights = make_problem(n, args.features)
        contenders = {"numpy + scipy.sparse": numpy_step(g, labelled, weights),
                      "sporeling PyNative": sporeling_step(g, labelled, weights, False),
                      "sporeling Graph": sporeling_step(g, labelled, weights, True)}
        if torch is not None:
            contenders["torch.sparse.mm"] = torch_step(g, labelled, weights, "sparse")
            contenders["torch index_add_"] = torch_step(g, labelled, weights, "index_add")
        ref_loss, ref_grad = contenders["numpy + scipy.sparse"]()
        for name, fn in contenders.items():  # the same numbers before any timing
            loss, grad = fn()
            assert abs(loss - ref_loss) < 1e-4 * max(1, abs(ref_loss)), (name, loss, ref_loss)
            np.testing.assert_allclose(grad, ref_grad, rtol=1e-3, atol=1e-5, err_msg=name)
        timings = compare(contenders, steps=args.steps, blocks=args.blocks)
        base = timings["numpy + scipy.sparse"]
        for name, t in timings.items():
            rows.append([f"{g.num_nodes:,} nodes, {g.num_edges:,} edges", name, t.ms(),
                         ratio(t, base)])
    print(f"GCN {args.features}-{HIDDEN}-{CLASSES} training step (forward + backward), "
          f"per step: median (lowest-highest block) of {args.blocks} blocks x {args.steps}")
    print_table(["graph", "contender", "step", "vs scipy"], rows)


if __name__ == "__main__":
    main()
