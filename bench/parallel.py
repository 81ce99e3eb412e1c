"""Parallel benchmarks, one table. Launches itself on 2 MPI ranks (the MPICH wheel's mpiexec):

    python bench/parallel.py [--ranks 2] [--sizes-mib 4 16 64] [--repeat 7] [--rounds 4]
                             [--rows all_reduce ...]

Rows so far -- ``all_reduce``: a float32 sum through ``sporeling.parallel`` (the Communicator:
nonblocking Iallreduce polled under ``comm_timeout``) against raw mpi4py ``Allreduce`` on the
same buffers, both into a reused output (``out=``) and both into a new array per call; target
>= 0.9x raw's throughput. Each timed block starts after >= 0.3 s idle and a barrier, and
alternates the two sides call by call (each call behind a barrier), ``--repeat`` calls each;
``--rounds`` blocks, the side that goes first alternating from block to block.
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


def timed_block(comm, fns, repeat: int):
    """``repeat`` timed calls after an idle pause and a barrier (rank-synchronous): of one
    function (its seconds per call), or of a list of functions interleaved call by call (see
    :func:`timed_interleaved`; a list of seconds per function)."""
    if callable(fns):
        return timed_interleaved(comm, [fns], repeat)[0]
    return timed_interleaved(comm, list(fns), repeat)


def timed_interleaved(comm, fns: list[Callable[[], object]], repeat: int) -> list[list[float]]:
    """After an idle pause, ``repeat`` rounds of one timed call of each of ``fns`` in turn,
    each behind a barrier: interleaved, so the machine's load drift hits every side alike.
    The seconds per call of each function."""
    time.sleep(IDLE_S)
    comm.barrier()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, record in zip(fns, times):
            comm.barrier()
            start = time.perf_counter()
            fn()
            record.append(time.perf_counter() - start)
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
            for k in range(args.rounds):
                # which side goes first alternates from round to round: the call after
                # the other side's pays for it (measured: 0.95x with ours always first,
                # 0.99x with raw first, for the same 4 MiB new-array calls)
                if k % 2:
                    r, o = timed_interleaved(comm, [raw_fn, ours_fn], args.repeat)
                else:
                    o, r = timed_interleaved(comm, [ours_fn, raw_fn], args.repeat)
                ours, ref = ours + o, ref + r
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
    parser.add_argument("--rounds", type=int, default=4)
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


# ---- pipeline parallel and optimizer sharding (part 4) ------------------------------------
def _bench_mlp(widths, stages=None, seed=0):
    """Dense-tanh float32 layers with fixed weights (the same on every rank)."""
    from sporeling.expression import nn
    rng = np.random.default_rng(seed)
    layers = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        d = nn.Dense(a, b, weight_init=rng.normal(0, a ** -0.5, (b, a)).astype(np.float32),
                     bias_init=np.zeros(b, np.float32), activation="tanh")
        if stages is not None:
            d.pipeline_stage = stages[i]
        layers.append(d)
    return nn.SequentialCell(layers)


def pipeline_rows(comm, args) -> list[Row]:
    """A 1F1B training step (SGD) of an 8-layer MLP (width 512, batch 256) split over the
    ranks as stages, against one rank training it whole; micro-batches 2 and 8."""
    import sporeling.parallel as sp
    from sporeling.expression import nn
    from sporeling.expression.optim import SGD
    widths, n = [512] * 9, comm.size
    rng = np.random.default_rng(1)
    x = rng.normal(size=(256, 512)).astype(np.float32)
    y = rng.normal(size=(256, 512)).astype(np.float32)
    whole = _bench_mlp(widths)
    one = nn.TrainOneStepCell(nn.WithLossCell(whole, nn.MSELoss()),
                              SGD(whole.trainable_params(), 0.01))
    sp.set_auto_parallel_context(pipeline_stages=n)
    rows = []
    for micro in (2, 8):
        net = _bench_mlp(widths, [i * n // 8 for i in range(8)])
        pipe = sp.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro)
        step = sp.PipelineTrainOneStepCell(pipe, SGD(net.trainable_params(), 0.01))
        step(x, y)
        ours, ref, idle = [], [], []
        for _ in range(args.rounds):
            o, r = timed_block(comm, [lambda: (step(x, y), idle.append(
                pipe.last_report.idle_fraction)), lambda: one(x, y)], args.repeat)
            ours, ref = ours + o, ref + r
        rows.append(Row("pipeline 1F1B", f"{n} st M={micro}", ours, "1 rank, whole", ref,
                        f"bubble {pipe.last_report.bubble_fraction:.2f} (schedule), rank 0 "
                        f"idle {np.median(idle):.2f}"))
    sp.reset_auto_parallel_context()
    return rows


def zero_rows(comm, args) -> list[Row]:
    """A data-parallel Adam step (MLP 1024-2048-2048-1024, batch 64 per rank): ZeRO-1
    (reduce-scatter, Adam on 1/N, all-gather) against all-reduce + whole Adam."""
    import sporeling.expression as sx
    from sporeling.expression import nn
    from sporeling.expression.optim import Adam
    from sporeling.parallel.zero import ShardedOptimizer
    widths = [1024, 2048, 2048, 1024]
    rng = np.random.default_rng(2 + comm.rank)
    x = rng.normal(size=(64, 1024)).astype(np.float32)
    y = rng.normal(size=(64, 1024)).astype(np.float32)

    def setup(sharded):
        net = _bench_mlp(widths)
        adam = Adam(net.trainable_params(), 1e-4)
        opt = ShardedOptimizer(adam, reduce_gradients="mean") if sharded else adam
        vg = sx.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, adam.parameters)

        def step():
            _loss, grads = vg(x, y)
            if not sharded:
                grads = [comm.all_reduce(g.asnumpy(), "mean") for g in grads]
            opt(grads)
        step()
        return step, opt
    ours_step, sharded = setup(True)
    ref_step, plain = setup(False)
    ours, ref = [], []
    for _ in range(args.rounds):
        o, r = timed_block(comm, [ours_step, ref_step], args.repeat)
        ours, ref = ours + o, ref + r
    m = sharded.memory_report()
    return [Row("ZeRO-1 Adam", f"{comm.size} ranks", ours, "all-reduce+Adam", ref,
                f"Adam state {m['state_bytes'] / 2**20:.1f} MiB/rank vs "
                f"{m['unsharded_state_bytes'] / 2**20:.1f} MiB; params "
                f"{m['parameter_bytes'] / 2**20:.1f} MiB")]


ROWS += [pipeline_rows, zero_rows]


# ---- data parallel (part 2) ---------------------------------------------------------------
class _SyncReducer:
    """The reference: after backward, each gradient all-reduced on its own, blocking."""

    def __init__(self, comm):
        self.comm = comm

    def __call__(self, grads):
        from sporeling.expression.tensor.tensor import wrap
        return tuple(wrap(self.comm.all_reduce(g.asnumpy(), "mean")) for g in grads)


def data_parallel_rows(comm, args) -> list[Row]:
    """A data-parallel ``TrainOneStepCell`` step (SGD, float32 MLP 512 wide, 4 layers =
    4 MiB of gradients, global batch 64) on all ranks (batch 64/N each, gradients
    all-reduced in buckets started during backward) against rank 0 alone with the whole
    batch; and, at N ranks, bucketed nonblocking all-reduce (25 MiB default: one bucket;
    1 MiB: one per layer) against each gradient all-reduced synchronously after backward."""
    import sporeling.parallel as sp
    from sporeling.core import set_context
    from sporeling.expression.optim import SGD
    from sporeling.expression.train import TrainOneStepCell, WithLossCell
    widths, batch = [512] * 5, 64
    rng = np.random.default_rng(3)
    x = rng.normal(size=(batch, widths[0])).astype(np.float32)
    y = rng.normal(size=(batch, widths[-1])).astype(np.float32)
    per = batch // comm.size
    mine = (x[comm.rank * per:(comm.rank + 1) * per], y[comm.rank * per:(comm.rank + 1) * per])

    def mse(out, target):
        return ((out - target) ** 2).mean()

    def make(mode, cap_mb=25.0, sync=False):
        sp.set_auto_parallel_context(parallel_mode=mode, gradients_mean=True)
        set_context(bucket_cap_mb=cap_mb)
        net = _bench_mlp(widths)
        step = TrainOneStepCell(WithLossCell(net, mse), SGD(net.trainable_params(), 1e-3))
        if sync:
            step.grad_reducer = _SyncReducer(comm)
        return step

    alone = make("stand_alone")
    fns = [lambda: alone(x, y) if comm.rank == 0 else None]
    for cap_mb, sync in ((25.0, False), (1.0, False), (25.0, True)):
        step = make("data_parallel", cap_mb, sync)
        fns.append(lambda step=step: step(*mine))
    sp.reset_auto_parallel_context()
    set_context(bucket_cap_mb=25.0)
    for fn in fns:  # warm-up
        fn()
    times = [[] for _ in fns]
    for _ in range(args.rounds):
        for record, got in zip(times, timed_interleaved(comm, fns, args.repeat)):
            record += got
    one, dp25, dp1, sync = times
    n = comm.size
    return [Row("data-parallel", f"{n} ranks", dp25, "1 rank, whole", one,
                f"batch {batch} ({per}/rank), 4 MiB grads, 25 MiB buckets"),
            Row("grad all-reduce", "25 MiB bkt", dp25, "sync per-param", sync,
                f"{n} ranks; 1 bucket: starts when backward ends"),
            Row("grad all-reduce", "1 MiB bkt", dp1, "sync per-param", sync,
                f"{n} ranks; 4 buckets started during backward")]


ROWS.append(data_parallel_rows)


# ---- comm_check: the signature exchange before each collective (issue 10) -------------------
def comm_check_rows(comm, args) -> list[Row]:
    """A float32 sum all-reduce (``out=``) of 4 KiB and 16 MiB with ``comm_check`` on (one
    small signature all-gather first) against off; the two alternate call by call, each
    behind a barrier. 4 KiB calls are short, so they repeat 20x as often. Then 4 KiB calls
    back to back (mean per call over blocks of 50), on and off alternating by block."""
    from sporeling.core import set_context
    rows = []
    for label, nbytes, repeat in (("4 KiB", 4 << 10, args.repeat * 20),
                                  ("16 MiB", 16 << 20, args.repeat)):
        x = np.full(nbytes // 4, comm.rank + 1.0, np.float32)
        out = np.empty_like(x)
        times = {"on": [], "off": []}
        for block in range(args.rounds):
            time.sleep(IDLE_S)
            for i in range(repeat):
                for mode in (("on", "off") if (block + i) % 2 == 0 else ("off", "on")):
                    set_context(comm_check=mode)
                    comm.barrier()
                    start = time.perf_counter()
                    comm.all_reduce(x, out=out)
                    times[mode].append(time.perf_counter() - start)
        set_context(comm_check="on")
        extra = (np.median(times["on"]) - np.median(times["off"])) * 1e6
        rows.append(Row("comm_check", label, times["on"], "comm_check off", times["off"],
                        f"{comm.size} ranks, all_reduce out=; {extra:+.0f} us per call"))
    # back to back (no barrier between calls): each call waits for the slower rank twice
    x = np.full(1024, comm.rank + 1.0, np.float32)
    out, calls = np.empty_like(x), 50
    times = {"on": [], "off": []}
    for block in range(args.rounds * 4):
        for mode in (("on", "off") if block % 2 == 0 else ("off", "on")):
            set_context(comm_check=mode)
            time.sleep(IDLE_S)
            comm.barrier()
            start = time.perf_counter()
            for _ in range(calls):
                comm.all_reduce(x, out=out)
            times[mode].append((time.perf_counter() - start) / calls)
    set_context(comm_check="on")
    extra = (np.median(times["on"]) - np.median(times["off"])) * 1e6
    rows.append(Row("comm_check", "4 KiB b2b", times["on"], "comm_check off", times["off"],
                    f"{calls} calls back to back per sample; {extra:+.0f} us per call"))
    return rows


ROWS.append(comm_check_rows)


if __name__ == "__main__":
    main()
