"""Measure the budget: env steps and wall time for DQN and PPO (default settings) to reach
a mean return >= 475 over 100 evaluation episodes on CartPole-v1, for fixed seeds; draw
every run into one curve.

    python plugins/rl/examples/budget.py --seeds 0 1 2 --out plugins/rl/docs
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sporeling.rl import plot_curves, train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algos", nargs="+", default=["ppo", "dqn"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--eval-every", type=int, default=2048)
    parser.add_argument("--out", default="rl_budget")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    histories, rows = [], []
    for algo in args.algos:
        for seed in args.seeds:
            start = time.perf_counter()
            _, h = train(algo, "CartPole-v1", args.steps, seed, eval_every=args.eval_every,
                         log=lambda line: print(line, flush=True))
            rows.append({**h.summary(), "wall_seconds": time.perf_counter() - start})
            histories.append(h)
            print(json.dumps(rows[-1]), flush=True)
            # after every run, so an interrupted measurement keeps what it has
            (out / "budget.json").write_text(json.dumps(rows, indent=2) + "\n")
            (out / "histories.json").write_text(json.dumps([x.__dict__ for x in histories]))
            plot_curves(histories, out / "cartpole_curves.png")
    print(f"{'algo':5} {'seed':>4} {'reached at (env steps)':>22} {'wall s':>7} {'CPU s':>7} "
          f"{'final mean (100 ep)':>19}")
    for r in rows:
        reached = r["reached_at"] if r["reached_at"] is not None else "not reached"
        wall, cpu = (f"{r[k]:.1f}" if r[k] is not None else "-"
                     for k in ("reached_seconds", "reached_cpu_seconds"))
        print(f"{r['algo']:5} {r['seed']:>4} {reached:>22} {wall:>7} {cpu:>7} "
              f"{r['final_mean']:>19.1f}")


if __name__ == "__main__":
    main()
