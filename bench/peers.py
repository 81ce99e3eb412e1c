"""Sporeling against its peers (issue 20): PyTorch eager, JAX jit, MindSpore PyNative and Graph,
Sporeling PyNative and Graph, on the same training steps from the same weights and data.

Each contender is one persistent worker process (``peers_worker.py``), driven over pipes.
MindSpore and Sporeling run the same program (``peers_mindspore.py``), importing ``mindspore``
or ``sporeling.ms as mindspore``; MindSpore runs from its own interpreter (``--ms-python``:
it needs NumPy < 2). Workloads and their weights are in ``peers_workloads.py``.

Timing (as ``timing.py``, across processes): per round, each contender in turn runs one block;
before every block the parent makes sure every worker is idle (a ping each answers, so none
is still computing), sleeps ``--idle`` s (OpenBLAS/OMP threads spin ~0.13 s after a call and
would steal the next contender's cores on 2 cores), then the worker runs 3 untimed steps and
the timed block. The order rotates by one between rounds. A row gives the median step over
blocks and the lowest and highest block. The first call (a compile for JAX and the Graph
modes) is timed separately, followed by a probe of up to 3 steps that caps a slow
contender's block at ``--budget`` s (and its untimed steps at the block's length). The
10-op chain's blocks are ``--steps`` x 100 calls (a call takes microseconds). Every step
returns the loss as a float (which also waits for asynchronous work); the loss shown is the
one at the same step for all contenders.

Threads: OMP/OpenBLAS/MKL at 2 in every worker's environment, ``torch.set_num_threads(2)``,
MindSpore's ``runtime_num_threads=2``; XLA sizes its pool by the cores (2 on this machine).

    python bench/peers.py [--workloads mlp,lstm] [--blocks 5 --steps 10] [--backend numpy,onednn]
"""
from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from peers_process import Peer, PeerError  # noqa: E402
from peers_workloads import WORKLOADS  # noqa: E402
from timing import Timing, print_table, ratio  # noqa: E402

THREADS = 2
WARM = 3  # untimed steps before each timed block
CONTENDERS = ("torch", "jax", "mindspore-pynative", "mindspore-graph", "sporeling-pynative",
              "sporeling-graph")
DEFAULT_MS_PYTHON = "/work/ms-venv/bin/python"


def start_peers(keys: list[str], ms_python: str, backends: list[str]) -> dict[str, Peer]:
    env = {var: str(THREADS) for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                         "MKL_NUM_THREADS")}
    peers = {}
    for key in keys:
        if key == "torch":
            peers[key] = Peer("pytorch eager", sys.executable, "torch", {"threads": THREADS}, env)
        elif key == "jax":
            peers[key] = Peer("jax jit", sys.executable, "jax", {}, env)
        else:
            flavour, mode = key.split("-")
            # one Sporeling contender per backend asked for (the context's default if none)
            for backend in (backends or [None]) if flavour == "sporeling" else [None]:
                options = {"mode": mode, "threads": THREADS}
                name = f"{flavour} {mode}"
                if backend:
                    options["backend"], name = backend, f"{name} ({backend})"
                python = ms_python if flavour == "mindspore" else sys.executable
                peers[f"{key}-{backend}" if backend else key] = Peer(
                    name, python, "mindspore", options, {**env, "PEERS_MINDSPORE": flavour})
    return peers


def measure(peers: list[Peer], workload, args) -> dict[str, dict]:
    """``{name: {"timing", "first", "steps", "losses", "check"}}``, or ``{"error": ...}``."""
    weights, data = workload.weights(), workload.data()
    out, steps = {}, {}
    for peer in peers:
        try:
            peer.call("setup", workload=workload.key, weights=weights, data=data)
            _idle(peers, args.idle)
            first = peer.call("first", budget=args.budget)
            out[peer.name] = {"first": first["first"], "samples": []}
            steps[peer.name] = max(1, min(args.steps * workload.steps_scale,
                                          int(args.budget / first["probe"])))
        except PeerError as exc:
            out[peer.name] = {"error": str(exc)}
    running = [p for p in peers if "error" not in out[p.name]]
    for r in range(args.blocks):
        shift = r % max(len(running), 1)
        for peer in running[shift:] + running[:shift]:
            if "error" in out[peer.name]:
                continue
            try:
                _idle(peers, args.idle)
                block = peer.call("block", steps=steps[peer.name],
                                  warm=min(WARM, steps[peer.name]))
                out[peer.name]["samples"].append(block["seconds"])
            except PeerError as exc:
                out[peer.name] = {"error": str(exc)}
    for peer in running:
        result = out[peer.name]
        if "error" in result:
            continue
        s = result.pop("samples")
        result.update(timing=Timing(statistics.median(s), min(s), max(s), s),
                      steps=steps[peer.name])
        try:
            result.update(peer.call("results"))
        except PeerError as exc:
            out[peer.name] = {"error": str(exc)}
    return out


def _idle(peers: list[Peer], seconds: float) -> None:
    """Every live worker answers a ping (so none is still computing), then a pause."""
    for peer in peers:
        if peer.alive:
            peer.call("ping")
    time.sleep(seconds)


def table(workload, results: dict[str, dict], names: dict[str, str]) -> None:
    """One Markdown table; the loss column compares all contenders at the same step."""
    done = {n: r for n, r in results.items() if "timing" in r}
    at = min((len(r["losses"]) for r in done.values()), default=0)
    torch_t = done.get(names.get("torch"), {}).get("timing")
    jax_t = done.get(names.get("jax"), {}).get("timing")
    rows = []
    for name, r in results.items():
        if "timing" not in r:
            rows.append([name, r.get("error") or r.get("missing"), "", "", ""])
            continue
        t = r["timing"]
        loss = f"{r['losses'][at - 1]:.6f}"
        if r.get("check"):
            loss += "".join(f", {k} {v:.6f}" for k, v in r["check"].items())
        per_step = t.us() if workload.unit == "us" else t.ms()
        if r["steps"] < max(d["steps"] for d in done.values()):
            per_step += f" [{r['steps']} steps/block]"
        rows.append([name, per_step, ratio(t, torch_t), ratio(t, jax_t), loss])
    print(f"\n### {workload.title}\n")
    print_table(["contender", "per step median (low-high)", "x torch", "x JAX",
                 f"final loss (step {at})"], rows)


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", default=",".join(WORKLOADS),
                        help=f"comma-separated, of {', '.join(WORKLOADS)}")
    parser.add_argument("--contenders", default=",".join(CONTENDERS),
                        help=f"comma-separated, of {', '.join(CONTENDERS)}")
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per contender")
    parser.add_argument("--steps", type=int, default=10, help="steps per block (at most)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="seconds a block may take: fewer steps for a slow contender")
    parser.add_argument("--idle", type=float, default=0.3, help="seconds of idle before a block")
    parser.add_argument("--ms-python", default=DEFAULT_MS_PYTHON,
                        help="interpreter with mindspore installed (NumPy < 2)")
    parser.add_argument("--backend", default=None,
                        help="Sporeling's kernel backends (set_context(backend=...)), "
                             "comma-separated: numpy,onednn runs each Sporeling contender "
                             "once per backend")
    args = parser.parse_args()
    keys, workloads = args.contenders.split(","), args.workloads.split(",")
    for key in keys:
        if key not in CONTENDERS:
            parser.error(f"unknown contender {key!r}")
    for key in workloads:
        if key not in WORKLOADS:
            parser.error(f"unknown workload {key!r}")
    peers = start_peers(keys, args.ms_python,
                        args.backend.split(",") if args.backend else [])
    names = {key: peer.name for key, peer in peers.items()}
    try:
        print(f"{datetime.datetime.now(datetime.timezone.utc):%d %b %Y %H:%M} UTC; {THREADS} "
              f"threads; {args.blocks} blocks of <= {args.steps} steps (budget {args.budget} s), "
              f"{WARM} untimed steps and {args.idle} s idle before each")
        print("; ".join(f"{p.name}: {p.version or p.missing or p.error}" for p in peers.values()))
        alive = [p for p in peers.values() if p.alive]
        first_rows = []
        for key in workloads:
            workload = WORKLOADS[key]
            results = measure(alive, workload, args)
            results.update({p.name: {"missing": p.missing or p.error}
                            for p in peers.values() if not p.alive})
            table(workload, {p.name: results[p.name] for p in peers.values()}, names)
            first_rows.append([key] + [_seconds(results[p.name].get("first"))
                                       for p in peers.values()])
        print("\n### First call (compile for JAX and the Graph modes), seconds\n")
        print_table(["workload"] + [p.name for p in peers.values()], first_rows)
    finally:
        for peer in peers.values():
            peer.close()


if __name__ == "__main__":
    main()
