"""oneDNN's thread policy measured: the main job's and LeNet's convolutions under OpenMP's
wait policies and thread counts, each setting in a fresh process (OpenMP reads them when it
starts), against NumPy's kernels in the same process.

    python bench/onednn_threads.py [--calls 200]

Prints microseconds per call (best of 5 blocks after 0.3 s idle and 3 untimed calls).
The plugin leaves libgomp's default (plugins/onednn/README.md, "Threads"). ``--busy`` keeps
one core busy with a spinning process meanwhile, as other work on a shared machine would.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SETTINGS = [("libgomp's default wait, 2 threads", {"OMP_NUM_THREADS": "2"}),
            ("active, 2 threads", {"OMP_WAIT_POLICY": "ACTIVE", "OMP_NUM_THREADS": "2"}),
            ("passive, 2 threads", {"OMP_WAIT_POLICY": "PASSIVE", "OMP_NUM_THREADS": "2"}),
            ("1 thread", {"OMP_WAIT_POLICY": "PASSIVE", "OMP_NUM_THREADS": "1"})]
CASES = [("main job conv1 32x1x8x8", (32, 1, 8, 8), (32, 1, 3, 3), 1),
         ("main job conv2 32x32x4x4", (32, 32, 4, 4), (64, 32, 3, 3), 1),
         ("LeNet conv2 64x6x14x14", (64, 6, 14, 14), (16, 6, 5, 5), 0),
         ("ResNet-20 32x16x32x32", (32, 16, 32, 32), (16, 16, 3, 3), 1)]

WORKER = """
import json, sys, time
import numpy as np
from sporeling.runtime import get_backend
calls, cases = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rng = np.random.default_rng(0)
def best(f):
    out = []
    for _ in range(5):
        time.sleep(0.3); f(); f(); f()
        t = time.perf_counter()
        for _ in range(calls): f()
        out.append((time.perf_counter() - t) / calls * 1e6)
    return min(out)
result = {}
for label, xs, ws, pad in cases:
    x, w = (rng.standard_normal(s).astype(np.float32) for s in (xs, ws))
    p = dict(stride=(1, 1), padding=((pad, pad), (pad, pad)), dilation=(1, 1), groups=1)
    result[label] = {b: best(lambda b=get_backend(b): b.run("conv2d", x, w, **p))
                     for b in ("onednn", "numpy")}
print(json.dumps(result))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per timed block")
    parser.add_argument("--busy", action="store_true", help="one core kept busy meanwhile")
    args = parser.parse_args()
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        rows = _measure(args.calls)
    finally:
        if busy is not None:
            busy.kill()
    _print(rows)


def _measure(calls: int) -> dict:
    rows = {}
    for name, env in SETTINGS:
        base = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
        done = subprocess.run([sys.executable, "-c", WORKER, json.dumps(calls),
                               json.dumps(CASES)], env={**base, **env},
                              capture_output=True, text=True, check=True)
        rows[name] = json.loads(done.stdout.splitlines()[-1])
    return rows


def _print(rows: dict) -> None:
    print("| conv2d forward | " + " | ".join(f"oneDNN {n}" for n, _ in SETTINGS)
          + " | NumPy (BLAS on 1 thread) |")
    print("|---" * (len(SETTINGS) + 2) + "|")
    for label, *_ in CASES:
        cells = [f"{rows[n][label]['onednn']:.0f} us" for n, _ in SETTINGS]
        numpy_us = min(rows[n][label]["numpy"] for n, _ in SETTINGS)
        print(f"| {label} | " + " | ".join(cells) + f" | {numpy_us:.0f} us |")


if __name__ == "__main__":
    main()
