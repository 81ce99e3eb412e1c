"""Armour benchmarks: one table, one row per measured thing.

Rows (each a function registered with ``@row``; add yours the same way -- it returns a dict
whose keys are the table's columns, missing ones print as "-"):

* ``PGD-40 LeNet b64`` -- PGD L∞ (ε 0.1, step 0.01, 40 iterations, random start) on the
  digits LeNet (1×8×8 inputs), one batch of 64: time per attack, per iteration, and the
  accuracy left, PyNative and Graph mode.
* ``DP-SGD step MLP b256`` -- one DP-SGD step (``sporeling.armour.privacy.DPOptimizer``)
  on the digits MLP, batch 256, and its ratio to the plain ``TrainOneStepCell`` step
  (timed in both orders).
* ``Opacus DP-SGD step MLP b256`` -- Opacus's step on the same MLP (same σ, clip, lr) and
  Sporeling's ratio to it; a note instead when torch or opacus is not installed.

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


def both_orders(fns: dict, repeats: int, idle: float) -> dict:
    """``{name: (median s, spread s)}``: a block of ``repeats`` timed calls of every fn in
    the given order, then again in reverse (so neither always runs first), idle before each
    block, after one warm-up each; spread is max - min over both blocks."""
    times = {name: [] for name in fns}
    for fn in fns.values():
        fn()
    for names in (list(fns), list(fns)[::-1]):
        for name in names:
            time.sleep(idle)
            for _ in range(repeats):
                t = time.perf_counter()
                fns[name]()
                times[name].append(time.perf_counter() - t)
    return {n: (statistics.median(ts), max(ts) - min(ts)) for n, ts in times.items()}


def _opacus_step(x, y):
    """One Opacus DP-SGD step (GradSampleModule + its DPOptimizer, same σ, C, lr) on a
    torch copy of the digits MLP; ``None`` and a note when torch or opacus is absent."""
    try:
        import torch
        from opacus import GradSampleModule
        from opacus.optimizers import DPOptimizer as OpacusDP
    except ImportError as exc:
        return None, f"Opacus skipped ({exc.name} not installed)"
    # one thread: torch's OpenMP pool and NumPy's BLAS threads spin against each other on
    # a small machine (Opacus measured 15x slower in this process with torch's default)
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = GradSampleModule(torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(),
                                                 torch.nn.Linear(32, 10)))
    opt = OpacusDP(torch.optim.SGD(model.parameters(), lr=0.1), noise_multiplier=1.1,
                   max_grad_norm=1.0, expected_batch_size=256)
    xt, yt = torch.as_tensor(x), torch.as_tensor(y, dtype=torch.long)

    xt.requires_grad_(False)

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(xt), yt).backward()
        opt.step()
    return step, f"torch {torch.__version__}, {torch.get_num_threads()} threads"


@row
def dp_sgd_step(args):
    """DP-SGD step (closed-form per-sample grads + ghost clipping for this Dense-only net,
    noise, SGD) against the plain step (``TrainOneStepCell``) on the digits MLP, batch 256
    (target ratio <= 3x), and against Opacus on the same MLP (target <= 1.0x)."""
    import numpy as np

    from sporeling.armour._digits import make_mlp, shared_digits
    from sporeling.armour.privacy import DPOptimizer

    data = shared_digits()
    x, y = data.x_train[:256], np.asarray(data.y_train[:256])
    loss = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    out, dp_ms = [], {}
    for mode, name in ((sx.PYNATIVE_MODE, "pynative"), (sx.GRAPH_MODE, "graph")):
        sx.set_context(mode=mode)
        net = make_mlp()
        plain = sx.nn.TrainOneStepCell(sx.nn.WithLossCell(net, loss),
                                       sx.optim.SGD(net.trainable_params(), 0.1))
        xt, yt = sx.Tensor(x), sx.Tensor(y)
        dp_net = make_mlp()
        dp = DPOptimizer(sx.optim.SGD(dp_net.trainable_params(), 0.1), dp_net, loss,
                         noise_multiplier=1.1, max_grad_norm=1.0, expected_batch_size=256,
                         seed=0)
        t = both_orders({"plain": lambda: plain(xt, yt), "dp": lambda: dp.step(x, y)},
                        args.repeats, args.idle)
        dp_ms[name] = t["dp"][0] * 1e3
        out.append({"row": "DP-SGD step MLP b256", "mode": name, "time (ms)": dp_ms[name],
                    "ratio": t["dp"][0] / t["plain"][0],
                    "note": f"spread {t['dp'][1] * 1e3:.2f} ms; plain step "
                            f"{t['plain'][0] * 1e3:.2f} ms (spread {t['plain'][1] * 1e3:.2f})"})
    sx.set_context(mode=sx.PYNATIVE_MODE)
    step, note = _opacus_step(x, y)
    if step is None:
        out.append({"row": "Opacus DP-SGD step MLP b256", "note": note})
        return out
    t = both_orders({"opacus": step}, args.repeats, args.idle)["opacus"]
    best = min(dp_ms.values())
    out.append({"row": "Opacus DP-SGD step MLP b256", "mode": "torch", "time (ms)": t[0] * 1e3,
                "ratio": best / (t[0] * 1e3),
                "note": f"ratio = Sporeling's best DP step / Opacus's; spread "
                        f"{t[1] * 1e3:.2f} ms; {note}"})
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
