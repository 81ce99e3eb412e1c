"""``sporeling science burgers``: train the Burgers PINN and measure it against Cole–Hopf.

Adam, then L-BFGS, on Raissi et al.'s problem (9 tanh layers of 20, 10000 Latin-hypercube
collocation points, 100 initial and 100 boundary points); prints the relative L2 error on
the 256 x 100 reference grid and the wall time, and writes ``burgers.png`` (prediction,
reference, error) and ``burgers.json`` (figures and the error history) into ``--out``.
"""
from __future__ import annotations

import argparse
import json
import os
import time

HELP = "scientific computing: `sporeling science burgers` trains the Burgers PINN"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="science_command", metavar="PROBLEM", required=True)
    b = sub.add_parser("burgers", help="Burgers PINN vs the Cole–Hopf solution",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--adam-steps", type=int, default=500, help="Adam steps (default 500)")
    b.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    b.add_argument("--lbfgs-iters", type=int, default=20000,
                   help="L-BFGS iterations at most (default 20000)")
    b.add_argument("--collocation", type=int, default=10000, help="interior points")
    b.add_argument("--hidden", type=int, default=8, help="hidden layers (default 8)")
    b.add_argument("--width", type=int, default=20, help="units per hidden layer")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--mode", choices=("graph", "pynative"), default="graph")
    b.add_argument("--minutes", type=float, default=None,
                   help="stop L-BFGS after this many minutes of the whole run")
    b.add_argument("--target", type=float, default=None,
                   help="stop as soon as the relative L2 error is at most this")
    b.add_argument("--every", type=int, default=250,
                   help="log the loss and the error every N steps")
    b.add_argument("--out", default="burgers_out", help="folder for burgers.png/json")


class _PrintError:
    """Prints the error each time the monitor measures it."""

    def __init__(self, monitor):
        self.monitor, self.seen = monitor, 0

    def on_step(self, solver, info):
        if len(self.monitor.records) > self.seen:
            self.seen = len(self.monitor.records)
            phase, step, seconds, err = self.monitor.records[-1]
            print(f"{phase} {step:6d} relative L2 {err:.3e} ({seconds:.0f} s)", flush=True)

    def on_phase_end(self, solver, info):
        return None


class _Deadline:
    """Stops the phase once the run has lasted ``minutes``."""

    def __init__(self, start, minutes):
        self.start, self.minutes = start, minutes

    def on_step(self, solver, info):
        return self.minutes is not None and time.perf_counter() - self.start > 60 * self.minutes

    def on_phase_end(self, solver, info):
        return None


def run(args: argparse.Namespace) -> int:
    from .pinn import ErrorMonitor, LossLogger, problems
    from .pinn.plot import plot_burgers

    start, cpu_start = time.perf_counter(), time.process_time()
    layers = [2] + [args.width] * args.hidden + [1]
    problem = problems.burgers(n_collocation=args.collocation, layers=layers, mode=args.mode,
                               seed=args.seed)
    solver = problem.solver
    monitor = ErrorMonitor(problem.error, every=args.every, target=args.target)
    callbacks = [LossLogger(args.every), monitor, _PrintError(monitor),
                 _Deadline(start, args.minutes)]
    reached = None
    if args.adam_steps > 0:
        solver.train_adam(args.adam_steps, args.lr, callbacks)
    adam_seconds = time.perf_counter() - start
    adam_error = problem.error()
    print(f"after Adam ({args.adam_steps} steps, {adam_seconds:.1f} s): relative L2 "
          f"{adam_error:.3e}", flush=True)
    reached = monitor.reached_at
    result = None
    if args.lbfgs_iters > 0 and reached is None:
        result = solver.train_lbfgs(args.lbfgs_iters, callbacks)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    error = problem.error()
    print(f"relative L2 error {error:.3e} (Raissi et al.: 6.7e-04), wall time {seconds:.1f} s"
          f" (CPU {cpu:.1f} s)"
          + (f", L-BFGS {result.nit} iterations: {result.message}" if result else ""))
    os.makedirs(args.out, exist_ok=True)
    png = plot_burgers(problem, os.path.join(args.out, "burgers.png"), error)
    with open(os.path.join(args.out, "burgers.json"), "w") as fh:
        json.dump({"relative_l2": error, "adam_relative_l2": adam_error,
                   "wall_seconds": seconds, "cpu_seconds": cpu, "adam_seconds": adam_seconds,
                   "adam_steps": args.adam_steps,
                   "lbfgs_iterations": None if result is None else int(result.nit),
                   "layers": layers, "collocation": args.collocation, "seed": args.seed,
                   "mode": args.mode, "history": monitor.records}, fh, indent=1)
    print(f"wrote {png}")
    return 0
