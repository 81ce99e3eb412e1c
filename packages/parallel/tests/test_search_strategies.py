"""Automatic strategy search: Megatron vs data parallel, exactness of the DP, simulated
clusters, and an auto_parallel run equal to one device."""
import itertools
import time

import numpy as np
import pytest

from sporeling.compiler.core import Aval
from sporeling.compiler.ir import make_graph
from sporeling.parallel import reset_auto_parallel_context, set_auto_parallel_context
from sporeling.parallel.operator import shard
from sporeling.parallel.search import Machine, format_table, measure, search
from sporeling.parallel.search.models import mlp_graph, transformer_graph
from sporeling.parallel.search.problem import Problem
from sporeling.parallel.search.cost import CostModel
from sporeling.parallel.testing import run_local

from _parallel_models import mlp

MACHINE = Machine(flops=1e11, bandwidth=1e10, latency=1e-5)


@pytest.mark.parametrize("mode", ["dynamic_programming", "recursive_programming",
                                  "sharding_propagation"])
def test_hidden_dwarfing_batch_gives_megatron_column_then_row(mode):
    g, params = mlp_graph(batch=8, hidden=512, width=8192)
    r = search(g, 8, mode=mode, machine=MACHINE, params=params)
    first, act, second = (row["strategy"] for row in r.table())
    assert first == ((1, 1), (1, 8))          # column split: the hidden units
    assert act == ((1, 8),)
    assert second == ((1, 8), (8, 1))         # row split: partial sums, one all-reduce


def test_batch_dwarfing_hidden_gives_data_parallel():
    g, params = mlp_graph(batch=8192, hidden=64, width=128)
    r = search(g, 8, mode="dynamic_programming", machine=MACHINE, params=params)
    assert [row["strategy"] for row in r.table()] == [
        ((8, 1), (1, 1)), ((8, 1),), ((8, 1), (1, 1))]


def _brute_force(problem):
    n = len(problem.graph.equations)
    opts = [problem.options(i) for i in range(n)]
    return min(problem.estimate(list(c))["step_time_s"] for c in itertools.product(*opts))


def test_dynamic_programming_is_the_exact_optimum_on_a_branching_graph():
    from sporeling.compiler import ops

    def f(x, w1, w2, w3):
        h = ops.matmul(x, w1)
        return ops.add(ops.matmul(ops.relu(h), w2), ops.matmul(h, w3))
    g = make_graph(f, Aval((64, 32), np.float32), Aval((32, 256), np.float32),
                   Aval((256, 32), np.float32), Aval((256, 32), np.float32))
    r = search(g, 4, mode="dynamic_programming", machine=MACHINE, params=(1, 2, 3))
    problem = Problem.build(g, 2, CostModel(MACHINE, {g.inputs[k] for k in (1, 2, 3)}))
    assert r.estimate["step_time_s"] == pytest.approx(_brute_force(problem), rel=1e-12)


def test_24_layer_transformer_on_64_devices_searches_within_10_s():
    g, params = transformer_graph(24, batch=16, seq=512, hidden=1024, heads=16)
    t = time.perf_counter()
    r = search(g, 64, mode="dynamic_programming", machine=MACHINE, params=params)
    elapsed = time.perf_counter() - t
    assert elapsed <= 10.0, elapsed
    softmax = {row["strategy"] for row in r.table() if row["op"] == "softmax"}
    assert all(st[0][3] == 1 for st in softmax)  # the softmax axis is never split
    e = r.estimate
    assert e["step_time_s"] > e["compute_s"] > 0 and e["comm_bytes_per_step"] > 0


def test_simulated_1024_devices_report_time_memory_and_volume():
    g, params = transformer_graph(4, batch=64, seq=512, hidden=1024, heads=16)
    small = search(g, 64, mode="recursive_programming", machine=MACHINE, params=params)
    big = search(g, 1024, mode="recursive_programming", machine=MACHINE, params=params)
    assert big.estimate["memory_per_device_bytes"] < small.estimate["memory_per_device_bytes"]
    assert big.estimate["compute_s"] < small.estimate["compute_s"]
    text = format_table(big)
    assert "devices 1024" in text and "memory per device" in text
    assert "communication per step per device" in text


def test_measured_machine_has_positive_rates():
    m = measure()
    assert m.flops > 1e6 and m.bandwidth > 1e5 and 0 < m.latency < 1


@pytest.mark.parametrize("mode", ["dynamic_programming", "recursive_programming",
                                  "sharding_propagation"])
def test_auto_parallel_run_equals_one_device(mode):
    rng = np.random.default_rng(0)
    x, w1, w2 = (rng.standard_normal(s) for s in ((4, 8), (8, 64), (64, 8)))
    set_auto_parallel_context(parallel_mode="auto_parallel", search_mode=mode)
    try:
        f = shard(mlp)
        outs = run_local(4, lambda: f(x, w1, w2))
    finally:
        reset_auto_parallel_context()
    for out in outs:
        np.testing.assert_allclose(out, mlp(x, w1, w2), rtol=1e-12, atol=1e-12)


def test_unknown_mode_is_an_error():
    g, params = mlp_graph(8, 8, 8)
    with pytest.raises(ValueError, match="search_mode|unknown search mode"):
        search(g, 2, mode="greedy", machine=MACHINE)


def test_a_shard_replans_when_the_parallel_mode_changes():
    args = [np.ones((8, 512)), np.ones((512, 4096)), np.ones((4096, 512))]
    f = shard(mlp)
    semi = f.table(*args, device_num=8)
    assert semi[0]["strategy"] == ((1, 1), (1, 1))  # nothing annotated: nothing split
    set_auto_parallel_context(parallel_mode="auto_parallel",
                              search_mode="dynamic_programming")
    try:
        auto = f.table(*args, device_num=8)
    finally:
        reset_auto_parallel_context()
    # plain arguments carry no gradient all-reduce: splitting the batch is cheapest
    assert auto[0]["strategy"] == ((8, 1), (1, 1))
    assert f.table(*args, device_num=8) == semi


def test_dynamic_programming_on_a_graph_that_does_not_reduce():
    """Four ops all connected to each other: no op has two neighbours or fewer, so the
    busiest is fixed at its best guess; the plan must still run and equal one device."""
    from sporeling.compiler import ops

    def k4(x):
        a = ops.exp(x)
        b = ops.sin(a)
        c = ops.mul(a, b)
        return ops.clip(c, a, b)
    x = np.random.default_rng(8).standard_normal((8, 8))
    g = make_graph(k4, x)
    r = search(g, 4, mode="dynamic_programming", machine=MACHINE)
    problem = Problem.build(g, 2, CostModel(MACHINE))
    assert r.estimate["step_time_s"] >= _brute_force(problem) - 1e-15
    from sporeling.parallel.operator.execute import run_sharded
    from sporeling.parallel import comm
    outs = run_local(4, lambda: run_sharded(r.sharded, [x], comm.current()))
    for (out,) in outs:
        np.testing.assert_allclose(out, k4(x), rtol=1e-12)


def test_fully_use_devices_off_lets_the_search_leave_devices_idle():
    from sporeling.core import context, get_context
    from sporeling.compiler import ops
    x = np.ones((8, 8))
    g = make_graph(lambda a: ops.exp(a), x)
    assert get_context("fully_use_devices") is True
    full = Problem.build(g, 2, CostModel(MACHINE)).options(0)
    with context(fully_use_devices=False):
        partial = Problem.build(g, 2, CostModel(MACHINE)).options(0)
    # every strategy of the default uses 4 blocks; off, the 1- and 2-block ones join
    assert len(partial) > len(full)
    assert {s for s in partial} >= {s for s in full}
