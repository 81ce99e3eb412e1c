"""An autocast region is a layer of its own thread's interpreter stack: another thread's ops
at the same moment run uncast, and nothing global changes."""
import threading

import numpy as np

import sporeling.expression as sx
from sporeling.amp import autocast
from sporeling.compiler.core.stack import layers


def test_autocast_in_one_thread_leaves_another_threads_ops_alone():
    w = sx.Tensor(np.ones((3, 3), np.float32))
    inside, checked = threading.Event(), threading.Event()
    seen = {}

    def amp_thread():
        with autocast(dtype=sx.float16):
            seen["amp"] = (w @ w).dtype
            inside.set()
            assert checked.wait(30)
            seen["amp later"] = (w @ w).dtype

    def plain_thread():
        assert inside.wait(30)
        try:
            seen["plain"] = (w @ w).dtype
            seen["plain layers"] = len(layers())
        finally:
            checked.set()

    threads = [threading.Thread(target=amp_thread), threading.Thread(target=plain_thread)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert seen["amp"] == np.float16 and seen["amp later"] == np.float16
    assert seen["plain"] == np.float32
    assert seen["plain layers"] == 0
    assert layers() == []


def test_enabled_false_inside_autocast_wins_and_both_pop():
    w = sx.Tensor(np.ones((2, 2), np.float32))
    with autocast(dtype=sx.bfloat16):
        with autocast(enabled=False):
            assert (w @ w).dtype == np.float32
        assert (w @ w).dtype == sx.bfloat16
    assert (w @ w).dtype == np.float32 and layers() == []
