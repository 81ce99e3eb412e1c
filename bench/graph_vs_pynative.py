"""Graph mode vs PyNative, side by side: training-step time, compile time, planned memory.

(a) MLP 784-512-512-10, batch 128, SGD with momentum (also against the NumPy reference);
(b) LeNet-5 on 1x28x28, batch 64 (the models of ``bench/train_step.py``);
(c) a small-op model: a 2-layer LSTM, batch 1, sequence 32, input and hidden 64, with a
    Dense head and cross-entropy -- hundreds of tiny ops per step, where per-op overhead
    dominates.

Each model is built twice from the same weights; both take the same steps, so their losses
must agree (printed as a check). Timed with ``bench/timing.compare``: blocks of steps, 0.3 s
idle before each, the order alternating; medians and spread over blocks. PyTorch eager
(optional) trains the same architecture as the "x torch" yardstick (MLP and LeNet from the
same weights; the LSTM from its own initialisation, so its loss is not compared). Graph
mode compiles the whole step, the optimizer update included, into one graph.
"Peak/bound" is the planned arena of the compiled step against the liveness lower bound
(the most bytes live at once), from ``Executable.memory``.

    python bench/graph_vs_pynative.py [--blocks 5 --steps 5]

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
from timing import compare, print_table, ratio  # noqa: E402
from train_step import (LR, MOMENTUM, sporeling_lenet, sporeling_mlp, torch,  # noqa: E402
                        torch_lenet, torch_mlp, torch_step)

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


def torch_lstm():
    class Tagger(torch.nn.Module):
        def __init__(self, size=64, classes=10):
            super().__init__()
            self.lstm = torch.nn.LSTM(size, size, num_layers=2, batch_first=True)
            self.head = torch.nn.Linear(size, classes)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.head(out[:, -1])
    torch.manual_seed(0)
    return Tagger()


def bench_model(label, build, torch_build, ref, x, y, blocks, steps):
    pynative = train_cell(build(ref))
    graph = train_cell(build(ref))
    steppers = {"pynative": step_fn(pynative, sx.PYNATIVE_MODE),
                "graph": step_fn(graph, sx.GRAPH_MODE)}
    if torch is not None:
        steppers["pytorch eager"] = torch_step(torch_build)
    if ref is not None:
        steppers["numpy by hand"] = ref.step  # last: the others copied its start weights
    results = compare({name: (lambda fn=fn: fn(x, y)) for name, fn in steppers.items()},
                      steps=steps, blocks=blocks)
    cache = cache_of(graph)
    info = cache.info()
    memory = getattr(cache.last_executable, "memory", None) or {}
    return {"label": label, "results": results, "compile_s": info["compile_seconds"],
            "compiles": info["compile_count"], "memory": memory,
            "equations": len(cache.last_graph.equations)}


def report(rows) -> None:
    table = []
    for row in rows:
        res = row["results"]
        graph, torch_t, numpy_t = res["graph"], res.get("pytorch eager"), \
            res.get("numpy by hand")
        compared = [n for n in res if n != "pytorch eager" or row["torch_same_weights"]]
        losses = [res[n].last for n in compared]
        agree = "ok" if np.allclose(losses, losses[0], rtol=1e-4) else \
            "DIFFER " + ", ".join(f"{v:.5f}" for v in losses)
        ratio_mem = row["memory"].get("ratio")
        for name, t in res.items():
            table.append([row["label"], name, t.ms(), ratio(t, torch_t), ratio(t, graph),
                          ratio(t, numpy_t) if numpy_t is not None else "-",
                          f"{row['compile_s']:.3f}" if name == "graph" else "",
                          (f"{ratio_mem:.3f}x" if ratio_mem is not None else "n/a")
                          if name == "graph" else "", agree if name == "pynative" else ""])
    print_table(["model", "contender", "per step: median (low-high)", "x torch", "x graph",
                 "x numpy", "compile s", "peak/bound", "losses"], table)
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
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per contender")
    parser.add_argument("--steps", type=int, default=5, help="training steps per block")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    specs = [("MLP 784-512-512-10, b128", sporeling_mlp, torch_mlp, NumpyMLP, (784,), 128),
             ("LeNet-5 1x28x28, b64", sporeling_lenet, torch_lenet, NumpyLeNet, (1, 28, 28),
              64),
             ("LSTM 2x64, b1, seq 32", lstm_model, lambda _ref: torch_lstm, None, (32, 64),
              1)]
    for label, build, torch_build, ref_cls, x_shape, batch in specs:
        x = rng.standard_normal((batch,) + x_shape).astype(np.float32)
        y = rng.integers(0, 10, batch).astype(np.int32)
        ref = ref_cls(lr=LR, momentum=MOMENTUM) if ref_cls is not None else None
        row = bench_model(label, build, torch_build(ref), ref, x, y, args.blocks,
                          args.steps)
        row["torch_same_weights"] = ref is not None
        rows.append(row)
    report(rows)


if __name__ == "__main__":
    main()
