"""Fused RNN primitives vs the former step-by-step layers: one training step of
``graph_vs_pynative.py``'s LSTM workload -- a 2-layer LSTM (and the same GRU), batch 1,
sequence 32, input and hidden 64, a Dense head and cross-entropy, SGD with momentum -- in
PyNative and Graph mode, with ``nn.LSTM`` / ``nn.GRU`` (one ``lstm`` / ``gru`` primitive
per network) and with the former layers (kept here: the base class's step-by-step
``_construct_steps`` with the old cell steps, ~36 recorded ops per cell step), against
PyTorch eager. Timed with ``bench/timing.compare`` (blocks, idle gaps, alternating order;
medians and spread) on one backend (``--backend``, default numpy: the reference kernels).

    python bench/rnn.py [--blocks 7 --steps 10] [--model lstm|gru|both] [--backend numpy]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from graph_vs_pynative import train_cell  # noqa: E402
from timing import compare, print_table, ratio  # noqa: E402
from train_step import torch, torch_step  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.expression import nn, ops  # noqa: E402


class StepLSTM(nn.LSTM):
    """The former LSTM layer: each step from ops."""

    def construct(self, x, hx=None, seq_length=None):
        return self._construct_steps(x, hx, seq_length)

    def _input_bias(self, xw, b_ih, b_hh):
        return xw if b_ih is None else ops.add(xw, ops.add(b_ih, b_hh))

    def _step(self, xw_t, state, w_hh_t, b_hh):
        h, c = state
        i, f, g, o = ops.split(ops.add(xw_t, ops.matmul(h, w_hh_t)), 4, -1)
        c = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
        return ops.mul(ops.sigmoid(o), ops.tanh(c)), c


class StepGRU(nn.GRU):
    """The former GRU layer."""

    def construct(self, x, hx=None, seq_length=None):
        return self._construct_steps(x, hx, seq_length)

    def _input_bias(self, xw, b_ih, b_hh):
        return xw if b_ih is None else ops.add(xw, b_ih)

    def _step(self, xw_t, state, w_hh_t, b_hh):
        (h,) = state
        hw = ops.matmul(h, w_hh_t)
        hw = hw if b_hh is None else ops.add(hw, b_hh)
        xr, xz, xn = ops.split(xw_t, 3, -1)
        hr, hz, hn = ops.split(hw, 3, -1)
        r, z = ops.sigmoid(ops.add(xr, hr)), ops.sigmoid(ops.add(xz, hz))
        n = ops.tanh(ops.add(xn, ops.mul(r, hn)))
        return (ops.add(n, ops.mul(z, ops.sub(h, n))),)


LAYERS = {("LSTM", "fused"): nn.LSTM, ("LSTM", "step"): StepLSTM,
          ("GRU", "fused"): nn.GRU, ("GRU", "step"): StepGRU}


class Tagger(nn.Cell):
    """A 2-layer RNN over the sequence, the last step through a Dense head."""

    def __init__(self, layer, size=64, classes=10):
        super().__init__()
        self.rnn = layer(size, size, num_layers=2, batch_first=True)
        self.head = nn.Dense(size, classes)

    def construct(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def torch_tagger(kind):
    class TorchTagger(torch.nn.Module):
        def __init__(self, size=64, classes=10):
            super().__init__()
            self.rnn = getattr(torch.nn, kind)(size, size, num_layers=2, batch_first=True)
            self.head = torch.nn.Linear(size, classes)

        def forward(self, x):
            out, _ = self.rnn(x)
            return self.head(out[:, -1])
    torch.manual_seed(0)
    return TorchTagger()


def stepper(cell):
    def step(x, y):
        return float(cell(sx.Tensor(x), sx.Tensor(y)).asnumpy())
    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--model", choices=["lstm", "gru", "both"], default="both")
    parser.add_argument("--backend", default="numpy")
    args = parser.parse_args()
    kinds = ["LSTM", "GRU"] if args.model == "both" else [args.model.upper()]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 32, 64)).astype(np.float32)
    y = rng.integers(0, 10, 1).astype(np.int32)
    table = []
    for kind in kinds:
        steppers, scopes = {}, {}
        for impl in ("step", "fused"):
            for mode, label in ((sx.PYNATIVE_MODE, "pynative"), (sx.GRAPH_MODE, "graph")):
                sx.set_seed(0)
                name = f"{label}, {'one primitive' if impl == 'fused' else 'per step (before)'}"
                steppers[name] = stepper(train_cell(Tagger(LAYERS[kind, impl])))
                scopes[name] = (lambda m=mode: sx.context(mode=m, backend=args.backend))
        if torch is not None:
            steppers["pytorch eager"] = torch_step(lambda kind=kind: torch_tagger(kind))
        res = compare({n: (lambda fn=fn: fn(x, y)) for n, fn in steppers.items()},
                      steps=args.steps, blocks=args.blocks, scopes=scopes)
        losses = [res[n].last for n in res if n != "pytorch eager"]
        agree = "ok" if np.allclose(losses, losses[0], rtol=1e-4) else "DIFFER"
        before = res["pynative, per step (before)"]
        for name, t in res.items():
            table.append([f"{kind} 2x64, b1, seq 32", name, t.ms(),
                          ratio(t, res.get("pytorch eager")), ratio(t, before),
                          agree if name.startswith("pynative, one") else ""])
    print(f"backend: {args.backend}")
    print_table(["model", "contender", "per step: median (low-high)", "x torch",
                 "x pynative before", "losses"], table)


if __name__ == "__main__":
    main()
