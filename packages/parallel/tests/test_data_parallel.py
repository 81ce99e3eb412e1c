"""Data parallel: N thread-ranks with batch B/N end with the same weights as one rank with
batch B (TrainOneStepCell and Model, PyNative and Graph mode, float64 and float32); rank 0's
weights broadcast. (sporeling.data's sharding by rank: tests/test_data_parallel_pipeline.py.)"""
import numpy as np
import pytest

import sporeling.parallel as sp
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context
from sporeling.parallel.testing import run_local

from _data_parallel_train import train

TOL = {np.float64: 1e-10, np.float32: 1e-5}


@pytest.fixture(autouse=True)
def _stand_alone_after():
    yield
    sp.reset_auto_parallel_context()


def _compare(dtype, ranks, mode, **kwargs):
    with context(mode=mode):
        reference = train(dtype)
        sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
        results = run_local(ranks, train, dtype, ranks, **kwargs)
    for got in results:
        for name, want in reference.items():
            np.testing.assert_allclose(got[name], want, rtol=TOL[dtype], atol=TOL[dtype],
                                       err_msg=name)
    return reference


@pytest.mark.parametrize("mode", [PYNATIVE_MODE, GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("ranks", [2, 4])
def test_n_ranks_with_batch_b_over_n_match_one_rank_with_batch_b(ranks, dtype, mode):
    reference = _compare(dtype, ranks, mode)
    assert reference["w0"].dtype == dtype


def test_model_train_is_data_parallel_too_and_rank_0_weights_win():
    # ranks other than 0 start from other weights: the broadcast makes them rank 0's
    _compare(np.float64, 2, PYNATIVE_MODE, use_model=True)
    with context(mode=PYNATIVE_MODE):
        sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
        noisy = run_local(2, lambda: train(np.float64, 2, noise=0.1 * sp.get_rank()))
    np.testing.assert_allclose(noisy[1]["w0"], noisy[0]["w0"], rtol=0, atol=0)


def test_without_data_parallel_every_rank_trains_alone():
    # stand_alone: no reducer -- each rank trains on its own half, weights differ from
    # one rank's with the whole batch (which the data-parallel run equals)
    reference = train(np.float64)
    alone = run_local(2, train, np.float64, 2)
    assert not np.allclose(alone[0]["w0"], reference["w0"])
    assert not np.allclose(alone[0]["w0"], alone[1]["w0"])


def _jit_train(dtype, ranks):
    """Your own compiled step: ``jit`` of value_and_grad and the reducer, then SGD."""
    import sporeling.expression as sx
    from sporeling.parallel.data_parallel import DistributedGradReducer
    from _data_parallel_train import MLP, batches, mse
    net = MLP(dtype)
    params = net.trainable_params()
    reducer = DistributedGradReducer(params, mean=True) if ranks > 1 else (lambda g: g)
    vg = sx.value_and_grad(lambda x, y: mse(net(x), y), None, params)

    @sx.jit
    def loss_and_grads(x, y):
        loss, grads = vg(x, y)
        return loss, reducer(grads)
    for x, y in batches(dtype, ranks, sp.get_rank() if ranks > 1 else 0):
        _, grads = loss_and_grads(x, y)
        for p, g in zip(params, grads):
            p.set_data(p.asnumpy() - 0.2 * g.asnumpy())
    graph = loss_and_grads.last_graph
    return {p.name: p.asnumpy().copy() for p in params}, graph


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_jit_step_calling_the_reducer_compiles_its_all_reduces(dtype):
    reference, _ = _jit_train(dtype, 1)
    results = run_local(2, _jit_train, dtype, 2)
    for got, graph in results:
        counts = graph.primitive_counts()  # one 25 MiB bucket
        assert counts.get("all_reduce_start") == counts.get("all_reduce_wait") == 1
        for name, want in reference.items():
            np.testing.assert_allclose(got[name], want, rtol=TOL[dtype], atol=TOL[dtype])

