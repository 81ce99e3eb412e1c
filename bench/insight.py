"""Profiler overhead on a training step: MLP 784-512-512-10, batch 128, SGD with momentum.

For PyNative and Graph mode, blocks of ``--steps`` training steps run with the profiler off
and on (a fresh ``sporeling.insight.Profiler`` per block, memory timeline included, default
sampling), taking turns -- the order alternates every repeat -- with 0.3 s idle before each
timed block. The overhead is the median over repeats of the paired ratio on/off (spread:
25th-75th percentile). PyTorch runs the same MLP step with ``torch.profiler`` off and on
(CPU activities, memory profiling) in the same way, when installed.

The off-cost (what the runtime's observation points cost with no profiler) is estimated
from the number of call-site checks a step makes (one per eager kernel, one per Graph-mode
program run, one per pool allocation and free; counted with the profiler on) times the
measured cost of one check (``if listeners:`` on an empty module-level list).

    python bench/insight.py [--repeats 12] [--steps 5] [--clock wall|cpu] [--threads 2]

``--clock cpu`` times with the process's CPU time instead of the wall clock: on a machine
shared with other jobs, waiting for a core then does not count (run it with
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 ... --threads 1`` so that no BLAS thread spins).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from reference.mlp import NumpyMLP  # noqa: E402
from train_step import LR, MOMENTUM, sporeling_mlp  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.expression import nn  # noqa: E402
from sporeling.insight import Profiler  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is optional: only a comparison
    torch = None

IDLE_S = 0.3
CLOCK = [time.perf_counter]  # or time.process_time (--clock cpu)


def sporeling_step(mode):
    ref = NumpyMLP(lr=LR, momentum=MOMENTUM)
    net = sporeling_mlp(ref)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.SGD(net.trainable_params(), learning_rate=LR,
                                      momentum=MOMENTUM)).set_train()

    def step(x, y):
        with sx.context(mode=mode):
            return cell(x, y)
    return step


def torch_step():
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(x, y):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


class SporelingProfiling:
    def __init__(self):
        self.last = None

    def __enter__(self):
        self.last = Profiler(output_path="unused")
        return self

    def __exit__(self, *exc):
        self.last.stop()


class TorchProfiling:
    def __enter__(self):
        from torch.profiler import ProfilerActivity, profile
        self.prof = profile(activities=[ProfilerActivity.CPU], profile_memory=True)
        self.prof.__enter__()
        return self

    def __exit__(self, *exc):
        self.prof.__exit__(*exc)


def timed_block(step, x, y, steps, profiling=None) -> float:
    time.sleep(IDLE_S)
    clock = CLOCK[0]
    start = clock()
    if profiling is None:
        for _ in range(steps):
            step(x, y)
    else:
        with profiling:
            for _ in range(steps):
                step(x, y)
    return (clock() - start) / steps


def race(step, x, y, steps, repeats, profiling) -> dict:
    for _ in range(3):  # warm-up: compile, and the Graph program's timed twin
        step(x, y)
    with profiling:
        step(x, y)
    off, on = [], []
    for r in range(repeats):
        order = ("off", "on") if r % 2 == 0 else ("on", "off")
        for which in order:
            if which == "off":
                off.append(timed_block(step, x, y, steps))
            else:
                on.append(timed_block(step, x, y, steps, profiling))
    ratios = [b / a for a, b in zip(off, on)]
    return {"off": off, "on": on, "ratios": ratios}


def quartiles(values) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


_EMPTY: list = []


def _checked():
    if _EMPTY:
        pass


def _unchecked():
    pass


def check_cost_ns() -> float:
    """One ``if listeners:`` on an empty module-level list, in ns (best of 5)."""
    n = 200_000
    with_check = min(timeit.repeat(_checked, number=n, repeat=5))
    without = min(timeit.repeat(_unchecked, number=n, repeat=5))
    return max(with_check - without, 0.0) / n * 1e9


def checks_per_step(step, x, y) -> tuple[int, int]:
    """(kernel-site checks, memory-site checks) one step makes, counted by a profiler."""
    with Profiler(output_path="unused") as prof:
        step(x, y)
    programs = [p for *_, p, _ in prof.kernels]
    kernel_sites = programs.count(None) + len(set(programs) - {None})  # eager + program runs
    return kernel_sites, len(prof.memory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=12)
    parser.add_argument("--steps", type=int, default=5, help="steps per timed block")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads")
    args = parser.parse_args()
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if torch is not None:
        torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128).astype(np.int32)
    check_ns = check_cost_ns()
    rows = []
    for label, mode in (("Sporeling PyNative", sx.PYNATIVE_MODE),
                        ("Sporeling Graph", sx.GRAPH_MODE)):
        step = sporeling_step(mode)
        xt, yt = sx.Tensor(x), sx.Tensor(y)
        result = race(step, xt, yt, args.steps, args.repeats, SporelingProfiling())
        kernel_sites, memory_sites = checks_per_step(step, xt, yt)
        result["off_cost_us"] = (kernel_sites + memory_sites) * check_ns / 1000.0
        result["sites"] = (kernel_sites, memory_sites)
        rows.append((label, result))
    if torch is not None:
        step = torch_step()
        rows.append(("PyTorch (torch.profiler)",
                     race(step, torch.from_numpy(x), torch.from_numpy(y).long(), args.steps,
                          args.repeats, TorchProfiling())))
    print(f"MLP 784-512-512-10, batch 128, SGD momentum; {args.repeats} repeats x "
          f"{args.steps} steps per block, order alternating, {IDLE_S}s idle before each "
          f"block; {args.clock} clock")
    print(f"{'contender':26} {'off ms (p25-p75)':>22} {'on ms (p25-p75)':>22} "
          f"{'overhead (p25-p75)':>22} {'off-cost est.':>16}")
    print("-" * 112)
    for label, r in rows:
        off, on, ratio = quartiles(r["off"]), quartiles(r["on"]), quartiles(r["ratios"])
        cost = ""
        if "off_cost_us" in r:
            cost = f"{r['off_cost_us']:.2f}us {r['off_cost_us'] / 1e6 / off[1]:.3%}"
        print(f"{label:26} {off[1] * 1e3:8.2f} ({off[0] * 1e3:.2f}-{off[2] * 1e3:.2f})"
              f" {on[1] * 1e3:8.2f} ({on[0] * 1e3:.2f}-{on[2] * 1e3:.2f})"
              f" {ratio[1] - 1:+8.1%} ({ratio[0] - 1:+.1%} {ratio[2] - 1:+.1%})"
              f" {cost:>16}")
    print()
    print(f"one observation-point check with no profiler: {check_ns:.1f} ns; checks per step: "
          + ", ".join(f"{label}: {r['sites'][0]} kernel + {r['sites'][1]} memory"
                      for label, r in rows if "sites" in r))


if __name__ == "__main__":
    main()
