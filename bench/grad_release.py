"""What PyNative ``grad``'s ref-count release saves: the memory pool's peak for one MLP
training step (forward + backward), with release on and off.

With release on (the default), ``grad`` frees each saved forward value the moment the last
backward rule that reads it has run; with ``set_context(grad_release=False)`` every saved
value lives until the backward pass ends. Both runs compute the same gradients (checked).

    python bench/grad_release.py [--layers 6] [--width 1024] [--batch 256]

"peak" is ``get_default_pool().stats().peak`` after ``reset_peak()`` (parameters and the
input batch, already allocated, are part of it); "step" subtracts what was in use before
the step; "gradients" is what the step returns (the weight gradients), so "step" minus
"gradients" is what backward held beyond its results. The peak comes at the end of
backward, when every weight gradient exists: with release the activations are gone by
then, without it they are all still held.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import sporeling.expression as sx
from sporeling.core import format_size
from sporeling.runtime import get_default_pool


def make_mlp(layers: int, width: int, seed: int = 0):
    """``layers`` Dense layers of ``width`` units (ReLU between), as Parameters."""
    rng = np.random.default_rng(seed)
    params = []
    for i in range(layers):
        w = rng.standard_normal((width, width), np.float32) * np.float32(1 / np.sqrt(width))
        params += [sx.Parameter(w, name=f"w{i}"), sx.Parameter(np.zeros(width, np.float32),
                                                                name=f"b{i}")]
    return params


def loss_fn(params, x):
    h = x
    for i in range(0, len(params), 2):
        h = sx.ops.add(sx.ops.matmul(h, params[i]), params[i + 1])
        if i + 2 < len(params):
            h = sx.ops.relu(h)
    return (h * h).mean()


def step_peak(params, x, release: bool) -> tuple[int, int, float, list]:
    """Peak and baseline bytes of the pool, seconds, gradients of one training step."""
    pool = get_default_pool()
    step = sx.value_and_grad(lambda x: loss_fn(params, x), None, params)
    with sx.context(grad_release=release):
        step(x)  # warm up: blocks reserved, kernels looked up
        base = pool.stats().in_use
        pool.reset_peak()
        start = time.perf_counter()
        _, grads = step(x)
        seconds = time.perf_counter() - start
        peak = pool.stats().peak
    return peak, base, seconds, [g.asnumpy().copy() for g in grads]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args(argv)
    params = make_mlp(args.layers, args.width)
    x = sx.Tensor(np.random.default_rng(1).standard_normal((args.batch, args.width),
                                                           np.float32))
    rows = [(name, *step_peak(params, x, release))
            for name, release in (("release on", True), ("release off", False))]
    for (_, _, _, _, g_on), (_, _, _, _, g_off) in [(rows[0], rows[1])]:
        assert all(np.array_equal(a, b) for a, b in zip(g_on, g_off)), "gradients differ"
    print(f"MLP {args.layers} x {args.width}, batch {args.batch}, float32: one step "
          f"(forward + backward), memory-pool peak")
    head = (f"{'':<13}{'peak':>12}{'step':>12}{'gradients':>12}{'beyond':>12}{'time':>10}"
            f"{'vs off':>9}")
    print(head + "\n" + "-" * len(head))
    off = rows[1][1] - rows[1][2]
    for name, peak, base, seconds, grads in rows:
        held = sum(g.nbytes for g in grads)
        print(f"{name:<13}{format_size(peak):>12}{format_size(peak - base):>12}"
              f"{format_size(held):>12}{format_size(peak - base - held):>12}"
              f"{seconds * 1e3:>8.1f}ms{(peak - base) / off:>9.2f}")


if __name__ == "__main__":
    main()
