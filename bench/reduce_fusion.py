"""Graph mode on the TVM backend with and without one of its passes, in one process: the
same model compiled twice (the pass's context key True, then False), blocks of steps
alternating, 0.3 s idle and three untimed steps before each. The key is
``tvm_fuse_reductions`` by default (sums and means fused with the chains they reduce), or
``tvm_group_kernels`` (runs of chains as one generated function).

    python bench/reduce_fusion.py [--key tvm_group_kernels] [--workloads resnet20 lenet]
                                  [--rounds 8] [--steps 10]

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
    parser.add_argument("--key", default="tvm_fuse_reductions",
                        choices=["tvm_fuse_reductions", "tvm_group_kernels"])
    args = parser.parse_args()
    import peers_mindspore as contender
    from peers_workloads import WORKLOADS

    from sporeling.core import set_context
    contender.start(mode="graph", backend="tvm", threads=2)
    print(f"{'workload':10s} {'on':>22s} {'off':>22s}  ({args.key}; ms per step: median, "
          f"lowest-highest of {args.rounds} blocks of {args.steps})")
    for name in args.workloads:
        workload = WORKLOADS[name]
        steps = {}
        for fused in (True, False):
            set_context(**{args.key: fused})
            step, _ = contender.build(workload, workload.weights(), workload.data())
            step()  # compiled now, under this setting
            steps[fused] = step
        times = {True: [], False: []}
        for r in range(args.rounds):
            for fused in ((True, False) if r % 2 == 0 else (False, True)):
                # the graph cache keys its entries by the context too: a step runs the
                # program compiled under the setting in force
                set_context(**{args.key: fused})
                time.sleep(0.3)
                for _ in range(3):
                    steps[fused]()
                start = time.perf_counter()
                for _ in range(args.steps):
                    steps[fused]()
                times[fused].append((time.perf_counter() - start) / args.steps * 1e3)
        cells = [f"{statistics.median(t):7.3f} ({min(t):.3f}-{max(t):.3f})"
                 for t in (times[True], times[False])]
        print(f"{name:10s} {cells[0]:>22s} {cells[1]:>22s}")
    set_context(**{args.key: True})


if __name__ == "__main__":
    main()
