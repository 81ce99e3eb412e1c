"""The parent's side of one worker process (``peers_worker.py``): start, command, close."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from peers_protocol import receive, send

WORKER = Path(__file__).with_name("peers_worker.py")


class PeerError(RuntimeError):
    """The worker answered with an error or died; the message is one line."""


class Peer:
    """A running worker, or one that could not start (``missing`` / ``error`` set)."""

    def __init__(self, name: str, python: str, framework: str, options: dict, env: dict):
        self.name, self.version = name, ""
        self.missing = self.error = None
        self._proc = None
        if not Path(python).exists():
            self.missing = f"not installed (no {python})"
            return
        # the worker's stderr (framework warnings, tracebacks) goes to a file, shown on failure
        self._log = tempfile.NamedTemporaryFile("w+", prefix=f"peers-{framework}-", suffix=".log")
        self._proc = subprocess.Popen(
            [python, str(WORKER), framework, json.dumps(options)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._log, env={**os.environ, **env},
            cwd=WORKER.parent)
        try:
            hello = self._receive()
        except PeerError as exc:
            self.error = str(exc)
            return
        self.missing, self.error = hello.get("missing"), hello.get("error")
        self.version = hello.get("version", "")

    @property
    def alive(self) -> bool:
        return self._proc is not None and self.missing is None and self.error is None

    def call(self, cmd: str, **kwargs) -> dict:
        """The worker's reply; ``PeerError`` if it answered an error (it lives on) or died."""
        try:
            send(self._proc.stdin, {"cmd": cmd, **kwargs})
        except OSError as exc:
            self.error = f"worker gone ({exc}){self._log_tail()}"
            raise PeerError(self.error) from None
        reply = self._receive()
        if "error" in reply:
            raise PeerError(reply["error"])
        return reply

    def _receive(self) -> dict:
        try:
            return receive(self._proc.stdout)
        except EOFError:
            self.error = f"worker exited ({self._proc.wait()}){self._log_tail()}"
            raise PeerError(self.error) from None

    def _log_tail(self, lines: int = 1) -> str:
        self._log.flush()
        self._log.seek(0)
        tail = self._log.read().strip().splitlines()[-lines:]
        return (": " + " / ".join(tail))[:400] if tail else ""

    def close(self) -> None:
        if self._proc is None:
            return
        if self._proc.poll() is None:
            try:
                send(self._proc.stdin, {"cmd": "quit"})
                self._proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        self._log.close()
        self._proc = None
