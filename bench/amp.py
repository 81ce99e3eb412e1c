"""Mixed precision on NumPy, per level: training-step time and the pool's activation peak.

LeNet-5 (the zoo's, 1x8x8 digits, batch 256) and an MLP 784-1024-1024-10 (batch 256), each
trained by ``amp.build_train_network`` at O0, O1, O2, O3 and auto (float16; O0 without loss
scaling). "Peak" is ``get_default_pool().stats().peak`` after ``reset_peak()`` over one
step, minus what was in use before it: the activations and gradients the step holds at
once. Step times, PyNative and Graph mode, come from ``bench/timing.compare``: blocks of
steps, 0.3 s idle before each, the order alternating; medians and spread over blocks.
"x torch" is against PyTorch eager training the same MLP in float32 (optional; LeNet's
1x8x8 zoo variant has no PyTorch twin here, so its rows show "-").

On NumPy the gain of mixed precision is memory, not speed: the contractions compute in
float32 and round (NumPy has no fast 16-bit matmul), so every level adds casts; what
shrinks is the bytes of the 16-bit activations kept for the backward pass.

    python bench/amp.py [--blocks 5 --steps 3]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling import amp  # noqa: E402
from sporeling.expression import nn  # noqa: E402
from sporeling.expression.optim import SGD  # noqa: E402
from sporeling.runtime.memory import get_default_pool  # noqa: E402
from sporeling.zoo.models import LeNet5  # noqa: E402

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is optional: only a yardstick
    torch = None

LEVELS = ("O0", "O1", "O2", "O3", "auto")
BATCH = 256


def mlp():
    return nn.SequentialCell(nn.Dense(784, 1024), nn.ReLU(), nn.Dense(1024, 1024), nn.ReLU(),
                             nn.Dense(1024, 10))


def data(model):
    rng = np.random.default_rng(0)
    shape = (BATCH, 1, 8, 8) if model == "lenet" else (BATCH, 784)
    return rng.standard_normal(shape).astype(np.float32), \
        rng.integers(0, 10, BATCH).astype(np.int32)


def make_step(model, level):
    sx.set_seed(0)
    net = LeNet5() if model == "lenet" else mlp()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    scaler = None if level == "O0" else amp.DynamicLossScaler(2.0 ** 12, 2.0, 1000)
    step = amp.build_train_network(net, SGD(net.trainable_params(), 0.01), loss,
                                   level=level, loss_scaler=scaler)
    return step.set_train(True)


def step_peak(step, x, y, mode) -> float:
    """MiB the pool holds at most during one step beyond what it held before."""
    with sx.context(mode=mode):
        for _ in range(2):  # warm up (and compile)
            step(x, y)
        pool = get_default_pool()
        before = pool.stats().in_use
        pool.reset_peak()
        step(x, y)
        return (pool.stats().peak - before) / 2 ** 20


def torch_mlp_step():
    net = torch.nn.Sequential(torch.nn.Linear(784, 1024), torch.nn.ReLU(),
                              torch.nn.Linear(1024, 1024), torch.nn.ReLU(),
                              torch.nn.Linear(1024, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(x, y):
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def model_rows(model, blocks, steps):
    x, y = data(model)
    modes = {"pynative": sx.PYNATIVE_MODE, "graph": sx.GRAPH_MODE}
    contenders, scopes, peaks = {}, {}, {}
    for level in LEVELS:
        for mode_name, mode in modes.items():
            name = f"{level} {mode_name}"
            step = make_step(model, level)
            peaks[name] = step_peak(step, x, y, mode)
            contenders[name] = lambda step=step: step(x, y)
            scopes[name] = lambda mode=mode: sx.context(mode=mode)
    if torch is not None and model == "mlp":
        torch_fn = torch_mlp_step()
        tx, ty = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
        contenders["pytorch eager fp32"] = lambda: torch_fn(tx, ty)
    times = compare(contenders, steps=steps, blocks=blocks, scopes=scopes)
    torch_t = times.get("pytorch eager fp32")
    rows = []
    for name, t in times.items():
        peak = peaks.get(name)
        base = peaks["O0 " + name.split()[-1]] if peak is not None else None
        rows.append([model, name, t.ms(), ratio(t, torch_t),
                     "-" if peak is None else f"{peak:.2f}",
                     "-" if peak is None else f"{peak / base:.2f}x"])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per contender")
    parser.add_argument("--steps", type=int, default=3, help="training steps per block")
    parser.add_argument("--models", nargs="+", default=["lenet", "mlp"],
                        choices=["lenet", "mlp"])
    args = parser.parse_args(argv)
    rows = []
    for model in args.models:
        rows += model_rows(model, args.blocks, args.steps)
    print_table(["model", "level and mode", "per step: median (low-high)", "x torch",
                 "peak MiB", "peak vs O0 (same mode)"], rows)


if __name__ == "__main__":
    main()
