"""Parallel benchmarks, one table. Launches itself on 2 MPI ranks (the MPICH wheel's mpiexec):

    python bench/parallel.py [--ranks 2] [--sizes-mib 4 16 64] [--repeat 7] [--rounds 3]
                             [--rows all_reduce ...]

Rows so far -- ``all_reduce``: a float32 sum through ``sporeling.parallel`` (the Communicator:
nonblocking Iallreduce polled under ``comm_timeout``) against raw mpi4py ``Allreduce`` on the
same buffers, both into a reused output (``out=``) and both into a new array per call; target
>= 0.9x raw's throughput. Each timed block starts after >= 0.3 s idle and
a barrier; blocks of the two sides alternate for ``--rounds`` rounds so load drift hits both.
Cells: median ms per call over every timed call (rank 0's clock), then the spread
(25th-75th percentile). ``ratio`` = raw median / Sporeling median (>1: Sporeling is faster).

More rows plug in through ``ROWS`` (a function ``(comm, args) -> list[Row]`` each): the
data-parallel step at 1 and 2 ranks, bucketed nonblocking vs synchronous gradient all-reduce,
strategy search time by model size and device count.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

IDLE_S = 0.3


@dataclass
class Row:
    """One line of the table: what was measured, ours against a reference."""
    benchmark: str
    case: str
    ours: list[float]                  # seconds per call
    reference_name: str = ""
    reference: list[float] | None = None
    note: str = ""


def _ms(times: list[float]) -> str:
    q25, q50, q75 = np.percentile(np.asarray(times) * 1e3, [25, 50, 75])
    return f"{q50:8.2f} ({q25:.2f}-{q75:.2f})"


def print_table(rows: list[Row], title: str) -> None:
    print(title)
    header = f"{'benchmark':<16} {'case':<12} {'sporeling ms (IQR)':>24} " \
             f"{'reference':<16} {'reference ms (IQR)':>24} {'ratio':>6}  note"
    print(header)
    print("-" * len(header))
    for r in rows:
        ref = _ms(r.reference) if r.reference else ""
        ratio = f"{np.median(r.reference) / np.median(r.ours):6.2f}" if r.reference else ""
        print(f"{r.benchmark:<16} {r.case:<12} {_ms(r.ours):>24} {r.reference_name:<16} "
              f"{ref:>24} {ratio:>6}  {r.note}")


def timed_block(comm, fn: Callable[[], object], repeat: int) -> list[float]:
    """``repeat`` timed calls of ``fn`` after an idle pause and a barrier (rank-synchronous)."""
    time.sleep(IDLE_S)
    comm.barrier()
    times = []
    for _ in range(repeat):
        comm.barrier()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def all_reduce_rows(comm, args) -> list[Row]:
    """Sporeling's all_reduce vs raw mpi4py Allreduce, float32 sum, per size: into a buffer
    both reuse (``out=``), and into a new array per call (each side allocates its own)."""
    from mpi4py import MPI
    raw = comm.mpi_comm
    rows = []
    for mib in args.sizes_mib:
        x = np.full(mib * (1 << 20) // 4, comm.rank + 1.0, np.float32)
        out = np.empty_like(x)
        assert comm.all_reduce(x)[0] == comm.size * (comm.size + 1) / 2
        pairs = {
            "out=": (lambda: comm.all_reduce(x, out=out),
                     lambda: raw.Allreduce(x, out, op=MPI.SUM)),
            "new array": (lambda: comm.all_reduce(x),
                          lambda: raw.Allreduce(x, np.empty_like(x), op=MPI.SUM)),
        }
        for case, (ours_fn, raw_fn) in pairs.items():
            ours, ref = [], []
            for _ in range(args.rounds):
                ref += timed_block(comm, raw_fn, args.repeat)
                ours += timed_block(comm, ours_fn, args.repeat)
            rows.append(Row("all_reduce", f"{mib} MiB", ours, "mpi4py Allreduce", ref,
                            f"{case}; {comm.size} ranks, float32 sum"))
    return rows


ROWS: list[Callable] = [all_reduce_rows]
"""Row producers, in table order; each runs on every rank, rank 0's rows are printed."""


def rank_main(args) -> None:
    import sporeling.parallel as sp
    sp.init("mpi")
    comm = sp.current()
    chosen = [p for p in ROWS if not args.rows or p.__name__.removesuffix("_rows") in args.rows]
    rows = [row for produce in chosen for row in produce(comm, args)]
    if comm.rank == 0:
        print_table(rows, f"bench/parallel.py: {comm.size} MPI ranks, {os.cpu_count()} cores, "
                          f"--repeat {args.repeat} x --rounds {args.rounds}")
    sp.release()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--sizes-mib", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", nargs="+", metavar="NAME",
                        help="only these row producers (all_reduce, search, ...: a ROWS "
                             "function's name without _rows); default all")
    parser.add_argument("--rank-job", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rank_job:
        return rank_main(args)
    from sporeling.parallel.launch import mpiexec_command
    command = mpiexec_command(args.ranks, __file__, ["--rank-job", *sys.argv[1:]])
    sys.exit(subprocess.run(command).returncode)



# ---- strategy search time (operator parallel, part 3; the search itself lives in
# ---- bench/parallel_search.py, runnable alone) ----------------------------------------
def search_rows(comm, args) -> list[Row]:
    """Strategy-search seconds for Transformer stacks (batch 16, sequence 512, hidden 1024)
    by layers, simulated device count and mode; rank 0 alone searches (no communication)."""
    if comm.rank != 0:
        return []
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from parallel_search import search_time_rows
    rows = []
    for r in search_time_rows(layers=(2, 24), devices=(64, 1024)):
        mode = "dp" if r["mode"] == "dynamic_programming" else "rec"
        rows.append(Row("strategy search", f"{r['layers']}L {r['devices']} {mode}",
                        [r["search_s"]],
                        note=f"{r['ops']} ops; estimated step {r['step_time_s'] * 1e3:.0f} ms, "
                             f"comm {r['comm_bytes_per_step'] / 1e6:.0f} MB/step, "
                             f"memory {r['memory_per_device_bytes'] / 1e6:.0f} MB/device"))
    return rows


ROWS.append(search_rows)

if __name__ == "__main__":
    main()
