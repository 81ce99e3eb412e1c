"""``ops.TCPStore`` (2.10): MindSpore's signature and checks over sporeling.parallel's store."""
import threading
from datetime import timedelta

import pytest

from sporeling.ms import ops

pytest.importorskip("sporeling.parallel")


def test_master_and_client_share_keys_and_counters():
    master = ops.TCPStore("127.0.0.1", 0, is_master=True, timeout=timedelta(seconds=5))
    client = ops.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5))
    master.set("first_key", "first_value")
    assert client.get("first_key") == b"first_value"
    assert client.add("count", 2) == 2 and master.add("count", 3) == 5
    assert client.delete_key("first_key") and not master.delete_key("first_key")
    got = []
    waiting = threading.Thread(target=lambda: got.append(client.get("later")))
    waiting.start()
    master.set("later", b"\x00\x01")
    waiting.join(5)
    assert got == [b"\x00\x01"]
    client.close()
    master.close()


def test_mindspore_argument_checks():
    with pytest.raises(TypeError, match="'host_name' must be type of string"):
        ops.TCPStore(1, 1234)
    with pytest.raises(TypeError, match="'timeout' must be type of timedelta"):
        ops.TCPStore("127.0.0.1", 1234, timeout=5)
    with pytest.raises(ValueError, match="'port' must be legal"):
        ops.TCPStore("127.0.0.1", 70000)
    with pytest.raises(ValueError, match="'world_size' must be legal"):
        ops.TCPStore("127.0.0.1", 1234, world_size=0)
    store = ops.TCPStore("127.0.0.1", 0, is_master=True, timeout=timedelta(seconds=0.2))
    with pytest.raises(TypeError, match="'value' must be type of string or bytes"):
        store.set("k", 1)
    with pytest.raises(TypeError, match="'amount' must be type of string or int"):
        store.add("k", 1.5)
    with pytest.raises(RuntimeError, match="not set within"):
        store.get("missing")
    store.close()
