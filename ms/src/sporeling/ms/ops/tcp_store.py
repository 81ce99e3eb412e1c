"""``ops.TCPStore`` (2.10, also ``mindspore.ops.communication``): MindSpore's signature and
argument checks over ``sporeling.parallel``'s key-value store (a server thread on the
master, Python sockets). Listed in ``ops`` where sporeling.parallel is installed.

As in 2.10, ``multi_tenant``, ``master_listen_fd`` and ``use_libuv`` are accepted and change
nothing; ``world_size=None`` means 1 (no worker to wait for); ``get`` of a key not set within
``timeout`` raises ``RuntimeError``; ``add`` on a value that is not an integer's text too."""
from __future__ import annotations

from datetime import timedelta

from sporeling.parallel.store import TCPStore as _Store

__all__ = ["TCPStore"]


def _check(owner: str, name: str, value, types, what: str):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{owner}', the argument '{name}' must be type of {what}, but "
                        f"got '{name}' type : {type(value)}.")


class TCPStore(_Store):
    """``TCPStore(host_name, port, world_size=None, is_master=False,
    timeout=timedelta(seconds=300), wait_for_workers=True, multi_tenant=False,
    master_listen_fd=None, use_libuv=True)``."""

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=timedelta(seconds=300), wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True):
        _check("TCPStore", "host_name", host_name, (str,), "string")
        _check("TCPStore", "port", port, (int,), "int")
        _check("TCPStore", "is_master", is_master, (bool,), "bool")
        _check("TCPStore", "timeout", timeout, (timedelta,), "timedelta")
        _check("TCPStore", "wait_for_workers", wait_for_workers, (bool,), "bool")
        world_size = 1 if world_size is None else world_size
        _check("TCPStore", "world_size", world_size, (int,), "int")
        if not 0 <= port <= 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError("For 'TCPStore', the argument 'world_size' must be legal, but got "
                             f"{world_size}.")
        super().__init__(host_name, port, world_size, is_master, timeout.total_seconds(),
                         wait_for_workers)
        self.host = host_name

    def add(self, key, amount):
        """Add ``amount`` to the counter ``key`` (made at 0); returns the new value."""
        _check("TCPStore.add", "key", key, (str,), "string")
        _check("TCPStore.add", "amount", amount, (int,), "string or int")
        return super().add(key, amount)

    def set(self, key, value):
        """Store ``value`` (str or bytes) under ``key``, replacing an older value."""
        _check("TCPStore.set", "key", key, (str,), "string")
        _check("TCPStore.set", "value", value, (str, bytes), "string or bytes")
        return super().set(key, value)

    def get(self, key):
        """The bytes stored under ``key`` (waits up to ``timeout`` for them)."""
        _check("TCPStore.get", "key", key, (str,), "string")
        return super().get(key)

    def delete_key(self, key):
        """Remove ``key``; True if it was there."""
        _check("TCPStore.delete_key", "key", key, (str,), "string")
        return super().delete_key(key)
