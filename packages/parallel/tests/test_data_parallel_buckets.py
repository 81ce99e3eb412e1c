"""Data parallel's buckets: the cap is respected, every bucket is one fused all-reduce,
buckets start during backward (before it ends) in PyNative mode, and Graph mode compiles
one all_reduce per bucket into the step."""
import numpy as np
import pytest

import sporeling.parallel as sp
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.optim import SGD
from sporeling.expression.train import TrainOneStepCell, WithLossCell
from sporeling.parallel.data_parallel import DistributedGradReducer, plan_buckets
from sporeling.parallel.testing import run_local

from _data_parallel_train import MLP, batches, mse

@pytest.fixture(autouse=True)
def _stand_alone_after():
    sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    yield
    sp.reset_auto_parallel_context()


def _rank_step():
    """One data-parallel step on this rank; the step cell, its reducer and the sizes of
    the all-reduces it started."""
    net = MLP(np.float64)
    step = TrainOneStepCell(WithLossCell(net, mse), SGD(net.trainable_params(), 0.1))
    reducer = step.grad_reducer
    sizes = []
    start = reducer.comm.iall_reduce

    def spy(x, op="sum", *, out=None):
        sizes.append(np.asarray(x).nbytes)
        return start(x, op, out=out)
    reducer.comm.iall_reduce = spy
    x, y = batches(np.float64, 2, reducer.comm.rank)[0]
    step(x, y)
    return step, reducer, sizes


def _step(cap_mb, mode=PYNATIVE_MODE):
    """Rank 0's ``_rank_step`` of 2 thread-ranks (the context is the process's: set here)."""
    settings = {} if cap_mb is None else {"bucket_cap_mb": cap_mb}
    with context(mode=mode, **settings):
        return run_local(2, _rank_step)[0]


def test_default_bucket_is_25_mib_and_holds_this_small_model_whole():
    step, reducer, sizes = _step(None)
    assert isinstance(reducer, DistributedGradReducer) and reducer.bucket_cap_mb == 25.0
    assert len(reducer.buckets) == 1 and sizes == [sum(p.asnumpy().nbytes
                                                       for p in step.weights)]


def test_bucket_cap_is_respected_one_all_reduce_per_bucket():
    step, reducer, sizes = _step(300 / 2**20)
    nbytes = [p.asnumpy().nbytes for p in step.weights]  # 240, 48, 288, 48, 48
    # last layers first, packed while they fit: 48+48 | 288 (+48 would pass 300) | 48+240
    assert [b.indices for b in reducer.buckets] == [(4, 3), (2,), (1, 0)]
    assert sizes == [b.nbytes for b in reducer.buckets] == [96, 288, 288]
    assert all(s <= 300 for s in sizes) and sum(sizes) == sum(nbytes)


def test_a_parameter_bigger_than_the_cap_travels_alone():
    class P:
        def __init__(self, n):
            self.shape, self.dtype = (n,), np.dtype(np.float32)
    assert [b.indices for b in plan_buckets([P(1), P(1000), P(1)], cap_bytes=64)] == \
        [(2,), (1,), (0,)]
    # dtypes never share a bucket
    p64 = P(2)
    p64.dtype = np.dtype(np.float64)
    assert [b.indices for b in plan_buckets([P(2), p64, P(2)], cap_bytes=1 << 20)] == \
        [(2, 0), (1,)]


def test_comm_fusion_groups_split_the_buckets():
    from sporeling.expression import Parameter
    params = [Parameter(np.zeros(4, np.float32), name=f"p{i}") for i in range(5)]
    assert [b.indices for b in plan_buckets(params, cap_bytes=1 << 20)] == [(4, 3, 2, 1, 0)]
    params[1].comm_fusion = params[3].comm_fusion = 2   # MindSpore's fusion group ids
    params[2].comm_fusion = 0                           # 0: never fused
    assert [b.indices for b in plan_buckets(params, cap_bytes=1 << 20)] == \
        [(4, 0), (3, 1), (2,)]
    with pytest.raises(Exception, match="comm_fusion"):
        params[0].comm_fusion = -1


def test_buckets_start_during_backward_before_it_ends():
    _, reducer, _ = _step(50 / 2**20)  # one parameter per bucket
    events = reducer.last_step_events
    readies = [i for i, e in enumerate(events) if e[0] == "ready"]
    starts = [i for i, e in enumerate(events) if e[0] == "start"]
    assert len(readies) == 5 and len(starts) == len(reducer.buckets) == 5
    # the last layer's gradient is final first, and its bucket is on the wire at once,
    # while backward still computes the other four gradients
    assert events[0] == ("ready", "w4") and events[1] == ("start", 0)
    assert starts[0] < readies[-1]
    assert [e for e in events if e[0] == "ready"] == \
        [("ready", n) for n in ("w4", "w3", "w2", "w1", "w0")]


def test_graph_mode_starts_each_buckets_all_reduce_amid_the_compiled_backward():
    step, reducer, _ = _step(300 / 2**20, GRAPH_MODE)
    names = [eq.prim.name for eq in cache_of(step).last_graph.equations]
    starts = [i for i, n in enumerate(names) if n == "all_reduce_start"]
    waits = [i for i, n in enumerate(names) if n == "all_reduce_wait"]
    matmuls = [i for i, n in enumerate(names) if n == "matmul"]
    assert len(starts) == len(waits) == len(reducer.buckets) == 3
    assert starts[0] < matmuls[-1]    # the last layer's bucket starts before backward ends
    assert max(starts) < min(waits)   # every wait after every start: nothing blocks early
    assert "all_reduce" not in names
    assert reducer.last_step_events == []  # nothing eager: the graph reduced


def test_reducer_errors_name_what_was_expected():
    def bad():
        net = MLP(np.float64)
        reducer = DistributedGradReducer(net.trainable_params())
        with pytest.raises(sp.ParallelError, match="expected 5 gradients, got 1"):
            reducer((np.zeros(3),))
        with pytest.raises(sp.ParallelError, match="bad bucket_cap_mb"):
            DistributedGradReducer(net.trainable_params(), bucket_cap_mb=0)
    run_local(2, bad)


def test_buckets_start_in_one_order_on_every_rank_whatever_order_gradients_come_in():
    # MPI matches collectives by order: a rank whose gradients come in another order must
    # still start bucket 0 first (here: only once its last gradient arrives)
    def rank():
        net = MLP(np.float64)
        params = net.trainable_params()
        reducer = DistributedGradReducer(params, mean=True, bucket_cap_mb=50 / 2**20)
        r = reducer.comm.rank
        grads = [np.full(p.shape, float(r + 1 + i)) for i, p in enumerate(params)]
        order = range(5) if r == 1 else reversed(range(5))  # rank 1: first layer first
        for i in order:
            reducer.gradient_ready(params[i], grads[i])
        out = reducer(tuple(grads))
        return reducer.last_step_events, [g.asnumpy() for g in out]
    (events0, out0), (events1, out1) = run_local(2, rank)
    for i, (a, b) in enumerate(zip(out0, out1)):
        np.testing.assert_array_equal(a, np.full(a.shape, i + 1.5))
        np.testing.assert_array_equal(b, a)
    starts1 = [e for e in events1 if e[0] == "start"]
    assert starts1 == [("start", b) for b in range(5)]
    assert events1.index(("start", 0)) > events1.index(("ready", "w4"))
