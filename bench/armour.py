"""Armour benchmarks: one table, one row per measured thing.

Rows (each a function registered with ``@row``; add yours the same way -- it returns a dict
whose keys are the table's columns, missing ones print as "-"):

* ``PGD-40 LeNet b64`` -- PGD L∞ (ε 0.1, step 0.01, 40 iterations, random start) on the
  digits LeNet (1×8×8 inputs), one batch of 64: time per attack, per iteration, and the
  accuracy left, PyNative and Graph mode.
* ``DP-SGD step MLP b256`` -- one DP-SGD step (``sporeling.armour.privacy.DPOptimizer``)
  on the digits MLP, batch 256, and its ratio to the plain ``TrainOneStepCell`` step.

Times are medians over ``--repeats`` after one warm-up (Graph mode compiles there); the
process sleeps ``--idle`` seconds between timed blocks so one block's load does not spill
into the next on a shared machine.

    python bench/armour.py [--repeats 3] [--idle 1.0] [--only PGD]
"""
from __future__ import annotations

import argparse
import statistics
import time

import sporeling.expression as sx

COLUMNS = ("row", "mode", "time (ms)", "per iter (ms)", "ratio", "accuracy", "note")
ROWS: list = []


def row(fn):
    """Register a benchmark row: ``fn(args) -> list of dicts`` keyed by ``COLUMNS``."""
    ROWS.append(fn)
    return fn


def timed(fn, repeats: int, idle: float) -> float:
    """Median seconds of ``fn()`` over ``repeats`` after one warm-up, idle before each."""
    fn()
    times = []
    for _ in range(repeats):
        time.sleep(idle)
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


@row
def pgd40_lenet(args):
    from sporeling.armour._digits import accuracy, shared_digits, shared_lenet
    from sporeling.armour.adv import ProjectedGradientDescent

    data, net = shared_digits(), shared_lenet()
    x, y = data.images("test")[:64], data.y_test[:64]
    out = []
    for mode, name in ((sx.PYNATIVE_MODE, "pynative"), (sx.GRAPH_MODE, "graph")):
        sx.set_context(mode=mode)
        attack = ProjectedGradientDescent(net, eps=0.1, eps_iter=0.01, nb_iter=40, seed=0)
        holder = {}
        seconds = timed(lambda: holder.update(adv=attack.generate(x, y)), args.repeats,
                        args.idle)
        out.append({"row": "PGD-40 LeNet b64", "mode": name, "time (ms)": seconds * 1e3,
                    "per iter (ms)": seconds * 1e3 / 40,
                    "accuracy": f"{accuracy(net, x, y):.3f} → {accuracy(net, holder['adv'], y):.3f}"})
    sx.set_context(mode=sx.PYNATIVE_MODE)
    return out


@row
def dp_sgd_step(args):
    """DP-SGD step (vmap per-sample grads, clip, noise, SGD) against the plain step
    (``TrainOneStepCell``) on the digits MLP, batch 256; target ratio <= 3x."""
    import numpy as np

    from sporeling.armour._digits import make_mlp, shared_digits
    from sporeling.armour.privacy import DPOptimizer

    data = shared_digits()
    x, y = data.x_train[:256], data.y_train[:256]
    loss = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    out = []
    for mode, name in ((sx.PYNATIVE_MODE, "pynative"), (sx.GRAPH_MODE, "graph")):
        sx.set_context(mode=mode)
        net = make_mlp()
        plain = sx.nn.TrainOneStepCell(sx.nn.WithLossCell(net, loss),
                                       sx.optim.SGD(net.trainable_params(), 0.1))
        xt, yt = sx.Tensor(x), sx.Tensor(y)
        t_plain = timed(lambda: plain(xt, yt), args.repeats, args.idle)
        dp_net = make_mlp()
        dp = DPOptimizer(sx.optim.SGD(dp_net.trainable_params(), 0.1), dp_net, loss,
                         noise_multiplier=1.1, max_grad_norm=1.0, expected_batch_size=256,
                         seed=0)
        t_dp = timed(lambda: dp.step(x, np.asarray(y)), args.repeats, args.idle)
        out.append({"row": "DP-SGD step MLP b256", "mode": name, "time (ms)": t_dp * 1e3,
                    "ratio": t_dp / t_plain, "note": f"plain step {t_plain * 1e3:.2f} ms"})
    sx.set_context(mode=sx.PYNATIVE_MODE)
    return out


def _cell(value):
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--idle", type=float, default=1.0)
    parser.add_argument("--only", default="", help="run rows whose function name has this")
    args = parser.parse_args(argv)
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    for fn in ROWS:
        if args.only.lower() not in fn.__name__.lower():
            continue
        for r in fn(args):
            lines.append("| " + " | ".join(_cell(r.get(c)) for c in COLUMNS) + " |")
        time.sleep(args.idle)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
