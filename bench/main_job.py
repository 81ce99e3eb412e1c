"""The main job's wall and CPU time: ``sporeling train`` (LeNet-5 on the 8x8 digits) per
mode x backend, each run in a fresh process, as a user runs it.

    python bench/main_job.py                    # 40 epochs (the job's default), 3 runs each
    python bench/main_job.py --epochs 4 --runs 2

Each run is ``sporeling train --no-progress --mode M --backend B`` in
a new process (imports, data, compile, training, evaluation, checkpoint all counted); 0.3 s
idle before each, the contenders' order alternating from round to round. Reported: median
wall time with the lowest and highest run, the median CPU time of the child process (user
+ system, all its threads: on a shared machine the wall time counts waiting for a core, the
CPU time does not), the training loop's own seconds as the job prints them, and the test
accuracy. PyTorch cannot run this job, so the baseline is the NumPy backend in PyNative
mode, the job's default.

Bytecode: the children get ``PYTHONPYCACHEPREFIX`` (a folder under the temp dir) and
``PYTHONDONTWRITEBYTECODE`` unset, so from the second run on they import compiled bytecode
as an installed package does (a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` compiles
every module at every start: about 3 s of CPU on the shared machine).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import print_table  # noqa: E402


_CLI = "import sys; from sporeling.core.cli import main; sys.exit(main(sys.argv[1:]))"


def _installed_backends() -> list[str]:
    from sporeling.runtime.backend import get_backends
    return sorted(get_backends().names(), key=lambda n: n != "numpy")  # the baseline first


def _run_once(mode: str, backend: str, epochs: int, out: Path, env: dict) -> dict:
    cmd = [sys.executable, "-c", _CLI, "train", "--no-progress",
           "--mode", mode, "--backend", backend, "--epochs", str(epochs), "--output", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    train = float(re.search(r"epochs in ([\d.]+) s", done.stdout).group(1))
    acc = float(re.search(r"test accuracy: ([\d.]+)%", done.stdout).group(1))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "train": train, "acc": acc}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", default="pynative,graph")
    parser.add_argument("--backends", default=",".join(_installed_backends()))
    args = parser.parse_args(argv)
    contenders = [(m, b) for m in args.modes.split(",") for b in args.backends.split(",")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "sporeling-bench-pycache")
    results: dict = {c: [] for c in contenders}
    with tempfile.TemporaryDirectory() as tmp:
        # warm-up: bytecode written, numba's kernels compiled into its disk cache
        for mode, backend in contenders:
            _run_once(mode, backend, 1, Path(tmp) / "warm", env)
        for r in range(args.runs):
            for mode, backend in (contenders if r % 2 == 0 else contenders[::-1]):
                time.sleep(0.3)
                results[(mode, backend)].append(
                    _run_once(mode, backend, args.epochs, Path(tmp) / f"{mode}-{backend}", env))
    base = statistics.median(x["wall"] for x in results[contenders[0]])
    rows = []
    for (mode, backend), runs in results.items():
        walls = [x["wall"] for x in runs]
        wall = statistics.median(walls)
        rows.append([f"{mode}, {backend}", f"{wall:.2f} s ({min(walls):.2f}-{max(walls):.2f})",
                     f"{statistics.median(x['cpu'] for x in runs):.2f} s",
                     f"{statistics.median(x['train'] for x in runs):.2f} s",
                     f"{wall / base:.2f}x",
                     "/".join(f"{x['acc']:.2f}" for x in runs) + " %"])
    print(f"sporeling train, LeNet-5 on digits, {args.epochs} epochs, {args.runs} runs each, "
          f"load average {os.getloadavg()[0]:.1f}")
    print_table(["mode, backend", "wall: median (low-high)", "CPU (median)",
                 "training loop", f"x {contenders[0][0]}, {contenders[0][1]}",
                 "test accuracy"], rows)


if __name__ == "__main__":
    main()
