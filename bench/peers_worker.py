"""One contender of ``peers.py``, in its own process: ``python peers_worker.py FRAMEWORK OPTIONS``.

FRAMEWORK names a module ``peers_<framework>.py`` with ``start(**OPTIONS) -> str`` (import the
framework, set its mode and threads; returns its version) and ``build(workload, weights,
data) -> (step, check)``: ``step()`` runs one training step and returns its loss as a float
(which also waits for asynchronous work), ``check()`` (or None) returns extra figures that
confirm the same work. The worker then answers the parent's commands until ``quit``.

The protocol runs on the original stdout; the frameworks' own prints go to stderr.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
import time
import traceback

from peers_protocol import receive, send
from peers_workloads import WORKLOADS

PROBE_STEPS = 3  # timed right after the first call: an estimate that caps a slow contender


class Worker:
    def __init__(self, module):
        self.module = module
        self.step = self.check = None
        self.losses: list[float] = []

    def setup(self, workload: str, weights, data) -> dict:
        self.step = self.check = None  # drop the previous model first
        self.step, self.check = self.module.build(WORKLOADS[workload], weights, data)
        self.losses = []
        return {}

    def first(self, budget: float) -> dict:
        """The first call (compiles where the contender compiles), then a probe of up to
        ``PROBE_STEPS`` steps; its fastest step (noise only adds) sizes the blocks. Stopped
        after two steps that each took over ``budget`` seconds (one such step can be noise
        on a shared machine)."""
        start = time.perf_counter()
        self.losses.append(self.step())
        first = time.perf_counter() - start
        probe = []
        while len(probe) < PROBE_STEPS and not (len(probe) >= 2 and min(probe) > budget):
            probe.append(self._run(1))
        return {"first": first, "probe": min(probe)}

    def block(self, steps: int, warm: int) -> dict:
        self._run(warm)
        return {"seconds": self._run(steps)}

    def _run(self, steps: int) -> float:
        """Seconds per step over ``steps`` calls."""
        step, losses = self.step, self.losses
        start = time.perf_counter()
        for _ in range(steps):
            losses.append(step())
        return (time.perf_counter() - start) / max(steps, 1)

    def results(self) -> dict:
        return {"losses": self.losses, "check": self.check() if self.check else None}


def serve(framework: str, options: dict) -> None:
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a framework's print() must not corrupt the protocol
    inp = sys.stdin.buffer
    try:
        module = importlib.import_module(f"peers_{framework}")
        version = module.start(**options)
    except ImportError as exc:
        send(out, {"missing": f"not installed ({exc})"})
        return
    except Exception as exc:  # noqa: BLE001 -- reported to the parent, not fatal there
        send(out, {"error": _brief(exc)})
        return
    send(out, {"version": version})
    worker = Worker(module)
    handlers = {"setup": worker.setup, "first": worker.first, "block": worker.block,
                "results": worker.results, "ping": lambda: {}}
    while True:
        try:
            message = receive(inp)
        except EOFError:
            return
        command = message.pop("cmd")
        if command == "quit":
            return
        try:
            reply = handlers[command](**message)
        except Exception as exc:  # noqa: BLE001
            traceback.print_exc()
            reply = {"error": _brief(exc)}
        send(out, reply)


def _brief(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return text[:200]


if __name__ == "__main__":
    serve(sys.argv[1], json.loads(sys.argv[2]) if len(sys.argv) > 2 else {})
