"""Mixed precision on NumPy, per level: training-step time and the pool's activation peak.

LeNet-5 (the zoo's, 1x8x8 digits, batch 256) and an MLP 784-1024-1024-10 (batch 256), each
trained by ``amp.build_train_network`` at O0, O1, O2, O3 and auto (float16; O0 without loss
scaling). "Peak" is ``get_default_pool().stats().peak`` after ``reset_peak()`` over one
step, minus what was in use before it: the activations and gradients the step holds at
once. Step times are medians over repeats, PyNative and Graph mode.

On NumPy the gain of mixed precision is memory, not speed: the contractions compute in
float32 and round (NumPy has no fast 16-bit matmul), so every level adds casts; what
shrinks is the bytes of the 16-bit activations kept for the backward pass.

    python bench/amp.py [--repeats 10]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import sporeling.expression as sx
from sporeling import amp
from sporeling.expression import nn
from sporeling.expression.optim import SGD
from sporeling.runtime.memory import get_default_pool
from sporeling.zoo.models import LeNet5

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


def measure(model, level, mode, repeats):
    x, y = data(model)
    step = make_step(model, level)
    sx.set_context(mode=mode)
    try:
        for _ in range(2):  # warm up (and compile)
            step(x, y)
        pool = get_default_pool()
        before = pool.stats().in_use
        pool.reset_peak()
        step(x, y)
        peak = pool.stats().peak - before
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            step(x, y)
            times.append(time.perf_counter() - t)
        return statistics.median(times) * 1e3, peak / 2 ** 20
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    print(f"| model | level | PyNative ms | Graph ms | PyNative peak MiB | Graph peak MiB |"
          f" peak vs O0 |")
    print("|---|---|---|---|---|---|---|")
    for model in ("lenet", "mlp"):
        base = None
        for level in LEVELS:
            t_py, p_py = measure(model, level, sx.PYNATIVE_MODE, args.repeats)
            t_gr, p_gr = measure(model, level, sx.GRAPH_MODE, args.repeats)
            base = p_py if base is None else base
            print(f"| {model} | {level} | {t_py:.2f} | {t_gr:.2f} | {p_py:.2f} | {p_gr:.2f} |"
                  f" {p_py / base:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
