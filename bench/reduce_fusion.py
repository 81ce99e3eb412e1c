"""Graph mode on the TVM backend with and without its ``fuse_reductions`` pass (sums and
means fused with the chains they reduce), in one process: the same model compiled twice
(``tvm_fuse_reductions`` True, then False), blocks of steps alternating, 0.3 s idle and
three untimed steps before each.

    python bench/reduce_fusion.py [--workloads resnet20 lenet] [--rounds 8] [--steps 10]

The workloads are ``peers.py``'s, through the MindSpore facade (``peers_mindspore.py``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("PEERS_MINDSPORE", "sporeling")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", nargs="+", default=["resnet20", "lenet"])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    import peers_mindspore as contender
    from peers_workloads import WORKLOADS

    from sporeling.core import set_context
    contender.start(mode="graph", backend="tvm", threads=2)
    print(f"{'workload':10s} {'fused':>22s} {'unfused':>22s}  (ms per step: median, "
          f"lowest-highest of {args.rounds} blocks of {args.steps})")
    for name in args.workloads:
        workload = WORKLOADS[name]
        steps = {}
        for fused in (True, False):
            set_context(tvm_fuse_reductions=fused)
            step, _ = contender.build(workload, workload.weights(), workload.data())
            step()  # compiled now, under this setting
            steps[fused] = step
        times = {True: [], False: []}
        for r in range(args.rounds):
            for fused in ((True, False) if r % 2 == 0 else (False, True)):
                # the graph cache keys its entries by the context too: a step runs the
                # program compiled under the setting in force
                set_context(tvm_fuse_reductions=fused)
                time.sleep(0.3)
                for _ in range(3):
                    steps[fused]()
                start = time.perf_counter()
                for _ in range(args.steps):
                    steps[fused]()
                times[fused].append((time.perf_counter() - start) / args.steps * 1e3)
        cells = [f"{statistics.median(t):7.2f} ({min(t):.2f}-{max(t):.2f})"
                 for t in (times[True], times[False])]
        print(f"{name:10s} {cells[0]:>22s} {cells[1]:>22s}")
    set_context(tvm_fuse_reductions=True)


if __name__ == "__main__":
    main()
