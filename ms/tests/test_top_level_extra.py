"""Top-level names added for issue 22's coverage: the device and runtime settings with a
meaning on the host (``get_current_device``, ``launch_blocking``, ``set_recursion_limit``),
the memory pool's figures, ``swap_tensors``, and (tests/test_ms_insight.py) sporeling.insight's ``Profiler``/
``SummaryRecord``/``SummaryCollector``."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sporeling.ms as ms
from sporeling.core import SporelingError


def test_names_are_in___all___and_resolve():
    for name in ("get_current_device", "launch_blocking", "set_recursion_limit",
                 "swap_tensors", "memory_allocated", "max_memory_allocated", "memory_reserved",
                 "memory_stats", "memory_summary", "reset_peak_memory_stats",
                 "reset_max_memory_allocated", "empty_cache"):
        assert name in ms.__all__ and callable(getattr(ms, name)), name


def test_get_current_device_follows_set_device():
    info = ms.get_current_device()
    assert info == ("CPU", ms.get_context("device_id"))
    assert info.device_target == "CPU" and info.device_id == info[1]
    before = ms.get_context("device_id")
    try:
        ms.set_device("CPU", 1)
        assert ms.get_current_device().device_id == 1
    finally:
        ms.set_context(device_id=before)


def test_launch_blocking_records_synchronous_execution():
    before = ms.get_context("pynative_synchronize")
    try:
        ms.launch_blocking()
        assert ms.get_context("pynative_synchronize") is True
    finally:
        ms.set_context(pynative_synchronize=before)


def test_set_recursion_limit_bounds_graph_call_depth():
    before = ms.get_context("max_call_depth")
    try:
        ms.set_recursion_limit(4321)
        assert ms.get_context("max_call_depth") == 4321
        with pytest.raises(ValueError, match="positive int"):
            ms.set_recursion_limit(0)
    finally:
        ms.set_context(max_call_depth=before)


def test_memory_figures_follow_the_pool():
    ms.reset_peak_memory_stats()
    base = ms.memory_allocated()
    x = ms.Tensor(np.ones((256, 256), np.float32))
    assert ms.memory_allocated() >= base + x.nbytes
    assert ms.max_memory_allocated() >= ms.memory_allocated()
    assert ms.memory_reserved() >= ms.memory_allocated()
    stats = ms.memory_stats()
    assert stats["total_allocated_memory"] == ms.memory_allocated()
    assert stats["total_idle_memory"] == stats["total_reserved_memory"] - \
        stats["total_allocated_memory"]
    peak = ms.max_memory_allocated()
    del x
    ms.reset_max_memory_allocated()
    assert ms.max_memory_allocated() <= peak
    ms.empty_cache()
    summary = ms.memory_summary()
    assert summary.startswith("|" + "=" * 45 + "|\n") and "Allocated memory" in summary


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4))
def test_swap_tensors_exchanges_contents(n1, n2):
    a = ms.Tensor(np.arange(n1, dtype=np.float32))
    b = ms.Tensor(np.arange(n2, dtype=np.int64) + 10)
    ida, idb = id(a), id(b)
    ms.swap_tensors(a, b)
    assert (id(a), id(b)) == (ida, idb)
    assert a.dtype == np.int64 and a.tolist() == list(range(10, 10 + n2))
    assert b.dtype == np.float32 and b.tolist() == [float(i) for i in range(n1)]


def test_swap_tensors_swaps_parameter_names_and_refuses_mixed_classes():
    p, q = ms.Parameter(ms.Tensor([1.0]), name="p"), ms.Parameter(ms.Tensor([2.0]), name="q")
    ms.swap_tensors(p, q)
    assert (p.name, p.tolist(), q.name, q.tolist()) == ("q", [2.0], "p", [1.0])
    with pytest.raises(SporelingError, match="same class"):
        ms.swap_tensors(p, ms.Tensor([3.0]))


def test_deprecated_sparse_containers_match_the_2_10_examples():
    x = ms.RowTensor(ms.Tensor([0]), ms.Tensor([[1, 2]], dtype=ms.float32), (3, 2))
    assert x.values.tolist() == [[1.0, 2.0]] and x.indices.tolist() == [0]
    assert x.dense_shape == (3, 2)
    y = ms.RowTensor(row_tensor=x)
    assert y.dense_shape == (3, 2) and y.values.tolist() == [[1.0, 2.0]]
    with pytest.raises(TypeError, match="should all be `None`"):
        ms.RowTensor(ms.Tensor([0]), row_tensor=x)
    s = ms.SparseTensor(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([1, 2], dtype=ms.float32), (3, 4))
    assert s.values.tolist() == [1.0, 2.0] and s.indices.tolist() == [[0, 1], [1, 2]]
    assert s.shape == (3, 4)
    with pytest.raises(SporelingError, match="tuple of ints"):
        ms.SparseTensor(s.indices, s.values, "3x4")


def test_sparse_containers_pass_through_jit():
    @ms.jit
    def f(indices, values):
        x = ms.RowTensor(indices, values, (3, 2))
        return x.values * 2, x.indices
    values, indices = f(ms.Tensor([1]), ms.Tensor([[1.0, 2.0]]))
    assert values.tolist() == [[2.0, 4.0]] and indices.tolist() == [1]
