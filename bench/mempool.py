"""One training step of an MLP through the memory pool vs plain NumPy allocation.

Replays PyNative's allocation pattern for MLP 784-512-512-10, batch 128, float32:
forward keeps each layer's matmul output until its activation ran and the activation until
its backward user ran; backward allocates gradients and frees every buffer the moment its
last user has run (MindSpore's ref-count release); then parameter gradients and an SGD
update. Both allocators run the same real NumPy computation, so the times are honest.

    python bench/mempool.py [--blocks 7 --steps 20] [--block-size 32MB]

Timed with ``bench/timing.compare`` (blocks of steps, 0.3 s idle before each, the order
alternating; medians and spread over blocks). No "x torch": the contenders differ only in
the allocator under one NumPy computation, which PyTorch cannot share; ``np.empty`` is the
yardstick.

"peak" is the most bytes held by live buffers: for NumPy, the largest sum of the live
arrays' nbytes (tracked the same way); for the pool, its own statistic (64-byte aligned).
The third row holds every buffer until the end of the step, to show what the early release
buys.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

from sporeling.core import format_size  # noqa: E402
from sporeling.runtime import MemoryPool  # noqa: E402

LAYERS, BATCH, LR = (784, 512, 512, 10), 128, 0.01


class NumpyAlloc:
    """``np.empty`` with the bookkeeping the pool does for itself: live bytes and peak."""

    name = "numpy (np.empty)"

    def __init__(self):
        self.live, self.in_use, self.peak = {}, 0, 0

    def alloc(self, shape, dtype=np.float32, persistent=False):
        a = np.empty(shape, dtype)
        self.live[id(a)] = a.nbytes
        self.in_use += a.nbytes
        self.peak = max(self.peak, self.in_use)
        return a

    def free(self, a):
        self.in_use -= self.live.pop(id(a))

    def step_peak(self):
        peak, self.peak = self.peak, self.in_use
        return peak

    def reserved(self):
        return None


class PoolAlloc:
    """The memory pool; ``eager=False`` defers every free to the end of the step."""

    def __init__(self, block_size, eager=True):
        self.pool, self.eager, self.deferred = MemoryPool(block_size, name="bench"), eager, []
        self.name = "sporeling pool" if eager else "pool, free at step end"

    def alloc(self, shape, dtype=np.float32, persistent=False):
        return self.pool.allocate(shape, dtype, persistent=persistent)

    def free(self, a):
        if self.eager:
            self.pool.free(a)
        else:
            self.deferred.append(a)

    def end_step(self):
        for a in self.deferred:
            self.pool.free(a)
        self.deferred.clear()

    def step_peak(self):
        peak = self.pool.stats().peak
        self.pool.reset_peak()
        return peak

    def reserved(self):
        return self.pool.stats().reserved


def init_params(m, rng):
    params = []
    for fan_in, fan_out in zip(LAYERS, LAYERS[1:]):
        w = m.alloc((fan_in, fan_out), persistent=True)
        w[...] = rng.standard_normal((fan_in, fan_out), np.float32) * np.sqrt(2 / fan_in)
        b = m.alloc((fan_out,), persistent=True)
        b[...] = 0
        params.append((w, b))
    return params


def step(m, params, batch, labels):
    """Forward, backward and SGD; every buffer is freed right after its last user."""
    x = m.alloc(batch.shape, persistent=True)         # a graph input
    np.copyto(x, batch)
    acts = [x]
    for i, (w, b) in enumerate(params):
        z = m.alloc((BATCH, w.shape[1]))
        np.matmul(acts[-1], w, out=z)
        np.add(z, b, out=z)
        if i == len(params) - 1:
            break
        a = m.alloc(z.shape)
        np.maximum(z, 0, out=a)                       # ReLU's backward uses its output
        m.free(z)
        acts.append(a)
    # softmax cross-entropy: probabilities are what backward needs
    probs = m.alloc(z.shape)
    np.subtract(z, z.max(axis=1, keepdims=True), out=probs)
    np.exp(probs, out=probs)
    np.divide(probs, probs.sum(axis=1, keepdims=True), out=probs)
    m.free(z)
    loss = -np.log(probs[np.arange(BATCH), labels]).mean()
    dz = m.alloc(probs.shape)
    np.copyto(dz, probs)
    dz[np.arange(BATCH), labels] -= 1
    np.divide(dz, BATCH, out=dz)
    m.free(probs)
    grads = []
    for i in reversed(range(len(params))):
        w, b = params[i]
        a_in = acts[i]
        dw = m.alloc(w.shape)
        np.matmul(a_in.T, dz, out=dw)
        db = m.alloc(b.shape)
        np.sum(dz, axis=0, out=db)
        grads.append((dw, db))
        if i > 0:
            da = m.alloc(a_in.shape)
            np.matmul(dz, w.T, out=da)
            m.free(dz)
            mask = m.alloc(a_in.shape, np.bool_)
            np.greater(a_in, 0, out=mask)
            m.free(a_in)                              # its last backward user has run
            dz = m.alloc(a_in.shape)
            np.multiply(da, mask, out=dz)
            m.free(da)
            m.free(mask)
        else:
            m.free(dz)
            m.free(a_in)                              # the input x
    for (w, b), (dw, db) in zip(params, reversed(grads)):
        for p, g in ((w, dw), (b, db)):
            np.multiply(g, LR, out=g)
            np.subtract(p, g, out=p)
            m.free(g)
    if hasattr(m, "end_step"):
        m.end_step()
    return float(loss)


def measure(runs, steps, blocks, seed=0):
    """Per allocator: step timing, the peak of one step, reserved bytes; all take the same
    number of steps from the same start, so their last losses must agree."""
    states = []
    for m in runs:
        rng = np.random.default_rng(seed)
        params = init_params(m, rng)
        batch = rng.standard_normal((BATCH, LAYERS[0]), np.float32)
        states.append((params, batch, rng.integers(0, LAYERS[-1], BATCH)))
    peaks = []
    for m, state in zip(runs, states):
        for _ in range(3):                            # warm-up: blocks, BLAS threads
            step(m, *state)
        m.step_peak()
        step(m, *state)
        peaks.append(m.step_peak())
    times = compare({m.name: (lambda m=m, state=state: step(m, *state))
                     for m, state in zip(runs, states)}, steps=steps, blocks=blocks)
    return [(times[m.name], peak, m.reserved()) for m, peak in zip(runs, peaks)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=7, help="timed blocks per allocator")
    ap.add_argument("--steps", type=int, default=20, help="training steps per block")
    ap.add_argument("--block-size", default="32MB")
    args = ap.parse_args(argv)
    runs = [NumpyAlloc(), PoolAlloc(args.block_size), PoolAlloc(args.block_size, eager=False)]
    results = measure(runs, args.steps, args.blocks)
    losses = [t.last for t, _, _ in results]
    assert np.allclose(losses, losses[0]), f"runs diverged: {losses}"
    base_t, base_peak = results[0][0], results[0][1]
    print(f"MLP {'-'.join(map(str, LAYERS))}, batch {BATCH}, float32, {args.blocks} blocks "
          f"of {args.steps} steps, pool blocks of {args.block_size}")
    print_table(["allocator", "per step: median (low-high)", "x numpy", "peak", "x numpy",
                 "reserved"],
                [[m.name, t.ms(), ratio(t, base_t), format_size(peak),
                  f"{peak / base_peak:.2f}x", format_size(reserved) if reserved else "-"]
                 for m, (t, peak, reserved) in zip(runs, results)])


if __name__ == "__main__":
    main()
