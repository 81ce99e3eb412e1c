"""``TCPStore``: a key-value store over TCP that the processes of a job share (PyTorch's and
MindSpore's ``TCPStore``: rendezvous data, counters, barriers).

The master (``is_master=True``) runs the server on a daemon thread and is a client of it
too; the others connect to ``host:port``. ``set(key, value)`` stores bytes, ``get(key)``
waits (up to ``timeout``) until the key exists, ``add(key, n)`` adds to a counter kept as
decimal text (a key made by ``set`` must hold an integer's text), ``delete_key(key)`` says
whether the key was there. With ``world_size`` and ``wait_for_workers`` the master waits until
``world_size - 1`` other clients have connected.

    >>> store = TCPStore("127.0.0.1", 0, is_master=True)    # port 0: a free one
    >>> store.set("a", b"1"); store.add("a", 4), store.get("a")
    (5, b'5')

The wire format (this module's own): a request is one opcode byte, the key (4-byte
big-endian length, UTF-8) and an operand (8-byte length and bytes, or a signed 8-byte
integer); a reply is a status byte and a payload of the same kinds. Keys hold at most
:data:`MAX_KEY_BYTES`, values :data:`MAX_VALUE_BYTES`: the server closes a connection that
announces more (or sends a key that is not UTF-8) before reading it, and keeps serving the
others. Like PyTorch's and MindSpore's, the store has no authentication: listen on an
address only the job's processes reach.
"""
from __future__ import annotations

import socket
import struct
import threading
import time

from .errors import ParallelError

__all__ = ["TCPStore", "StoreError", "MAX_KEY_BYTES", "MAX_VALUE_BYTES"]

MAX_KEY_BYTES = 1 << 16
MAX_VALUE_BYTES = 1 << 30

_HELLO, _SET, _GET, _ADD, _DELETE = b"h", b"s", b"g", b"a", b"d"
_OK, _FAIL = b"\x00", b"\x01"


class StoreError(ParallelError, RuntimeError):
    """A store request that failed (a timeout, a counter that is not a number, no server)."""


def _recv(sock, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the store connection closed")
        data += chunk
    return bytes(data)


def _blob(data: bytes) -> bytes:
    return struct.pack(">Q", len(data)) + data


def _read_blob(sock) -> bytes:
    size = struct.unpack(">Q", _recv(sock, 8))[0]
    if size > MAX_VALUE_BYTES:  # a length no value has: read nothing of it
        raise ConnectionError(f"a value of {size} bytes announced (at most {MAX_VALUE_BYTES})")
    return _recv(sock, size)


class _Server:
    """The master's store: a dict, a condition for waiting readers, a thread per client."""

    def __init__(self, host: str, port: int):
        self.data: dict[str, bytes] = {}
        self.cond = threading.Condition()
        self.clients = 0
        self.sock = socket.create_server((host, port), reuse_port=False)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True, name="TCPStore-server").start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn) -> None:
        with conn:
            try:
                while True:
                    op = _recv(conn, 1)
                    size = struct.unpack(">I", _recv(conn, 4))[0]
                    if size > MAX_KEY_BYTES:
                        return
                    key = _recv(conn, size).decode()
                    conn.sendall(self._handle(op, key, conn))
            except (ConnectionError, OSError, ValueError):  # closed, oversized, not UTF-8
                return

    def _handle(self, op: bytes, key: str, conn) -> bytes:
        if op == _HELLO:
            with self.cond:
                self.clients += 1
                self.cond.notify_all()
            return _OK + _blob(b"")
        if op == _SET:
            value = _read_blob(conn)
            with self.cond:
                self.data[key] = value
                self.cond.notify_all()
            return _OK + _blob(b"")
        if op == _GET:
            timeout = struct.unpack(">d", _recv(conn, 8))[0]
            if not 0 <= timeout < float("inf"):
                return _FAIL + _blob(f"bad timeout {timeout!r}".encode())
            with self.cond:
                if not self.cond.wait_for(lambda: key in self.data, timeout):
                    return _FAIL + _blob(f"key {key!r} not set within {timeout} s".encode())
                return _OK + _blob(self.data[key])
        if op == _ADD:
            amount = struct.unpack(">q", _recv(conn, 8))[0]
            with self.cond:
                try:
                    total = int(self.data.get(key, b"0")) + amount
                except ValueError:
                    return _FAIL + _blob(f"key {key!r} holds {self.data[key]!r}, not an "
                                         "integer".encode())
                self.data[key] = str(total).encode()
                self.cond.notify_all()
            return _OK + _blob(str(total).encode())
        if op == _DELETE:
            with self.cond:
                found = self.data.pop(key, None) is not None
            return _OK + _blob(b"1" if found else b"0")
        return _FAIL + _blob(f"unknown request {op!r}".encode())

    def wait_for_clients(self, count: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.clients >= count, timeout)

    def close(self) -> None:
        self.sock.close()


class TCPStore:
    """``TCPStore(host, port, world_size=None, is_master=False, timeout=300.0,
    wait_for_workers=True)``; ``timeout`` in seconds bounds connecting, waiting for the
    workers and each ``get``."""

    def __init__(self, host: str, port: int, world_size: int | None = None,
                 is_master: bool = False, timeout: float = 300.0,
                 wait_for_workers: bool = True):
        try:
            self.timeout = float(timeout)
        except (TypeError, ValueError):
            self.timeout = float("nan")
        if not 0 < self.timeout < float("inf"):
            raise StoreError("bad timeout", op="TCPStore", expected="seconds > 0, finite",
                             got=repr(timeout))
        self.host = host
        self._server = _Server(host, port) if is_master else None
        self.port = self._server.port if is_master else int(port)
        self._lock = threading.Lock()
        self._sock = self._connect()
        if is_master and world_size is not None and wait_for_workers and world_size > 1:
            if not self._server.wait_for_clients(world_size, self.timeout):
                raise StoreError("not every worker connected", op="TCPStore",
                                 expected=f"{world_size - 1} workers within {self.timeout} s",
                                 got=f"{self._server.clients - 1}")

    def _connect(self):
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
                break
            except OSError as exc:  # the master may not listen yet
                if time.monotonic() >= deadline:
                    raise StoreError("no store server", op="TCPStore",
                                     expected=f"a master listening on {self.host}:{self.port}",
                                     got=str(exc)) from None
                time.sleep(0.05)
        sock.settimeout(None)
        self._request(_HELLO, "", b"", sock)
        return sock

    def _request(self, op: bytes, key: str, operand: bytes, sock=None) -> bytes:
        sock = sock or self._sock
        name = key.encode()
        if len(name) > MAX_KEY_BYTES:
            raise StoreError("key too long", op=f"TCPStore.{_NAMES[op]}",
                             expected=f"at most {MAX_KEY_BYTES} bytes (UTF-8)", got=len(name))
        with self._lock:
            sock.sendall(op + struct.pack(">I", len(name)) + name + operand)
            status = _recv(sock, 1)
            payload = _read_blob(sock)
        if status != _OK:
            raise StoreError(payload.decode(), op=f"TCPStore.{_NAMES[op]}", where=key)
        return payload

    def set(self, key: str, value) -> None:
        """Store ``value`` (bytes, or a str as UTF-8) under ``key``."""
        value = value.encode() if isinstance(value, str) else bytes(value)
        if len(value) > MAX_VALUE_BYTES:
            raise StoreError("value too large", op="TCPStore.set", where=key,
                             expected=f"at most {MAX_VALUE_BYTES} bytes", got=len(value))
        self._request(_SET, key, _blob(value))

    def get(self, key: str) -> bytes:
        """The value of ``key``, waiting up to ``timeout`` for it to be set."""
        return self._request(_GET, key, struct.pack(">d", self.timeout))

    def add(self, key: str, amount: int) -> int:
        """Add ``amount`` to the counter ``key`` (made at 0); the new value."""
        return int(self._request(_ADD, key, struct.pack(">q", int(amount))))

    def delete_key(self, key: str) -> bool:
        """Remove ``key``; whether it was there."""
        return self._request(_DELETE, key, b"") == b"1"

    def close(self) -> None:
        """Close the connection (and the master's server)."""
        self._sock.close()
        if self._server is not None:
            self._server.close()


_NAMES = {_HELLO: "connect", _SET: "set", _GET: "get", _ADD: "add", _DELETE: "delete_key"}
