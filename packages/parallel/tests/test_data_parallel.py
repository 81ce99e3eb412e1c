"""Data parallel: N thread-ranks with batch B/N end with the same weights as one rank with
batch B (TrainOneStepCell and Model, PyNative and Graph mode, float64 and float32); data
sharded by rank on its own; rank 0's weights broadcast."""
import numpy as np
import pytest

import sporeling.data as sd
import sporeling.parallel as sp
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context
from sporeling.parallel.testing import run_local

from _data_parallel_train import BATCH, train

TOL = {np.float64: 1e-10, np.float32: 1e-5}


@pytest.fixture(autouse=True)
def _stand_alone_after():
    yield
    sp.reset_auto_parallel_context()


def _compare(dtype, ranks, mode, **kwargs):
    with context(mode=mode):
        reference = train(dtype, BATCH)
        sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
        results = run_local(ranks, train, dtype, BATCH // ranks, **kwargs)
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
        noisy = run_local(2, lambda: train(np.float64, BATCH // 2,
                                           noise=0.1 * sp.get_rank()))
    np.testing.assert_allclose(noisy[1]["w0"], noisy[0]["w0"], rtol=0, atol=0)


def test_without_data_parallel_every_rank_trains_alone():
    # stand_alone: no reducer, no sharding -- each rank sees all rows, weights differ
    # from the data-parallel run's (which would equal one rank with batch B)
    reference = train(np.float64, BATCH)
    alone = run_local(2, train, np.float64, BATCH // 2)
    assert not np.allclose(alone[0]["w0"], reference["w0"])
    np.testing.assert_array_equal(alone[0]["w0"], alone[1]["w0"])


def _rows(ranks, **kwargs):
    def read():
        ds = sd.NumpySlicesDataset((np.arange(10),), ["i"], shuffle=False, **kwargs)
        return [int(r[0]) for r in ds]
    return run_local(ranks, read)


def test_sources_shard_by_rank_in_data_parallel_mode_only():
    assert _rows(2) == [list(range(10))] * 2
    sp.set_auto_parallel_context(parallel_mode="data_parallel")
    assert _rows(2) == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
    assert _rows(3) == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # padded: equal steps
    # explicit shards win
    assert _rows(2, num_shards=5, shard_id=4) == [[4, 9]] * 2
