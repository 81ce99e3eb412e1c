"""PINN Burgers (issue 15): time per Adam step, PyNative vs Graph mode vs the same PINN in
PyTorch (when installed), and time to a relative L2 error against the Cole–Hopf solution.

    python bench/science.py [--collocation 2000] [--hidden 4] [--target 1e-1] [--budget 60]

Every contender has the same network (tanh MLP, float64, the same initial weights), the same
points and the same loss: ``mean(r^2)`` of ``u_t + u u_x - nu u_xx`` plus the initial and
boundary terms; BLAS and PyTorch use one thread (thin matrices: threads only add
synchronisation). Step times are blocks of steps after >= 0.3 s idle, contenders alternating
order (``bench/timing.py``); the table gives the median per step and the lowest and highest
block. Time to target: Adam (``--adam`` steps, lr 1e-3) then L-BFGS, the error checked every
25 iterations on Raissi's 256 x 100 grid; wall and CPU seconds, or the best error when the
budget (CPU seconds) runs out.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(__file__))
from timing import compare  # noqa: E402

from sporeling.science.pinn import ErrorMonitor, problems  # noqa: E402
from sporeling.science.reference import NU  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is only a yardstick
    torch = None


def _torch_pinn(problem):
    """The same PINN in PyTorch: returns (adam_step, run_to_target)."""
    torch.set_num_threads(1)
    solver = problem.solver
    f64 = torch.float64
    W = [torch.tensor(p.asnumpy().copy(), dtype=f64, requires_grad=True)
         for p in solver.net.params]
    scale = torch.tensor(solver.net._scale.asnumpy(), dtype=f64)
    shift = torch.tensor(solver.net._shift.asnumpy(), dtype=f64)
    X_f = torch.tensor(solver.collocation, dtype=f64)
    conds = [(torch.tensor(c.points, dtype=f64), torch.tensor(c.values, dtype=f64))
             for c in solver.conditions]
    grid = torch.tensor(problem.points, dtype=f64)
    n = len(W) // 2

    def net(X):
        h = X * scale + shift
        for k in range(n):
            h = h @ W[2 * k] + W[2 * k + 1]
            if k < n - 1:
                h = torch.tanh(h)
        return h

    def loss():
        X = X_f.clone().requires_grad_(True)
        u = net(X)
        g = torch.autograd.grad(u.sum(), X, create_graph=True)[0]
        u_x, u_t = g[:, :1], g[:, 1:]
        u_xx = torch.autograd.grad(u_x.sum(), X, create_graph=True)[0][:, :1]
        r = u_t + u * u_x - NU * u_xx
        total = (r * r).mean()
        for Xc, Vc in conds:
            total = total + ((net(Xc) - Vc) ** 2).mean()
        return total

    adam = torch.optim.Adam(W, lr=1e-3)

    def adam_step():
        adam.zero_grad()
        value = loss()
        value.backward()
        adam.step()
        return value

    def error():
        with torch.no_grad():
            pred = net(grid)[:, 0].numpy()
        return problems.relative_l2(pred, problem.reference)

    def to_target(adam_steps, target, budget):
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(adam_steps):
            adam_step()
        best = error()
        lbfgs = torch.optim.LBFGS(W, lr=1.0, max_iter=25, history_size=50,
                                  tolerance_grad=1e-9, tolerance_change=0.0,
                                  line_search_fn="strong_wolfe")

        def closure():
            lbfgs.zero_grad()
            value = loss()
            value.backward()
            return value

        while best > target and time.process_time() - cpu < budget:
            lbfgs.step(closure)  # 25 iterations per call, then the error
            best = min(best, error())
        return best, time.perf_counter() - start, time.process_time() - cpu

    return adam_step, to_target


def _sporeling_to_target(problem, adam_steps, target, budget):
    solver = problem.solver
    start, cpu = time.perf_counter(), time.process_time()
    solver.train_adam(adam_steps, 1e-3)
    monitor = ErrorMonitor(problem.error, every=25, target=target)

    class Budget:
        def on_step(self, s, info):
            return time.process_time() - cpu > budget

        def on_phase_end(self, s, info):
            return None

    best = problem.error()
    if best > target:
        solver.train_lbfgs(100000, [monitor, Budget()])
        best = min([best] + [r[3] for r in monitor.records] + [problem.error()])
    return best, time.perf_counter() - start, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collocation", type=int, default=2000)
    parser.add_argument("--hidden", type=int, default=4)
    parser.add_argument("--steps", type=int, default=5, help="Adam steps per timed block")
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument("--adam", type=int, default=200, help="Adam steps before L-BFGS")
    parser.add_argument("--target", type=float, default=1e-1)
    parser.add_argument("--budget", type=float, default=60.0,
                        help="CPU seconds per contender (a shared machine's wall clock is noise)")
    args = parser.parse_args()
    layers = [2] + [20] * args.hidden + [1]

    def make(mode):
        return problems.burgers(n_collocation=args.collocation, layers=layers, mode=mode)

    steps = {"sporeling PyNative": make("pynative").solver.adam_step_fn(1e-3),
             "sporeling Graph": make("graph").solver.adam_step_fn(1e-3)}
    if torch is not None:
        steps["PyTorch eager"] = _torch_pinn(make("graph"))[0]
    with threadpool_limits(limits=1, user_api="blas"):
        timings = compare(steps, steps=args.steps, blocks=args.blocks)
    print(f"PINN Burgers, {args.collocation} collocation points, MLP {layers}, float64, "
          f"1 thread")
    print(f"| contender | Adam step, median (lowest-highest block) | vs Graph | "
          f"time to rel. L2 {args.target:g}: wall / CPU s |")
    print("| --- | --- | --- | --- |")
    graph = timings["sporeling Graph"]
    for name, t in timings.items():
        time.sleep(0.3)
        problem = make("graph" if "Graph" in name else "pynative")
        if name.startswith("PyTorch"):
            best, wall, cpu = _torch_pinn(problem)[1](args.adam, args.target, args.budget)
        else:
            with threadpool_limits(limits=1, user_api="blas"):
                best, wall, cpu = _sporeling_to_target(problem, args.adam, args.target,
                                                       args.budget)
        reached = (f"{wall:.1f} / {cpu:.1f}" if best <= args.target else
                   f"not in {args.budget:g} CPU s (best {best:.2e})")
        print(f"| {name} | {t.ms()} | {t.median / graph.median:.2f}x | {reached} |",
              flush=True)


if __name__ == "__main__":
    main()
