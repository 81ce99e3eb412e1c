"""A Graph-mode start's AST conversion, with and without the disk cache (issue 21).

    python bench/frontend_cache.py [--runs 5] [--workloads train resnet20]

Each run is a fresh process (the conversion happens once per process): ``train`` is
``sporeling train --mode graph --epochs 1`` (LeNet on the digits), ``resnet20``/``lenet``/
``mlp`` the first Graph-mode training step of ``peers_mindspore.py`` through the facade.
Three columns, the milliseconds spent inside the converter (``ast_convert._converted_code``)
and the process's whole run: the cache switched off (``SPORELING_FRONTEND_CACHE=0``, what
every process paid before it), the first process on an empty cache (it writes the entries),
and the processes after it (they read them). Medians, with the lowest and highest run.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from timing import spread  # noqa: E402 - bench's own module

CHILD = r'''
import os, sys, time
from sporeling.compiler.frontend import ast_convert
spent = [0.0]
converted_code = ast_convert._converted_code
def timed(fn, owner):
    start = time.perf_counter()
    try:
        return converted_code(fn, owner)
    finally:
        spent[0] += time.perf_counter() - start
ast_convert._converted_code = timed
start = time.perf_counter()
if sys.argv[1] == "train":
    import contextlib, io
    from sporeling.core.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        main(["train", "--mode", "graph", "--epochs", "1", "--no-progress",
              "--output", sys.argv[3]])
else:
    sys.path.insert(0, sys.argv[2])
    os.environ["PEERS_MINDSPORE"] = "sporeling"
    import numpy as np
    import peers_mindspore as peers
    from peers_workloads import WORKLOADS
    workload = WORKLOADS[sys.argv[1]]
    peers.start("graph")
    net = peers.MODELS[workload.key]()
    weights = {peers.canonical(p.name): p.asnumpy() for p in net.trainable_params()}
    step, _ = peers.build(workload, weights, workload.inputs(np.random.default_rng(0)))
    step()
print(spent[0] * 1000, (time.perf_counter() - start) * 1000)
'''


def _run(workload: str, home: str, out: str, cache: bool) -> tuple[float, float]:
    env = dict(os.environ, SPORELING_HOME=home)
    env.pop("SPORELING_FRONTEND_CACHE", None)
    if not cache:
        env["SPORELING_FRONTEND_CACHE"] = "0"
    time.sleep(0.3)  # idle first: the previous process's BLAS threads may still spin
    done = subprocess.run([sys.executable, "-c", CHILD, workload, str(BENCH), out], env=env,
                          capture_output=True, text=True, check=True)
    converter, whole = map(float, done.stdout.split()[-2:])
    return converter, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workloads", nargs="+", default=["train", "resnet20"])
    args = parser.parse_args()
    print(f"{'workload':<10} {'':<10} {'cache off':>22} {'first process':>16} "
          f"{'later processes':>22}")
    for workload in args.workloads:
        with tempfile.TemporaryDirectory() as home:
            off = [_run(workload, home, home, False) for _ in range(args.runs)]
            first = [_run(workload, home, home, True)]
            later = [_run(workload, home, home, True) for _ in range(args.runs)]
        for i, what in enumerate(("converter", "whole run")):
            print(f"{workload:<10} {what + ' ms':<10} {spread([r[i] for r in off], 0):>22} "
                  f"{spread([r[i] for r in first], 0):>16} {spread([r[i] for r in later], 0):>22}")


if __name__ == "__main__":
    main()
