"""The loop a process worker runs: JSON task headers in, arrays through shared memory out.

A task is a chunk of samples: ``items`` lists ``[position, source_index]`` pairs and, when
the worker does not read the source itself, ``layout`` places each item's input arrays in
the task's slot. The worker computes every item (its random state set from (seed, epoch,
position)), writes the outputs into the same slot -- stacked per column when all items
agree in shape and dtype -- and replies with their layout. A slot too small is grown by the
main process on request (``need`` / ``grow``). An exception is reported as text (type,
message, traceback, sample position), never pickled.
"""
from __future__ import annotations

import json
import os
import signal
import time
import traceback

import numpy as np

from ..errors import CorruptSampleError
from ..randomness import clear_sample, set_sample
from .shm import ALIGN, attach, layout_of, read_arrays

__all__ = ["worker_main", "pack_outputs"]


def pack_outputs(outs: list[tuple]):
    """``(stacked, entries, end)`` for a chunk's output rows."""
    first = outs[0]
    stacked = all(len(o) == len(first) and all(
        isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and
        a.dtype == b.dtype for a, b in zip(o, first)) for o in outs)
    if stacked:
        entries, off = [], 0
        for a in first:
            layout, off = layout_of([a], off, "a map output")
            dtype, shape, start = layout[0]
            entries.append([dtype, [len(outs)] + shape, start])
            off = start + a.nbytes * len(outs)
        return True, entries, off
    entries, off = [], 0
    for o in outs:
        layout, off = layout_of(o, off, "a map output")
        entries.append(layout)
    return False, entries, off


def _write(buf, outs, stacked, entries) -> None:
    if stacked:
        for c, (dtype, shape, off) in enumerate(entries):
            if 0 in shape:
                continue
            block = np.ndarray(shape, dtype, buffer=buf, offset=off)
            for i, o in enumerate(outs):
                block[i] = o[c]
        return
    for o, layout in zip(outs, entries):
        for a, (dtype, shape, off) in zip(o, layout):
            if a.size:
                np.ndarray(shape, dtype, buffer=buf, offset=off)[...] = a


def worker_main(conn, work, seed: int, parent: int, fused: bool, skip_corrupt: bool) -> None:
    """Serve tasks until told to stop, the pipe closes or the parent process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    maps: dict[int, tuple] = {}
    while True:
        if not conn.poll(0.5):
            if os.getppid() != parent:
                return
            continue
        try:
            msg = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        if "stop" in msg:
            return
        slot = msg["slot"]
        if slot not in maps or maps[slot][0] != msg["shm"]:
            maps[slot] = (msg["shm"], attach(msg["shm"]))
        buf = maps[slot][1]
        start, epoch, items = time.perf_counter(), msg["epoch"], msg["items"]
        inputs = None if fused else [read_arrays(buf, e) for e in msg["layout"]]
        outs, skipped, failed = [], {}, False
        for k, (pos, src) in enumerate(items):
            set_sample(seed, epoch, pos)
            try:
                outs.append(work(src) if fused else work(inputs[k]))
            except CorruptSampleError as exc:
                if not skip_corrupt:
                    failed = _report(conn, exc, pos, epoch)
                    break
                where = work.describe(src) if fused else None  # the file, not "9 bytes"
                skipped[str(k)] = [where or exc.where or f"sample {src}", exc.detail]
            except Exception as exc:  # noqa: BLE001 -- reported to the main process as text
                failed = _report(conn, exc, pos, epoch)
                break
        clear_sample()
        if failed:
            continue
        try:
            stacked, entries, end = pack_outputs(outs) if outs else (False, [], 0)
        except Exception as exc:  # noqa: BLE001 -- an object array, reported as text
            _report(conn, exc, items[0][0], epoch)
            continue
        if end > len(buf):
            conn.send_bytes(json.dumps({"need": end + ALIGN, "slot": slot}).encode())
            grow = json.loads(conn.recv_bytes())
            if "stop" in grow:
                return
            maps[slot] = (grow["shm"], attach(grow["shm"]))
            buf = maps[slot][1]
        _write(buf, outs, stacked, entries)
        conn.send_bytes(json.dumps({"ok": 1, "slot": slot, "stacked": stacked,
                                    "layout": entries, "skipped": skipped,
                                    "busy": time.perf_counter() - start}).encode())


def _report(conn, exc: BaseException, position: int, epoch: int) -> bool:
    conn.send_bytes(json.dumps({
        "error": str(exc), "exc_type": type(exc).__name__, "index": position,
        "epoch": epoch, "traceback": traceback.format_exc()}).encode())
    return True
