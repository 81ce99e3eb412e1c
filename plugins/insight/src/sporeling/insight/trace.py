"""The profiler's records as a Chrome trace (JSON ``traceEvents``) and an op table.

Kernel records are ``(name, start_ns, end_ns, program, thread)``; memory records
``(time_ns, pool, in_use, peak)``; fragmentation samples ``(time_ns, pool, fraction,
largest_free, free)``. Times in the trace are microseconds from the profiler's start.

    >>> t = chrome_trace([("matmul", 1000, 3000, None, 7)], [(1500, "default", 2**20, 2**20)],
    ...                  [(3000, "default", 0.25, 3, 4)], 0)
    >>> [(e["ph"], e["name"]) for e in t["traceEvents"] if e["ph"] != "M"]
    [('X', 'matmul'), ('C', 'memory default'), ('C', 'fragmentation default')]
    >>> op_table([("matmul", 0, 3000, None, 7), ("relu", 0, 1000, None, 7)])[0]["share"]
    0.75
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

__all__ = ["chrome_trace", "op_table", "write_trace", "write_op_csv", "read_trace",
           "trace_ops", "trace_counters", "PYNATIVE", "GRAPH"]

PYNATIVE, GRAPH = "PyNative", "Graph"
_PID = 1
_MB = 1024.0 ** 2


def _mode(program) -> str:
    return PYNATIVE if program is None else GRAPH


def chrome_trace(kernels, memory, fragmentation, origin_ns: int) -> dict:
    """The trace Perfetto and chrome://tracing open."""
    def us(ns: int) -> float:
        return (ns - origin_ns) / 1000.0

    events = [{"name": "process_name", "ph": "M", "pid": _PID,
               "args": {"name": "sporeling"}}]
    threads = {}
    for name, start, end, program, thread in kernels:
        tid = threads.setdefault(thread, len(threads) + 1)
        args = {"mode": _mode(program)}
        if program is not None:
            args["program"] = program
        events.append({"name": name, "cat": _mode(program), "ph": "X", "pid": _PID,
                       "tid": tid, "ts": us(start), "dur": (end - start) / 1000.0,
                       "args": args})
    events += [{"name": "thread_name", "ph": "M", "pid": _PID, "tid": tid,
                "args": {"name": f"kernels (thread {i})"}}
               for i, tid in enumerate(threads.values())]
    for time, pool, in_use, peak in memory:
        events.append({"name": f"memory {pool}", "ph": "C", "pid": _PID, "ts": us(time),
                       "args": {"in_use_MB": in_use / _MB, "peak_MB": peak / _MB}})
    for time, pool, fraction, largest, free in fragmentation:
        events.append({"name": f"fragmentation {pool}", "ph": "C", "pid": _PID,
                       "ts": us(time), "args": {"fragmentation": fraction}})
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"producer": "sporeling.insight.Profiler"}}


def op_table(kernels) -> list[dict]:
    """Rows ``{op, mode, calls, total_us, mean_us, min_us, max_us, share}``, by total time."""
    groups: dict[tuple, list[float]] = {}
    for name, start, end, program, _ in kernels:
        groups.setdefault((name, _mode(program)), []).append((end - start) / 1000.0)
    total = sum(sum(v) for v in groups.values()) or 1.0
    rows = [{"op": name, "mode": mode, "calls": len(t), "total_us": sum(t),
             "mean_us": sum(t) / len(t), "min_us": min(t), "max_us": max(t),
             "share": sum(t) / total} for (name, mode), t in groups.items()]
    return sorted(rows, key=lambda r: -r["total_us"])


def write_trace(path: str | os.PathLike, trace: dict) -> Path:
    path = Path(path)
    with open(path, "w") as f:
        json.dump(trace, f)
    return path


def write_op_csv(path: str | os.PathLike, rows: list[dict]) -> Path:
    path = Path(path)
    fields = ["op", "mode", "calls", "total_us", "mean_us", "min_us", "max_us", "share"]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fields)
        writer.writeheader()
        writer.writerows(rows)
    return path


def read_trace(path: str | os.PathLike) -> dict:
    with open(path) as f:
        return json.load(f)


def trace_ops(trace: dict) -> list[tuple]:
    """``(name, mode, dur_us)`` of every kernel (``X``) event in a trace."""
    return [(e["name"], e.get("cat", ""), float(e["dur"]))
            for e in trace["traceEvents"] if e.get("ph") == "X"]


def trace_counters(trace: dict, prefix: str) -> dict[str, list[tuple]]:
    """Counter events whose name starts with ``prefix``: name -> ``[(ts_us, args), ...]``."""
    found: dict[str, list[tuple]] = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "C" and e["name"].startswith(prefix):
            found.setdefault(e["name"], []).append((float(e["ts"]), e["args"]))
    return found
