"""Streams, events, core and thread limits on the synchronous CPU device (2.10's
ms.runtime names at the top level)."""
import os
import time

import numpy as np
import pytest
from threadpoolctl import ThreadpoolController

import sporeling.ms as ms
from sporeling.core.errors import SporelingError


def _blas_threads():
    return max(lib.num_threads for lib in ThreadpoolController().lib_controllers
               if lib.user_api == "blas")


@pytest.fixture(autouse=True)
def _restore():
    yield
    ms.set_cur_stream(ms.default_stream())
    ms.set_device_limit(0, -1, -1)


def test_fixed_streams_and_the_current_one():
    assert ms.default_stream().id == 0 and ms.communication_stream().id == 1
    assert ms.current_stream() == ms.default_stream()
    s1, s2 = ms.Stream(), ms.Stream(priority=1)
    assert s1 != s2 and s1.id >= 2 and ms.Stream(stream=s1) == s1
    with ms.StreamCtx(s1):
        assert ms.current_stream() == s1
        with ms.StreamCtx(None):
            assert ms.current_stream() == s1
    assert ms.current_stream() == ms.default_stream()
    ms.set_cur_stream(s2)
    assert ms.current_stream() == s2
    with pytest.raises(TypeError, match="mindspore.runtime.Stream"):
        ms.StreamCtx("s1")


def test_work_is_done_when_it_returns_so_queries_are_true():
    s = ms.Stream()
    with ms.StreamCtx(s):
        c = ms.ops.matmul(ms.Tensor(np.ones((8, 8), np.float32)),
                          ms.Tensor(np.ones((8, 8), np.float32)))
    ev = s.record_event()
    assert s.query() and ev.query()
    ev.synchronize(), s.synchronize(), ms.synchronize()
    s.wait_stream(ms.default_stream())
    ms.default_stream().wait_event(ev)
    assert c.asnumpy()[0, 0] == 8


def test_elapsed_time_is_the_wall_time_between_recordings():
    start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
    start.record()
    time.sleep(0.05)
    end.record()
    assert 45 <= start.elapsed_time(end) < 1000
    with pytest.raises(SporelingError, match="need timing"):
        ms.Event().elapsed_time(end)
    with pytest.raises(SporelingError, match="recorded first"):
        ms.Event(enable_timing=True).elapsed_time(end)


def test_cube_limits_cap_the_blas_threads_while_the_stream_is_current():
    full = _blas_threads()
    s = ms.Stream()
    ms.set_stream_limit(s, 1, 2)
    assert ms.get_stream_limit(s) == (1, 2) and _blas_threads() == full  # not current
    with ms.StreamCtx(s):
        assert _blas_threads() == 1
    assert _blas_threads() == full
    ms.reset_stream_limit(s)
    assert ms.get_stream_limit(s) == (-1, -1)
    with ms.StreamLimitCtx(ms.default_stream(), 1, -1):
        assert _blas_threads() == 1 and ms.get_stream_limit(ms.default_stream()) == (1, -1)
    assert _blas_threads() == full and ms.get_stream_limit(ms.default_stream()) == (-1, -1)
    ms.set_device_limit(0, 1, 3)
    assert ms.get_device_limit(0) == (1, 3) and _blas_threads() == 1
    with pytest.raises(ValueError, match="cube_num"):
        ms.set_stream_limit(s, 0)


def test_dispatch_threads_num_sets_the_kernel_threads():
    full = _blas_threads()
    ms.dispatch_threads_num(1)
    assert _blas_threads() == 1
    ms.dispatch_threads_num(full)
    assert _blas_threads() == full
    with pytest.raises(ValueError, match="threads_num"):
        ms.dispatch_threads_num(0)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux core binding")
def test_set_cpu_affinity_binds_the_main_thread_and_gives_the_cores_back():
    before = os.sched_getaffinity(0)
    first = min(before)
    try:
        ms.set_cpu_affinity(True, [f"{first}-{first}"])
        assert os.sched_getaffinity(0) == {first}
    finally:
        ms.set_cpu_affinity(False)
    assert os.sched_getaffinity(0) == before
    cpus = sorted(before)
    try:
        ms.set_cpu_affinity(True, module_to_cpu_dict={"main": [0], "minddata": [len(cpus) - 1]})
        assert os.sched_getaffinity(0) == {cpus[0], cpus[-1]}
    finally:
        ms.set_cpu_affinity(False)
    with pytest.raises(ValueError, match="cpuidX-cpuidY"):
        ms.set_cpu_affinity(True, ["3"])
    with pytest.raises(ValueError, match="modules"):
        ms.set_cpu_affinity(True, module_to_cpu_dict={"gpu": [0]})
    assert os.sched_getaffinity(0) == before


def test_the_runtime_namespace_gathers_them():
    assert ms.runtime.Stream is ms.Stream and ms.runtime.set_memory is ms.set_memory
    assert ms.runtime.synchronize() is None and ms.runtime.memory_reserved() >= 0
    assert all(hasattr(ms.runtime, name) for name in ms.runtime.__all__)
