"""TCPStore: a key-value store over TCP shared by threads and processes."""
import socket
import struct
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.parallel.store import MAX_KEY_BYTES, StoreError, TCPStore


@pytest.fixture
def master():
    store = TCPStore("127.0.0.1", 0, is_master=True, timeout=5.0)
    yield store
    store.close()


@settings(max_examples=20, deadline=None)
@given(key=st.text(min_size=1, max_size=20), value=st.binary(max_size=200))
def test_set_get_roundtrip_any_key_and_bytes(key, value):
    store = TCPStore("127.0.0.1", 0, is_master=True, timeout=2.0)
    try:
        store.set(key, value)
        assert store.get(key) == value
        assert store.delete_key(key) and not store.delete_key(key)
    finally:
        store.close()


def test_counters_and_errors(master):
    assert master.add("n", 3) == 3 and master.add("n", -5) == -2
    assert master.get("n") == b"-2"
    master.set("text", "not a number")
    with pytest.raises(StoreError, match="not an integer"):
        master.add("text", 1)
    quick = TCPStore("127.0.0.1", master.port, timeout=0.2)
    with pytest.raises(StoreError, match="not set within"):
        quick.get("never")
    quick.close()


def test_a_get_waits_for_another_threads_set(master):
    client = TCPStore("127.0.0.1", master.port, timeout=5.0)
    got = []
    reader = threading.Thread(target=lambda: got.append(client.get("late")))
    reader.start()
    master.set("late", b"here")
    reader.join(5)
    assert got == [b"here"]
    client.close()


_WORKER = """
import sys
from sporeling.parallel.store import TCPStore
store = TCPStore("127.0.0.1", int(sys.argv[1]), timeout=10.0)
store.add("arrived", 1)
store.set("from_worker", store.get("from_master") + b"!")
"""


def test_master_waits_for_a_worker_process():
    import socket
    with socket.socket() as s:  # a free port for both processes
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    worker = subprocess.Popen([sys.executable, "-c", _WORKER, str(port)])
    try:
        master = TCPStore("127.0.0.1", port, world_size=2, is_master=True, timeout=20.0)
        master.set("from_master", b"hello")
        assert master.get("from_worker") == b"hello!"
        assert master.get("arrived") == b"1"
        assert worker.wait(20) == 0
        master.close()
    finally:
        worker.kill()


def test_no_server_is_a_clear_error():
    with pytest.raises(StoreError, match="no store server"):
        TCPStore("127.0.0.1", 1, timeout=0.1)


@pytest.mark.parametrize("request_bytes", [
    b"s" + struct.pack(">I", 1) + b"k" + struct.pack(">Q", 1 << 62),   # a value of 4 EiB
    b"g" + struct.pack(">I", 0xFFFFFFFF),                               # a 4 GiB key
    b"g" + struct.pack(">I", 2) + b"\xff\xfe",                          # a key not UTF-8
], ids=["huge value", "huge key", "bad key"])
def test_a_bad_request_closes_that_connection_only(master, request_bytes):
    with socket.create_connection(("127.0.0.1", master.port), timeout=5) as raw:
        raw.sendall(request_bytes)
        assert raw.recv(1) == b""                  # closed unread, no memory taken
    master.set("still", b"served")
    assert master.get("still") == b"served"


def test_limits_and_a_bad_timeout_are_refused_by_name(master):
    with pytest.raises(StoreError, match="key too long"):
        master.get("k" * (MAX_KEY_BYTES + 1))
    for timeout in (float("nan"), -1, 0, "soon"):
        with pytest.raises(StoreError, match="bad timeout"):
            TCPStore("127.0.0.1", master.port, timeout=timeout)
    with socket.create_connection(("127.0.0.1", master.port), timeout=5) as raw:
        raw.sendall(b"g" + struct.pack(">I", 1) + b"x" + struct.pack(">d", float("nan")))
        assert raw.recv(1) == b"\x01"              # refused with a reason, not a hang
        assert b"bad timeout" in raw.recv(100)
