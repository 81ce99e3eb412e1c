"""Graph mode vs PyNative, side by side: training-step time, compile time, planned memory.

(a) MLP 784-512-512-10, batch 128, SGD with momentum (also against the NumPy reference);
(b) LeNet-5 on 1x28x28, batch 64 (the models of ``bench/train_step.py``);
(c) a small-op model: a 2-layer LSTM, batch 1, sequence 32, input and hidden 64, with a
    Dense head and cross-entropy -- hundreds of tiny ops per step, where per-op overhead
    dominates.

Each model is built twice from the same weights; both take the same steps, so their losses
must agree (printed as a check). Medians over interleaved repeats. Graph mode compiles the
loss and its gradients into one graph (the optimizer update stays eager NumPy in both).
"Peak/bound" is the planned arena of the compiled step against the liveness lower bound
(the most bytes live at once), from ``Executable.memory``.

    python bench/graph_vs_pynative.py [--repeats 20]

Targets: Graph >= 3x PyNative on the LSTM, >= 1.0x on MLP and LeNet; MLP Graph step <=
1.05x the NumPy reference; planned peak <= 1.05x the lower bound.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from reference.lenet import NumpyLeNet  # noqa: E402
from reference.mlp import NumpyMLP  # noqa: E402
from train_step import LR, MOMENTUM, race, sporeling_lenet, sporeling_mlp  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.expression import nn  # noqa: E402
from sporeling.expression.graph.cell_call import cache_of  # noqa: E402


class LSTMTagger(nn.Cell):
    """2-layer LSTM over the sequence, the last step through a Dense head."""

    def __init__(self, size=64, classes=10):
        super().__init__()
        self.lstm = nn.LSTM(size, size, num_layers=2, batch_first=True)
        self.head = nn.Dense(size, classes)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def lstm_model(_ref=None):
    sx.set_seed(0)
    return LSTMTagger()


def train_cell(net):
    loss_net = nn.WithLossCell(net, nn.CrossEntropyLoss())
    optimizer = nn.SGD(net.trainable_params(), learning_rate=LR, momentum=MOMENTUM)
    return nn.TrainOneStepCell(loss_net, optimizer).set_train()


def step_fn(cell, mode):
    def step(x, y):
        with sx.context(mode=mode):
            return float(cell(sx.Tensor(x), sx.Tensor(y)).asnumpy())
    return step


def bench_model(label, build, ref, x, y, repeats):
    pynative = train_cell(build(ref))
    graph = train_cell(build(ref))
    contenders = {"pynative": step_fn(pynative, sx.PYNATIVE_MODE),
                  "graph": step_fn(graph, sx.GRAPH_MODE)}
    if ref is not None:
        contenders["numpy by hand"] = ref.step  # last: the others copied its start weights
    results = race(contenders, x, y, repeats)
    cache = cache_of(graph)
    info = cache.info()
    memory = getattr(cache.last_executable, "memory", None) or {}
    return {"label": label, "results": results, "compile_s": info["compile_seconds"],
            "compiles": info["compile_count"], "memory": memory,
            "equations": len(cache.last_graph.equations)}


def report(rows) -> None:
    print(f"{'model':30} {'pynative ms':>12} {'graph ms':>10} {'speed-up':>9} "
          f"{'numpy ms':>9} {'graph/numpy':>12} {'compile s':>10} {'peak/bound':>11} "
          f"{'loss check':>11}")
    for row in rows:
        res = row["results"]
        py, gr = res["pynative"][0], res["graph"][0]
        npy = res.get("numpy by hand", (None,))[0]
        mem = row["memory"]
        ratio = mem.get("ratio")
        losses = [r[1][-1] for r in res.values()]
        agree = "ok" if np.allclose(losses, losses[0], rtol=1e-4) else \
            "DIFFER " + ", ".join(f"{v:.5f}" for v in losses)
        print(f"{row['label']:30} {py * 1e3:12.2f} {gr * 1e3:10.2f} {py / gr:8.2f}x "
              f"{'' if npy is None else f'{npy * 1e3:9.2f}':>9} "
              f"{'' if npy is None else f'{gr / npy:11.2f}x':>12} {row['compile_s']:10.3f} "
              f"{'n/a' if ratio is None else f'{ratio:10.3f}x':>11} {agree:>11}")
    print()
    for row in rows:
        mem = row["memory"]
        if mem:
            print(f"{row['label']}: {row['equations']} equations; arena "
                  f"{mem.get('arena_bytes', 0) / 2**20:.2f} MiB, liveness lower bound "
                  f"{mem.get('lower_bound', 0) / 2**20:.2f} MiB, compiled "
                  f"{row['compiles']} time(s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    specs = [("MLP 784-512-512-10, b128", sporeling_mlp, NumpyMLP, (784,), 128),
             ("LeNet-5 1x28x28, b64", sporeling_lenet, NumpyLeNet, (1, 28, 28), 64),
             ("LSTM 2x64, b1, seq 32", lstm_model, None, (32, 64), 1)]
    for label, build, ref_cls, x_shape, batch in specs:
        x = rng.standard_normal((batch,) + x_shape).astype(np.float32)
        y = rng.integers(0, 10, batch).astype(np.int32)
        ref = ref_cls(lr=LR, momentum=MOMENTUM) if ref_cls is not None else None
        rows.append(bench_model(label, build, ref, x, y, args.repeats))
    report(rows)


if __name__ == "__main__":
    main()
